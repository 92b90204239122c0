// The words fwbot says in a thread about followed work: pure functions from SCC's answers to plain
// sentences (Slack mrkdwn). Outcomes are said after the subscriber's own label, so two threads that
// follow one transaction each read it under the name they gave it.
//
// What these functions return is posted as it is, so it is final mrkdwn: every string they are given
// (SCC's names, statuses and error messages, labels, tenant names, error texts) is escaped here, so none
// can ping anyone or forge a link; the one live mention is the requester's. Strings this module made
// (an Outcome's text, a progress line) are already mrkdwn and are not escaped again.
import { counted } from '../render/format.js';
import { escapeAll, escapeMrkdwn, userMention } from '../render/mrkdwn.js';
import {
  describeProgress,
  mspRunProgress,
  pipelineOf,
  type RunProgress,
  runProgress,
} from '../render/upgradeProgress.js';
import type {
  CdoTransaction,
  CommandResponse,
  DeploymentRunDto,
  MspSecureClientUpgradeRunDto,
  SecureClientUpgradeRunDto,
} from '../scc/generated/models.js';
import type { Outcome, Subscriber } from './payloads.js';

/** Room for a device answer inside one message, with the sentences around it. */
export const ANSWER_LIMIT = 2_800;

/** The requester's live mention (a malformed id stays escaped text). */
function mention(userId: string): string {
  return escapeMrkdwn(userMention(userId));
}

export function finalReply(subscriber: Subscriber, outcome: Outcome): string {
  return `${mention(subscriber.thread.requesterId)} *${escapeAll(subscriber.label)}*: ${outcome.text}`;
}

export function duration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = minutes / 60;
  return `${Number.isInteger(hours) ? hours : hours.toFixed(1)} h`;
}

/** SCC's messages sometimes end without a full stop; ours always do. Escaped: the text is SCC's. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return escapeAll(/[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`);
}

function details(map: Record<string, string> | null | undefined): string {
  const entries = Object.entries(map ?? {});
  return entries.length === 0
    ? ''
    : ` Details: ${entries.map(([k, v]) => `${escapeAll(k)}: ${escapeAll(String(v))}`).join('; ')}.`;
}

// --- transactions ---

export function transactionOutcome(rawUid: string, tx: CdoTransaction): Outcome | undefined {
  const uid = escapeAll(rawUid);
  const kind = tx.transactionType ? ` (${escapeAll(tx.transactionType)})` : '';
  switch (tx.cdoTransactionStatus) {
    case 'DONE':
      return { status: 'succeeded', text: `done. SCC finished transaction \`${uid}\`${kind}.` };
    case 'ERROR': {
      const said = tx.errorMessage ? `: ${sentence(tx.errorMessage)}` : '.';
      return {
        status: 'failed',
        text: `failed. SCC reports an error for transaction \`${uid}\`${kind}${said}${details(tx.errorDetails)}`,
      };
    }
    case 'CANCELLED':
      return { status: 'failed', text: `cancelled. Transaction \`${uid}\`${kind} was cancelled in SCC.` };
    default:
      return undefined;
  }
}

/**
 * A transaction that added API-only users ended DONE: each one named with the UUID SCC gave it (what a
 * token is generated for). `listed` is SCC's list of them, or undefined when the tenant could not be read.
 */
export function newApiUsersOutcome(
  rawUid: string,
  tenantName: string,
  usernames: readonly string[],
  listed: readonly { name?: string | null; uid?: string | null }[] | undefined,
): Outcome {
  const uid = escapeAll(rawUid);
  const tenant = escapeAll(tenantName);
  const done = `done. SCC finished transaction \`${uid}\``;
  if (listed === undefined) {
    return {
      status: 'succeeded',
      text: `${done}, but the tenant's API-only users could not be read afterwards: \`/fw tenants users ${tenant} --api-only\` lists them with their UUIDs.`,
    };
  }
  const lines = usernames.map((name) => {
    const user = listed.find((u) => (u.name ?? '').toLowerCase() === name.toLowerCase());
    const what = user?.uid ? `\`${escapeAll(user.uid)}\`` : 'not listed by SCC yet';
    return `• ${escapeAll(name)}: ${what}`;
  });
  const token = `\`/fw tenants token ${tenant} ${escapeAll('<api-user>')}\` generates a token for one of them (by name or UUID).`;
  return {
    status: 'succeeded',
    text: `${done}. API-only users of tenant *${tenant}* and their UUIDs:\n${lines.join('\n')}\n${token}`,
  };
}

export function expiredOutcome(what: string): Outcome {
  return {
    status: 'unknown',
    text:
      `outcome unknown: SCC no longer keeps ${escapeAll(what)} (SCC deletes transactions two hours after their last ` +
      'update), so fwbot cannot tell how it ended. Check the result in SCC itself.',
  };
}

export function deadlineOutcome(what: string, elapsedMs: number, lastStatus: string | undefined): Outcome {
  const still = lastStatus ? `; it was still ${escapeAll(lastStatus)}` : '';
  return {
    status: 'stopped',
    text:
      `fwbot stopped following ${escapeAll(what)} after ${duration(elapsedMs)}${still}. ` +
      'It may still finish: check it in SCC later.',
  };
}

/** SCC refused to report on the followed thing (a 4xx): following cannot go on. */
export function refusedOutcome(what: string, sccSays: string): Outcome {
  return { status: 'failed', text: `fwbot cannot follow ${escapeAll(what)}: ${escapeAll(sccSays)}` };
}

export function gaveUpOutcome(what: string, attempts: number, lastError: string): Outcome {
  return {
    status: 'stopped',
    text:
      `fwbot gave up following ${escapeAll(what)} after ${attempts} failed attempts to reach SCC (last error: ` +
      `${escapeAll(lastError)}). The operation itself may still finish: check it in SCC, and ask an admin to look at ` +
      "fwbot's connection to SCC if this keeps happening.",
  };
}

export function malformedOutcome(reason: string): Outcome {
  return {
    status: 'failed',
    text: `fwbot cannot follow this: its tracking job is malformed (${escapeAll(reason)}). Please report this to the fwbot admins.`,
  };
}

// --- cdFMC provisioning ---

export function cdfmcSecondLegNote(tenantName: string, targetUid: string, profile: string): string {
  return (
    `The portal step is done. Provisioning now runs on tenant *${escapeAll(tenantName)}* as transaction ` +
    `\`${escapeAll(targetUid)}\`; fwbot follows it with profile \`${escapeAll(profile)}\`.`
  );
}

export function cdfmcCannotFollow(
  tenantName: string,
  tenantUid: string,
  targetUid: string | undefined,
): Outcome {
  const where = targetUid ? ` as transaction \`${escapeAll(targetUid)}\`` : '';
  return {
    status: 'unknown',
    text:
      `the portal step is done. Provisioning continues on tenant *${escapeAll(tenantName)}*${where}, which fwbot cannot ` +
      `follow: no profile is configured for that tenant (uid \`${escapeAll(tenantUid)}\`), and only the tenant's own API ` +
      'token can read its transactions. Check it in SCC, or ask an admin to add a profile for the tenant so fwbot can follow it next time.',
  };
}

/** An outcome of the second leg, said of the tenant it ran on. */
export function onTenant(tenantName: string, outcome: Outcome): Outcome {
  return { ...outcome, text: `tenant *${escapeAll(tenantName)}*: ${outcome.text}` };
}

export function cdfmcNoTargetOutcome(portalUid: string): Outcome {
  return {
    status: 'unknown',
    text:
      `the portal step is done, but SCC did not name the transaction on the target tenant ` +
      `(no TRANSACTION_UID_IN_TARGET_TENANT in transaction \`${escapeAll(portalUid)}\`). Check the tenant in SCC.`,
  };
}

// --- gateway commands ---

function prettyAnswer(body: unknown): string {
  if (typeof body === 'string') {
    try {
      return JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      return body;
    }
  }
  return JSON.stringify(body ?? null, null, 2) ?? 'null';
}

/**
 * A code block of at most `limit` characters of `text` (escaped after the cut, so no entity is split),
 * with a note saying what was left out and where the rest is. `whereWhole` is mrkdwn this module made.
 */
export function codeBlock(text: string, limit: number, whereWhole: string): string {
  const clean = text.replace(/```/g, '`\u200b``');
  if (clean.length <= limit) return `\`\`\`\n${escapeAll(clean)}\n\`\`\``;
  const shown = escapeAll(clean.slice(0, limit));
  return (
    `\`\`\`\n${shown}\n\`\`\`\n_The answer is ${text.length.toLocaleString('en-US')} characters long; only the ` +
    `first ${limit.toLocaleString('en-US')} are shown. ${whereWhole}_`
  );
}

export function gatewayOutcome(requestId: string, answer: CommandResponse): Outcome | undefined {
  const data = answer.data;
  const record = typeof data === 'object' && data !== null ? data : undefined;
  const body = record ? (record.responseBody ?? record) : data;
  const deviceStatus =
    typeof record?.responseStatus === 'string' ? ` (${escapeAll(record.responseStatus)})` : '';
  const whole = `The whole answer stays available from SCC as gateway request \`${escapeAll(requestId)}\`.`;
  if (answer.status === 'responded') {
    return {
      status: 'succeeded',
      text: `the device answered${deviceStatus}:\n${codeBlock(prettyAnswer(body), ANSWER_LIMIT, whole)}`,
    };
  }
  if (answer.status === 'failed') {
    const said = answer.message ? `: ${sentence(answer.message)}` : '.';
    const shown =
      body === undefined || body === null ? '' : `\n${codeBlock(prettyAnswer(body), ANSWER_LIMIT, whole)}`;
    return { status: 'failed', text: `the command failed${said}${shown}` };
  }
  return undefined;
}

// --- Deploys to ASAs ---

export const DEPLOYMENT_WAITING = 'waiting for SCC to start the deployment run.';

/** PENDING → "pending". */
function words(status: string | null | undefined): string {
  return escapeAll((status ?? 'unknown').toLowerCase().replace(/_/g, ' '));
}

function deploymentDevices(run: DeploymentRunDto): string {
  const devices = run.deviceDeploymentStatuses ?? [];
  if (devices.length === 0) return '';
  const lines = devices.map((device) => {
    const name = device.name ?? device.uid ?? 'unnamed device';
    const result =
      device.status === 'SKIPPED' ? 'SKIPPED (nothing was pending)' : (device.status ?? 'UNKNOWN');
    const error = device.errorMsg ? ` — ${device.errorMsg}` : '';
    return escapeAll(`• ${name}: ${result}${error}`);
  });
  return `\n${lines.join('\n')}`;
}

export function deploymentProgress(run: DeploymentRunDto): string {
  const count = run.deviceDeploymentStatuses?.length ?? run.deviceUids?.length ?? 0;
  const devices = count > 0 ? `, ${counted(count, 'device')}` : '';
  return `deployment run \`${escapeAll(run.uid ?? '?')}\`: ${words(run.deploymentRunStatus)}${devices}.`;
}

export function deploymentGoneOutcome(runUid: string): Outcome {
  return {
    status: 'unknown',
    text: `outcome unknown: SCC no longer knows deployment run \`${escapeAll(runUid)}\`. Check the deployments in SCC.`,
  };
}

/** The run's end, each device's result, and where to read what was deployed; undefined while it runs. */
export function deploymentOutcome(run: DeploymentRunDto): Outcome | undefined {
  const uid = escapeAll(run.uid ?? '?');
  const read = `\nWhat was deployed: \`/fw deployments show ${uid}\`.`;
  const error = run.errorMsg ? ` SCC says: ${sentence(run.errorMsg)}` : '';
  if (run.deploymentRunStatus === 'DEPLOY_COMPLETED') {
    const warned = (run.deviceDeploymentStatuses ?? []).some((d) => d.status === 'WARNING');
    return {
      status: 'succeeded',
      text: `deployed${warned ? ', with warnings' : ''}: the changes are on the devices now (run \`${uid}\`).${deploymentDevices(run)}${read}`,
      progressText: deploymentProgress(run),
    };
  }
  if (run.deploymentRunStatus === 'DEPLOY_FAILED') {
    const why = run.failureReason ? ` (${words(run.failureReason)})` : '';
    return {
      status: 'failed',
      text: `the deploy failed${why} (run \`${uid}\`).${error}${deploymentDevices(run)}${read}`,
      progressText: deploymentProgress(run),
    };
  }
  return undefined;
}

// --- VPN client upgrade runs ---

export const UPGRADE_TERMINAL = [
  'DONE',
  'DONE_WITH_DEVICE_WARNINGS',
  'DONE_WITH_DEVICE_ERRORS',
  'ERROR',
] as const;

export function isUpgradeTerminal(status: string | null | undefined): boolean {
  return (UPGRADE_TERMINAL as readonly string[]).includes(status ?? '');
}

/** VALIDATING_INPUTS → "validating inputs". */
function humanStatus(status: string | null | undefined): string {
  return escapeAll((status ?? 'unknown').toLowerCase().replace(/_/g, ' '));
}

function runName(run: SecureClientUpgradeRunDto): string {
  const version = run.secureClientVersion ? ` to Secure Client ${escapeAll(run.secureClientVersion)}` : '';
  return `${run.name ? `*${escapeAll(run.name)}*` : `run \`${escapeAll(run.uid ?? '?')}\``}${version}`;
}

/**
 * The step and the whole run, so the number never falls back at a new step: "step 6 of 14, uploading
 * images 52%; overall 39%". A status outside the pipeline (ERROR) is said in words alone.
 */
function stepAndOverall(status: string | null | undefined, progress: RunProgress) {
  const said = describeProgress(progress);
  if (progress.kind === 'done') return `${humanStatus(status)}, ${escapeAll(said ?? '')}`;
  return said === undefined ? humanStatus(status) : escapeAll(said);
}

/** Progress in words, without the label (each thread shows its own label in front). */
export function upgradeProgress(run: SecureClientUpgradeRunDto): string {
  const count = run.devices?.length ?? 0;
  const devices = count > 0 ? `, ${counted(count, 'device')}` : '';
  const where = stepAndOverall(
    run.upgradeRunStatus,
    runProgress(run.upgradeRunStatus, run.percentageComplete, pipelineOf(run.upgradeRunType)),
  );
  return `upgrade ${runName(run)}: ${where}${devices}.`;
}

export function upgradeRunGoneOutcome(runUid: string): Outcome {
  return {
    status: 'unknown',
    text: `outcome unknown: SCC no longer knows upgrade run \`${escapeAll(runUid)}\`. Check the upgrade runs in SCC.`,
  };
}

export const UPGRADE_WAITING = 'waiting for SCC to start the upgrade run.';

/** The one progress message of a thread; `progress` is mrkdwn this module made (upgradeProgress, a note). */
export function statusLine(label: string, progress: string): string {
  return `*${escapeAll(label)}*: ${progress}`;
}

function deviceLines(run: SecureClientUpgradeRunDto): string {
  const devices = run.devices ?? [];
  if (devices.length === 0) return '';
  const lines = devices.map((device) => {
    const name = device.name ?? device.uid ?? 'unnamed device';
    const error = device.errorMsg ? ` — ${device.errorMsg}` : '';
    return escapeAll(`• ${name}: ${device.status ?? 'UNKNOWN'}${error}`);
  });
  return `\n${lines.join('\n')}`;
}

const UPGRADE_ENDINGS: Record<string, { status: Outcome['status']; words: string }> = {
  DONE: { status: 'succeeded', words: 'finished on every device' },
  DONE_WITH_DEVICE_WARNINGS: { status: 'succeeded', words: 'finished with warnings on some devices' },
  DONE_WITH_DEVICE_ERRORS: { status: 'failed', words: 'finished with errors on some devices' },
  ERROR: { status: 'failed', words: 'failed' },
};

export function upgradeOutcome(run: SecureClientUpgradeRunDto): Outcome | undefined {
  const ending = UPGRADE_ENDINGS[run.upgradeRunStatus ?? ''];
  if (!ending) return undefined;
  const error = run.errorMsg ? ` SCC says: ${sentence(run.errorMsg)}` : '';
  return {
    status: ending.status,
    text: `upgrade ${runName(run)} ${ending.words} (${escapeAll(run.upgradeRunStatus ?? '')}).${error}${deviceLines(run)}`,
    progressText: upgradeProgress(run),
  };
}

export function watchAnnouncement(profile: string, run: SecureClientUpgradeRunDto): string {
  const ending = UPGRADE_ENDINGS[run.upgradeRunStatus ?? '']?.words ?? 'ended';
  const who = run.username ? `, started by ${escapeAll(run.username)}` : '';
  const error = run.errorMsg ? ` SCC says: ${sentence(run.errorMsg)}` : '';
  return (
    `A VPN client upgrade run ended (profile \`${escapeAll(profile)}\`${who}): ${runName(run)} ${ending} ` +
    `(${escapeAll(run.upgradeRunStatus ?? '')}).${error}${deviceLines(run)}`
  );
}

// --- Secure Client upgrades across managed tenants (MSP runs) ---

/** Each device's tenant, as the MSP inventory names it (devices it no longer lists are left out). */
export type DeviceTenants = Record<string, { tenantUid: string; tenantName: string }>;

export const MSP_UPGRADE_WAITING = 'waiting for SCC to start the upgrade run across tenants.';

/** The run's devices grouped by tenant (tenant uid → name and devices), in the order SCC lists them. */
function devicesByTenant(run: MspSecureClientUpgradeRunDto, tenants: DeviceTenants) {
  const groups = new Map<string, { name: string; devices: NonNullable<typeof run.devices> }>();
  for (const device of run.devices ?? []) {
    const tenant = tenants[device.uid ?? ''];
    const key = tenant?.tenantUid ?? '';
    const group = groups.get(key) ?? { name: tenant?.tenantName ?? 'tenant unknown', devices: [] };
    group.devices.push(device);
    groups.set(key, group);
  }
  return groups;
}

/** Progress in words: the run as a whole, then one line per tenant (its devices, stage and progress). */
export function mspUpgradeProgress(run: MspSecureClientUpgradeRunDto, tenants: DeviceTenants): string {
  const groups = devicesByTenant(run, tenants);
  const legs = run.managedTenantUpgrades ?? [];
  const devices = run.devices?.length ?? 0;
  const head =
    `upgrade ${runName(run)} across ${counted(Math.max(groups.size, legs.length), 'tenant')}: ` +
    `${stepAndOverall(run.upgradeRunStatus, mspRunProgress(run.upgradeRunStatus, run.percentageComplete, legs))}, ` +
    `${counted(devices, 'device')}.`;
  const lines = [...groups].map(([tenantUid, group]) => {
    const leg = legs.find((l) => l.managedTenantUid === tenantUid);
    // A tenant's own run walks the single-tenant steps (runs across tenants are of ASAs).
    const stage = leg?.upgradeRunStatus
      ? stepAndOverall(
          leg.upgradeRunStatus,
          runProgress(leg.upgradeRunStatus, leg.upgradeRunStepPercentageComplete, 'asa'),
        )
      : 'not started';
    const done = group.devices.filter((d) => d.status !== 'PENDING' && d.status !== 'IN_PROGRESS').length;
    return `• ${escapeAll(group.name)}: ${counted(group.devices.length, 'device')}, ${done} finished, ${stage}`;
  });
  return lines.length === 0 ? head : `${head}\n${lines.join('\n')}`;
}

/** Every device's result, grouped by tenant, with each tenant's own error. */
function tenantDeviceLines(run: MspSecureClientUpgradeRunDto, tenants: DeviceTenants): string {
  const legs = run.managedTenantUpgrades ?? [];
  const blocks = [...devicesByTenant(run, tenants)].map(([tenantUid, group]) => {
    const leg = legs.find((l) => l.managedTenantUid === tenantUid);
    const error = leg?.errorMsg ? ` — ${escapeAll(leg.errorMsg)}` : '';
    const lines = group.devices.map((device) => {
      const name = device.name ?? device.uid ?? 'unnamed device';
      const why = device.errorMsg ? ` — ${device.errorMsg}` : '';
      return escapeAll(`  • ${name}: ${device.status ?? 'UNKNOWN'}${why}`);
    });
    return `*${escapeAll(group.name)}*${error}\n${lines.join('\n')}`;
  });
  return blocks.length === 0 ? '' : `\n${blocks.join('\n')}`;
}

export function mspUpgradeRunGoneOutcome(runUid: string): Outcome {
  return {
    status: 'unknown',
    text: `outcome unknown: SCC no longer knows the upgrade run across tenants \`${escapeAll(runUid)}\`. Check the MSP upgrade runs in SCC.`,
  };
}

/** The run's end and each device's result grouped by tenant; undefined while it runs. */
export function mspUpgradeOutcome(
  run: MspSecureClientUpgradeRunDto,
  tenants: DeviceTenants,
): Outcome | undefined {
  const ending = UPGRADE_ENDINGS[run.upgradeRunStatus ?? ''];
  if (!ending) return undefined;
  const error = run.errorMsg ? ` SCC says: ${sentence(run.errorMsg)}` : '';
  const uid = escapeAll(run.uid ?? '?');
  return {
    status: ending.status,
    text:
      `upgrade ${runName(run)} ${ending.words} (${escapeAll(run.upgradeRunStatus ?? '')}).${error}` +
      `${tenantDeviceLines(run, tenants)}\nThe whole run: \`/fw msp vpn run ${uid}\`.`,
    progressText: mspUpgradeProgress(run, tenants),
  };
}

/** A watched channel's announcement of an MSP run that ended. */
export function mspWatchAnnouncement(
  profile: string,
  run: MspSecureClientUpgradeRunDto,
  tenants: DeviceTenants,
): string {
  const ending = UPGRADE_ENDINGS[run.upgradeRunStatus ?? '']?.words ?? 'ended';
  const who = run.username ? `, started by ${escapeAll(run.username)}` : '';
  const error = run.errorMsg ? ` SCC says: ${sentence(run.errorMsg)}` : '';
  return (
    `A VPN client upgrade run across tenants ended (profile \`${escapeAll(profile)}\`${who}): ${runName(run)} ` +
    `${ending} (${escapeAll(run.upgradeRunStatus ?? '')}).${error}${tenantDeviceLines(run, tenants)}`
  );
}

// --- tenant creation ---

export function tenantQueuedNote(tenantName: string, place: number, expectedStart: Date): string {
  const ahead = place - 1;
  const waiting = ahead === 0 ? 'none ahead of it' : `${ahead} ahead of it`;
  return (
    `The creation of tenant *${escapeAll(tenantName)}* is queued: place ${place} (${waiting}). SCC creates at most one ` +
    `tenant every 30 seconds, so it should start around ${expectedStart.toISOString().slice(11, 19)} UTC.`
  );
}

export function tenantStartedNote(tenantName: string, transactionUid: string): string {
  return `SCC accepted the creation of tenant *${escapeAll(tenantName)}* (transaction \`${escapeAll(transactionUid)}\`); following it.`;
}

export function tenantRefusedText(requesterId: string, tenantName: string, sccSays: string): string {
  return `${mention(requesterId)} *create tenant ${escapeAll(tenantName)}*: not created. ${escapeAll(sccSays)}`;
}

export function gatewayGoneOutcome(requestId: string): Outcome {
  return {
    status: 'unknown',
    text: `outcome unknown: SCC no longer knows gateway request \`${escapeAll(requestId)}\`, so fwbot cannot show the device's answer.`,
  };
}
