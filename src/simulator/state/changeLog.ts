// SCC's change log and audit log as the world keeps them. A device's change log is opened by its first
// change, collects every later change (staged through the API or in "SCC's UI", made on the device out
// of band, deployed, read back) as events by the user who made them, and is COMPLETED once nothing is
// left undeployed; the next change opens a new one. The audit log records users logging in, added to or
// removed from a tenant, and their role changed. Both are read by api/events.ts.
import { SeededRandom } from '../random.js';
import { changeBlocks, commandsOf } from './asaCli.js';
import type {
  AuditEventType,
  ChangelogAction,
  ChangelogRecord,
  ChangeRequestRef,
  DeviceRecord,
  InterfaceRecord,
  SimState,
  UserRole,
} from './model.js';
import { unifiedDiff } from './unifiedDiff.js';

export interface DeviceChange {
  action: ChangelogAction;
  username: string;
  at: number;
  description: string;
  /** The configuration text before and after (a diff is made when they differ). */
  before?: string;
  after?: string;
  /** The commands, as run or as a deploy would run them. */
  commands?: readonly string[];
  /** Whether the device still has changes it does not run (keeps the change log ACTIVE). */
  pending: boolean;
  /** The change request the change was made under (api/governance.ts). */
  changeRequest?: ChangeRequestRef;
}

/** A UID for a change log or an audit entry: deterministic per seed and order, apart from `state.rng`. */
function eventUid(state: SimState): string {
  state.eventSeq += 1;
  return new SeededRandom(`events:${state.seed}:${state.eventSeq}`).uuid();
}

/** Appends an event to the device's open change log (opening one when there is none). */
export function recordDeviceChange(
  state: SimState,
  device: DeviceRecord,
  change: DeviceChange,
): ChangelogRecord {
  const entityUid = device.device.uid;
  const openUid = state.activeChangelogs.get(entityUid);
  let log = openUid === undefined ? undefined : state.changelogs.get(openUid);
  if (log === undefined) {
    log = {
      uid: eventUid(state),
      tenantUid: device.tenantUid,
      entityUid,
      entityName: device.device.name,
      status: 'ACTIVE',
      lastEventDate: change.at,
      events: [],
    };
    state.changelogs.set(log.uid, log);
    state.activeChangelogs.set(entityUid, log.uid);
  }
  const diff =
    change.before === undefined || change.after === undefined
      ? undefined
      : unifiedDiff(change.before, change.after, { before: 'running-config', after: 'running-config' });
  log.events.push({
    action: change.action,
    username: change.username,
    date: change.at,
    description: change.description,
    ...(diff === undefined ? {} : { diff }),
    ...(change.commands === undefined || change.commands.length === 0
      ? {}
      : { commands: change.commands.join('\n') }),
    ...(change.changeRequest === undefined ? {} : { changeRequest: { ...change.changeRequest } }),
  });
  log.entityName = device.device.name;
  log.lastEventDate = change.at;
  if (!change.pending) {
    log.status = 'COMPLETED';
    state.activeChangelogs.delete(entityUid);
  }
  return log;
}

/** The commands that turn one copy of an ASA's interfaces into another, in deploy order. */
export function commandsBetween(from: readonly InterfaceRecord[], to: readonly InterfaceRecord[]): string[] {
  return commandsOf(changeBlocks(from, to));
}

export function recordAudit(
  state: SimState,
  entry: {
    tenantUid: string;
    eventType: AuditEventType;
    username: string;
    roles: readonly UserRole[];
    at: number;
    description: string;
  },
): void {
  state.auditLogs.push({
    uid: eventUid(state),
    tenantUid: entry.tenantUid,
    eventType: entry.eventType,
    username: entry.username,
    roles: [...entry.roles],
    eventTime: entry.at,
    eventDescription: entry.description,
  });
}
