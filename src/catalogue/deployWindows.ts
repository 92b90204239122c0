// The change windows of the ASAs a deploy goes to, and its `--at` and `--break-glass`: what the deploy
// declares as its timing (TargetSpec.timing), which the approvals' executor applies (src/approvals/timing.ts).
// A device's windows are the policy's that cover it (`changes.windows`: by profile and/or device query) and,
// when the tenant has SCC's scheduled deployments on (getTenantSettings `scheduledDeployments`), SCC's
// deviceMaintenanceWindow of the device. Either one open is enough (src/model/changeWindows.ts).

import { z } from 'zod';
import type { PolicyWindow } from '../config/profilesFileSchema.js';
import {
  type ChangeWindow,
  type DeviceWindows,
  describeWindow,
  isCron,
  nextCommonOpening,
  parseAt,
  windowState,
} from '../model/changeWindows.js';
import { UserError } from '../model/errors.js';
import { untrusted } from '../render/untrusted.js';
import { viewerTime } from '../render/viewerTime.js';
import type { OperationContext } from './operation.js';

/** How many devices a policy window's query is matched against at most. */
const QUERY_BUDGET = 2_000;

/** The policy's windows as evaluated: weekly openings in their zone. */
function asChangeWindow(window: PolicyWindow): DeviceWindowsFacts['windows'][number] {
  return {
    kind: 'policy',
    timeZone: window.timeZone,
    open: window.open.map((slot) => ({ days: [...slot.days], from: slot.from, to: slot.to })),
  };
}

/** Whether SCC's maintenance windows count: only when the tenant schedules deployments in them. */
async function sccWindowsCount(ctx: OperationContext): Promise<boolean> {
  try {
    const { data } = await ctx.scc.call('getTenantSettings', {});
    return data.scheduledDeployments === true;
  } catch (error) {
    // Not knowing is not a reason to deploy outside SCC's window: say so where it matters, count it.
    ctx.log.warn({ err: error }, 'could not read the tenant settings; SCC maintenance windows count');
    return true;
  }
}

async function devicesOfQuery(ctx: OperationContext, query: string): Promise<Set<string>> {
  const uids = new Set<string>();
  const pages = ctx.scc.paginate(
    'getDevices',
    { query: { q: query } },
    { budget: { items: QUERY_BUDGET, pages: 100 } },
  );
  for await (const device of pages) if (device.uid) uids.add(device.uid);
  return uids;
}

/** Each device's change windows as they are now (policy and SCC). */
export async function deployWindows(
  ctx: OperationContext,
  devices: readonly { uid: string; name: string }[],
): Promise<DeviceWindowsFacts[]> {
  const policy = (ctx.policy?.changes?.windows ?? []).filter(
    (window) => window.profile === undefined || window.profile === ctx.profile,
  );
  const byQuery = new Map<string, Set<string>>();
  for (const window of policy)
    if (window.devices !== undefined && !byQuery.has(window.devices))
      byQuery.set(window.devices, await devicesOfQuery(ctx, window.devices));
  // Read only when a device has a maintenance window: most have none, and it costs a call.
  let sccCounts: boolean | undefined;
  const result: DeviceWindowsFacts[] = [];
  for (const device of devices) {
    const windows: DeviceWindowsFacts['windows'] = policy
      .filter((window) => window.devices === undefined || byQuery.get(window.devices)?.has(device.uid))
      .map(asChangeWindow);
    const { data } = await ctx.scc.call('getDevice', { path: { deviceUid: device.uid } });
    const maintenance = data.deviceMaintenanceWindow;
    if (maintenance?.startCron && maintenance.durationMinutes && isCron(maintenance.startCron)) {
      sccCounts ??= await sccWindowsCount(ctx);
      if (sccCounts)
        windows.push({
          kind: 'scc',
          startCron: maintenance.startCron,
          durationMinutes: maintenance.durationMinutes,
        });
    }
    result.push({ device: device.name, windows });
  }
  return result;
}

/**
 * `--at` as a moment after the operation's now: read in the zone of the first policy window that applies to
 * the profile, else UTC.
 */
export function deployAt(ctx: OperationContext, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const zone =
    (ctx.policy?.changes?.windows ?? []).find((w) => w.profile === undefined || w.profile === ctx.profile)
      ?.timeZone ?? 'UTC';
  const parsed = parseAt(text, ctx.now(), zone);
  if (!parsed.ok) throw new UserError(parsed.error);
  return parsed.at;
}

/** What the card says of the windows: each device's, and when the deploy runs if approved now. */
export function windowNotes(
  devices: readonly DeviceWindows[],
  at: number | undefined,
  breakGlass: string | undefined,
  now: number,
): string[] {
  const notes: string[] = [];
  const zone =
    devices
      .flatMap((d) => d.windows)
      .find((w): w is Extract<ChangeWindow, { kind: 'policy' }> => w.kind === 'policy')?.timeZone ?? 'UTC';
  for (const device of devices)
    if (device.windows.length > 0)
      notes.push(
        `:calendar: Change window of ${device.device}: ${device.windows.map(describeWindow).join(' or ')} (${windowState(device.windows, now).open ? 'open now' : 'closed now'}).`,
      );
  if (breakGlass !== undefined) {
    notes.push(
      `:rotating_light: *Break-glass*: deploys ${at === undefined ? 'at once' : `at ${viewerTime(at, now, zone)}`} whatever the change windows say, because: ${untrusted(breakGlass)}. It needs two approvers.`,
    );
    return notes;
  }
  const from = Math.max(now, at ?? now);
  const opens = nextCommonOpening(
    devices.map((d) => d.windows),
    from,
  );
  if (opens === undefined)
    notes.push(
      ':warning: The change windows of these devices never open together: it cannot run (use --break-glass).',
    );
  else if (opens > now)
    notes.push(
      `:calendar: If approved now, it runs ${viewerTime(opens, now, zone)}${at !== undefined && opens !== at ? ' (the first window opening after the time asked for)' : ''}.`,
    );
  return notes;
}

/** A device's windows as a deploy's facts keep them (what the card showed). */
export const DeviceWindowsFacts = z.object({
  device: z.string(),
  windows: z.array(
    z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('policy'),
        timeZone: z.string(),
        open: z.array(z.object({ days: z.array(z.string()), from: z.string(), to: z.string() })),
      }),
      z.object({ kind: z.literal('scc'), startCron: z.string(), durationMinutes: z.number() }),
    ]),
  ),
});
export type DeviceWindowsFacts = z.infer<typeof DeviceWindowsFacts>;

/**
 * A deploy run without an approval (the CLI with --yes) has no executor to hold it: a time asked for, or
 * a closed window without break-glass, is refused instead of deployed at once.
 */
export function refuseUnheld(
  ctx: OperationContext,
  facts: {
    at?: number | undefined;
    breakGlass?: string | undefined;
    windows?: DeviceWindowsFacts[] | undefined;
  },
): void {
  if (ctx.approvedBy !== undefined) return;
  const now = ctx.now();
  if (facts.at !== undefined && facts.at > now)
    throw new UserError(
      '`--at` holds a deploy after its approval; here it would run at once, so nothing was deployed. Ask in Slack or the console.',
    );
  if (facts.breakGlass !== undefined) return;
  const closed = (facts.windows ?? []).filter((device) => !windowState(device.windows, now).open);
  if (closed.length > 0)
    throw new UserError(
      `The change window of ${closed.map((d) => d.device).join(', ')} is closed (${closed.map((d) => d.windows.map(describeWindow).join(' or ')).join('; ')}): nothing was deployed. Deploy in the window, or with --break-glass "<reason>".`,
    );
}
