// SCC's ASA command line: executeCliCommand answers 202 with an EXECUTE_ASA_COMMAND transaction whose
// entityUid is the execution's UID; when the devices have run the script (on the simulated clock) every
// device has one result of that execution, read with getCliResults (q=executionUid:<uid>) or getCliResult.
// The script runs on the simulated ASA's command line (state/asaCommandLine.ts), which answers a fixed set
// of read-only commands and shuns (kept in the device's memory, never its configuration) and refuses
// everything else, so the CLI never changes the simulated configuration.
// Every script received is kept (receivedCliScripts) so a test can assert exactly what reached SCC.
//
// Documented behaviour: the transaction ends DONE once the devices were tried, whatever their answers (an
// unreachable device, or a line the ASA refuses, is a result with `errorMsg`, as SCC's own example
// 'Error: Connection timed out' suggests); an unreachable device takes the connection timeout (30 s) to
// answer. Read-only users may run scripts: nothing the command line accepts changes the configuration (a shun is
// memory only, and the simulator does not tell it from a read). A device
// whose configuration is NOT_SYNCED (changes staged in SCC, not deployed) refuses the whole request at once
// with 400 INVALID_INPUT, naming it in `details`, as Cisco's own test kit (CiscoDevNet/sccfm-devkit, its
// e2e `_sync.py`) says real SCC does: no transaction, nothing runs on any device of the request.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { type ErrorDetails, invalidInput, notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { isUuid, requireBody, uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { iso } from '../runtime.js';
import { aclHitsOf, runShowAccessList } from '../state/asaAccessListHits.js';
import { type AsaDeviceView, runScript } from '../state/asaCommandLine.js';
import { asaConfigOf } from '../state/asaConfig.js';
import { runPacketTracer } from '../state/asaPacketTracer.js';
import { policyOf } from '../state/asaPolicy.js';
import { runShow } from '../state/asaShow.js';
import { runShun, shunsOf } from '../state/asaShun.js';
import type { DeviceRecord, SimState } from '../state/model.js';
import { accepted, startTransaction } from './transactions.js';

/** One device's result of one execution. */
export interface CliResultRecord {
  uid: string;
  tenantUid: string;
  deviceUid: string;
  executionUid: string;
  script: string;
  result?: string;
  errorMsg?: string;
  startTime: number;
}

/** A script as it reached SCC, accepted or not. */
export interface ReceivedCliScript {
  at: number;
  tenantUid: string;
  username: string;
  /** As sent (not validated). */
  deviceUids: unknown;
  script: string;
}

interface CliWorld {
  results: Map<string, CliResultRecord>;
  received: ReceivedCliScript[];
}

// Beside the SimState, not in it (like the MSP world): a reset starts with no results and no scripts.
const worlds = new WeakMap<SimState, CliWorld>();

function cliWorld(state: SimState): CliWorld {
  let world = worlds.get(state);
  if (world === undefined) {
    world = { results: new Map(), received: [] };
    worlds.set(state, world);
  }
  return world;
}

/** Every script executeCliCommand received in this world, oldest first. */
export function receivedCliScripts(state: SimState): readonly ReceivedCliScript[] {
  return cliWorld(state).received;
}

/** Simulated time the devices take: queueing, then running the script (an unreachable one times out). */
export const CLI_PENDING_MS = 500;
export const CLI_RUNNING_MS = 2_500;
export const CLI_CONNECT_TIMEOUT_MS = 30_000;
export const UNREACHABLE_ERROR = 'Error: Connection timed out';

/** A UUID-shaped id derived from its parts, so results never consume the world's random sequence. */
function derivedUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex').split('');
  h[12] = '4';
  h[16] = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** The device as its command line sees it at `now`. */
export function deviceView(state: SimState, device: DeviceRecord, now: number): AsaDeviceView {
  const uid = device.device.uid;
  const bootDays = 10 + (Number.parseInt(derivedUuid(uid, 'boot').slice(0, 4), 16) % 80);
  return {
    device,
    interfaces: asaConfigOf(state, uid).onDevice,
    policy: policyOf(state, uid),
    shuns: shunsOf(state, uid),
    hits: aclHitsOf(state, uid),
    now,
    bootTime: state.startTime - bootDays * 86_400_000 - 3 * 3_600_000,
  };
}

/** Runs `script` on the device now: the result record's output and error. */
export function runCliScript(
  state: SimState,
  device: DeviceRecord,
  script: string,
  now: number,
): { result: string; errorMsg?: string } {
  const outcome = runScript(script, deviceView(state, device, now), [
    runPacketTracer,
    runShun,
    runShowAccessList,
    runShow,
  ]);
  return outcome.error === undefined
    ? { result: outcome.output }
    : { result: outcome.output, errorMsg: outcome.error };
}

/** ISO 8601 `PT…` durations in ms (`PT30S`, `PT5M`, `PT0.5S`), undefined when not one. */
function durationMs(text: string): number | undefined {
  const m = /^PT(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?$/i.exec(text);
  if (m === null || text.length <= 2) return undefined;
  return (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000;
}

function checkDuration(
  details: ErrorDetails,
  field: string,
  value: string | undefined,
  min: number,
  max: number,
) {
  if (value === undefined) return;
  const ms = durationMs(value);
  if (ms === undefined || ms < min || ms > max)
    details[field] = {
      message: `must be an ISO 8601 duration from ${min / 1000} s to ${max / 1000} s`,
      value,
    };
}

/** The ASAs of the request, in the caller's tenant; else 400 naming each device. */
function devicesToRun(ctx: RequestContext, uids: readonly string[]): DeviceRecord[] {
  const details: ErrorDetails = {};
  const devices: DeviceRecord[] = [];
  for (const raw of uids) {
    const uid = raw.toLowerCase();
    const record = isUuid(uid) ? ctx.state.devices.get(uid) : undefined;
    if (!isUuid(uid)) details[raw] = { message: 'must be a UUID' };
    else if (record === undefined || record.tenantUid !== ctx.principal.tenant.uid)
      details[raw] = { message: 'device not found' };
    else if (record.kind !== 'ASA') details[raw] = { name: record.device.name, message: 'is not an ASA' };
    else if (devices.includes(record))
      details[raw] = { name: record.device.name, message: 'is listed twice' };
    else if (record.device.configState === 'NOT_SYNCED')
      details[raw] = {
        name: record.device.name,
        configState: 'NOT_SYNCED',
        message: 'has changes that are not deployed: deploy or discard them first',
      };
    else devices.push(record);
  }
  const count = Object.keys(details).length;
  if (count === 0) return devices;
  const unsynced = Object.values(details).filter((d) => d.configState === 'NOT_SYNCED').length;
  // SCC refuses the whole request, as Cisco's own test kit finds: "the API rejects script pushes against a
  // NOT_SYNCED device with INVALID_INPUT".
  if (unsynced === count)
    throw invalidInput(
      `Cannot run CLI commands on ${count === 1 ? 'a device' : `${count} devices`} whose configuration is NOT_SYNCED (undeployed changes)`,
      details,
    );
  throw invalidInput(`${count === 1 ? '1 device' : `${count} devices`} cannot run CLI commands`, details);
}

/** What is kept of any body that carries a script, valid or not. */
const ReceivedBody = z.looseObject({ script: z.string(), deviceUids: z.unknown() });

const executeCliCommand: Handler = (ctx) => {
  const { sim, state } = ctx;
  // Kept before any check: a refused request reached SCC all the same.
  const received = ReceivedBody.safeParse(ctx.body);
  if (received.success) {
    cliWorld(state).received.push({
      at: ctx.now,
      tenantUid: ctx.principal.tenant.uid,
      username: ctx.principal.username,
      deviceUids: structuredClone(received.data.deviceUids),
      script: received.data.script,
    });
  }
  const input = requireBody(ctx, Input.CliCommandInput);
  const durations: ErrorDetails = {};
  checkDuration(durations, 'pollingInterval', input.pollingInterval, 500, 120_000);
  checkDuration(durations, 'pollingTimeout', input.pollingTimeout, 60_000, 3_600_000);
  if (Object.keys(durations).length > 0)
    throw invalidInput(`Invalid polling settings: ${Object.keys(durations).join(', ')}`, durations);
  const devices = devicesToRun(ctx, input.deviceUids);
  const executionUid = state.rng.uuid();
  const tenantUid = ctx.principal.tenant.uid;
  const startTime = ctx.now;
  const unreachable = devices.some((d) => d.device.connectivityState !== 'ONLINE');
  const tx = startTransaction(sim, {
    tenantUid,
    type: 'EXECUTE_ASA_COMMAND',
    entityUid: executionUid,
    entityUrl: `${sim.baseUrl}/v1/cli/results?q=executionUid:${executionUid}`,
    details: { executionUid },
    pendingMs: CLI_PENDING_MS,
    runningMs: unreachable ? CLI_CONNECT_TIMEOUT_MS : CLI_RUNNING_MS,
    // The devices run the script when they get to it: against their configuration at that time.
    finish: () => {
      const now = sim.clock.now();
      for (const device of devices) {
        const uid = derivedUuid(executionUid, device.device.uid);
        const answer =
          device.device.connectivityState === 'ONLINE'
            ? runCliScript(state, device, input.script, now)
            : { errorMsg: UNREACHABLE_ERROR };
        cliWorld(state).results.set(uid, {
          uid,
          tenantUid,
          deviceUid: device.device.uid,
          executionUid,
          script: input.script,
          startTime,
          ...answer,
        });
      }
      return { ok: true };
    },
  });
  return accepted(sim, tx);
};

const resultDto = (r: CliResultRecord): Model.CdoCliResult => ({
  uid: r.uid,
  deviceUid: r.deviceUid,
  executionUid: r.executionUid,
  script: r.script,
  ...(r.result === undefined ? {} : { result: r.result }),
  ...(r.errorMsg === undefined ? {} : { errorMsg: r.errorMsg }),
  startTime: iso(r.startTime),
});

const resultFields: FieldTable<CliResultRecord> = {
  uid: { kind: 'string', get: (r) => r.uid },
  deviceUid: { kind: 'string', get: (r) => r.deviceUid },
  executionUid: { kind: 'string', get: (r) => r.executionUid },
  script: { kind: 'string', get: (r) => r.script },
  errorMsg: { kind: 'string', get: (r) => r.errorMsg },
  startTime: { kind: 'date', get: (r) => r.startTime },
};

/** The caller's tenant's results, newest first (SCC's CLI history order) unless `sort` says otherwise. */
const getCliResults: Handler = (ctx) => {
  const mine = [...cliWorld(ctx.state).results.values()]
    .filter((r) => r.tenantUid === ctx.principal.tenant.uid)
    .sort((a, b) => b.startTime - a.startTime);
  const page = listPage(ctx.query, mine, { fields: resultFields, search: true, sort: true });
  return { status: 200, body: { ...page, items: page.items.map(resultDto) } };
};

const getCliResult: Handler = (ctx) => {
  const uid = uuidParam(ctx, 'cliResultUid');
  const record = cliWorld(ctx.state).results.get(uid);
  if (record === undefined || record.tenantUid !== ctx.principal.tenant.uid)
    throw notFound(`CLI result ${uid} not found`, { cliResultUid: { value: uid } });
  return { status: 200, body: resultDto(record) };
};

export const cliHandlers = {
  executeCliCommand,
  getCliResults,
  getCliResult,
} satisfies Partial<OperationHandlers>;
