// The SCC reads of the alert scan, one per source a kind declares (src/alerts/kinds/kind.ts AlertSource):
// lists with Lucene filters, paged with `paginate`, never one read per device. Each read says how many
// SCC calls it took, for the per-profile budget. The profile's own tenant reads getDevices; an MSP
// portal's managed tenants are one read of getMspManagedDevices (each device names its tenant).
import type { Logger } from 'pino';
import type { AnyAlertKind, Finding } from '../../alerts/index.js';
import { auditSince } from '../../alerts/kinds/audit.js';
import type {
  ChangeEntry,
  Coverage,
  SourceItem,
  WatchedConnector,
  WatchedDevice,
} from '../../alerts/kinds/kind.js';
import type { SccClient } from '../../scc/client.js';
import type { AuditLog, Device, MspManagedDevice } from '../../scc/generated/models.js';
import { MAX_PAGE_LIMIT } from '../../scc/request.js';
import type { StreamScope } from './state.js';

export interface SourceRead {
  /** The items of the kind's own source (AlertKindSpec.source), as its `detect` takes them. */
  items: readonly SourceItem[];
  covers: Coverage;
  /** SCC calls the read took. */
  calls: number;
}

/** Devices read by uid at once (the sooner look at open incidents): keeps the query well inside a URL. */
const UIDS_PER_READ = 40;
/** Change-log entries read to explain one finding. */
const CHANGELOGS_PER_FINDING = 5;
/** Findings of one stream explained from SCC's change log per read, at most. */
const EXPLAINED_PER_READ = 20;
/** A `--devices` query may name at most this many devices. */
const DEVICE_SET_LIMIT = 20_000;

/** Pages `paginate` reads for `n` items: at least one (an empty answer is a call too). */
export function pagesFor(n: number, pageSize = MAX_PAGE_LIMIT): number {
  return Math.max(1, Math.ceil(n / pageSize));
}

export function watchedDevice(device: Device | MspManagedDevice): WatchedDevice | undefined {
  if (!device.uid) return undefined;
  const managed = 'managedTenantUid' in device ? (device as MspManagedDevice) : undefined;
  const tenantUid = managed?.managedTenantUid ?? undefined;
  const tenantName = managed?.managedTenantDisplayName ?? managed?.managedTenantName ?? tenantUid;
  const text = (value: string | null | undefined) => value ?? undefined;
  const fields: WatchedDevice = {
    uid: device.uid,
    name: device.name || device.uid,
    ...(tenantUid ? { tenant: { uid: tenantUid, name: tenantName ?? tenantUid } } : {}),
  };
  const optional: [keyof WatchedDevice, string | undefined][] = [
    ['deviceType', text(device.deviceType)],
    ['connectivityState', text(device.connectivityState)],
    ['configState', text(device.configState)],
    ['conflictDetectionState', text(device.conflictDetectionState)],
    ['failoverMode', text(device.asaFailoverMode)],
    ['failoverState', text(device.asaFailoverState)],
    ['mateState', text(device.asaFailoverMate?.failoverState)],
    ['certificateExpiryDate', text(device.certificateExpiryDate)],
    ['raVpnCertificateExpiryDate', text(device.raVpnCertificateExpiryDate)],
  ];
  for (const [key, value] of optional) if (value !== undefined) Object.assign(fields, { [key]: value });
  const connectorUid =
    'connectorUid' in device ? text(device.connectorUid as string | null | undefined) : undefined;
  if (device.connectorType === 'SDC' && connectorUid) fields.connectorUid = connectorUid;
  return fields;
}

async function listDevices(
  scc: SccClient,
  scope: StreamScope,
  q: string,
): Promise<{ items: WatchedDevice[]; calls: number }> {
  const items: WatchedDevice[] = [];
  let count = 0;
  const pages =
    scope === 'own'
      ? scc.paginate('getDevices', { query: { q } })
      : scc.paginate('getMspManagedDevices', { query: { q } });
  for await (const device of pages) {
    count += 1;
    const watched = watchedDevice(device);
    if (watched) items.push(watched);
  }
  return { items, calls: pagesFor(count) };
}

/**
 * Each device's Secure Device Connector as SCC reports it now: one read of getSdcs for the connectors the
 * devices name (paged by uid like readByUid). Only a tenant's own inventory: SCC lists a tenant's
 * connectors with that tenant's token, and the portal's token is not one. Returns the calls it took.
 */
async function attachConnectors(scc: SccClient, scope: StreamScope, items: WatchedDevice[]): Promise<number> {
  if (scope !== 'own') return 0;
  const uids = [...new Set(items.flatMap((device) => (device.connectorUid ? [device.connectorUid] : [])))];
  const connectors = new Map<string, WatchedConnector>();
  const calls = await byUidChunks(uids, async (q) => {
    let count = 0;
    for await (const sdc of scc.paginate('getSdcs', { query: { q } })) {
      count += 1;
      if (!sdc.uid) continue;
      connectors.set(sdc.uid, {
        uid: sdc.uid,
        name: sdc.name || sdc.uid,
        ...(sdc.status ? { status: sdc.status } : {}),
        ...(sdc.lastHeartbeat ? { lastHeartbeat: sdc.lastHeartbeat } : {}),
      });
    }
    return pagesFor(count);
  });
  for (const device of items) {
    const connector = device.connectorUid ? connectors.get(device.connectorUid) : undefined;
    if (connector) device.connector = connector;
  }
  return calls;
}

/** The devices `q` selects, with their connectors when the kind's source asks for them. */
async function readDevices(
  kind: AnyAlertKind,
  ctx: ReadContext,
  q: string,
): Promise<{ items: WatchedDevice[]; calls: number }> {
  const read = await listDevices(ctx.scc, ctx.scope, q);
  const source = kind.source;
  if (source.from !== 'devices' || !source.connectors) return read;
  return { items: read.items, calls: read.calls + (await attachConnectors(ctx.scc, ctx.scope, read.items)) };
}

/** `uid:"a" OR uid:"b"`: devices by uid, as SCC's Lucene takes them. */
export function uidQuery(uids: readonly string[]): string {
  return uids.map((uid) => `uid:"${uid.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(' OR ');
}

export interface ReadContext {
  scc: SccClient;
  scope: StreamScope;
  now: number;
  runsPerScan: number;
  previous: ReadonlyMap<string, unknown>;
}

/** The kind's whole list (its exceptional set, the newest runs, the audit log since the last event seen). */
export async function readFull(kind: AnyAlertKind, ctx: ReadContext): Promise<SourceRead> {
  const { scc, scope, now } = ctx;
  const source = kind.source;
  switch (source.from) {
    case 'devices': {
      const read = await readDevices(kind, ctx, source.q(now));
      return { ...read, covers: 'all' };
    }
    case 'deploymentRuns': {
      const { data } = await scc.call('getDeviceDeploymentRuns', {
        query: { limit: String(ctx.runsPerScan), sort: ['lastUpdatedTime:DESC'] },
      });
      return { items: data.items ?? [], covers: 'all', calls: 1 };
    }
    case 'upgradeRuns': {
      const query = { limit: ctx.runsPerScan, sort: ['lastUpdatedTime:DESC'] as const };
      // Firewall software runs carry no times to sort by: SCC lists them newest first.
      const newest = { limit: String(ctx.runsPerScan) };
      const items =
        scope === 'own'
          ? [
              ...((
                await scc.call('getSecureClientUpgradeRuns', { query: { ...query, sort: [...query.sort] } })
              ).data.items ?? []),
              ...((await scc.call('getDeviceUpgradeRuns', { query: newest })).data.items ?? []),
            ]
          : [
              ...((
                await scc.call('getMspSecureClientUpgradeRuns', {
                  query: { ...query, sort: [...query.sort] },
                })
              ).data.items ?? []),
              ...((await scc.call('getMspDeviceUpgradeRuns', { query: newest })).data.items ?? []),
            ];
      return { items, covers: 'all', calls: 2 };
    }
    case 'auditLogs': {
      const since = auditSince(ctx.previous as ReadonlyMap<string, never>, now);
      const items: AuditLog[] = [];
      for await (const log of scc.paginate(
        'getAuditLogs',
        { query: { q: source.q(since), sort: ['eventTime:ASC'] } },
        { budget: { items: 2_000, pages: 10 } },
      ))
        items.push(log);
      return { items, covers: 'all', calls: pagesFor(items.length) };
    }
  }
}

/** Devices by uid (those in an open incident): what is missing from the answer is no longer in the inventory. */
export async function readByUid(
  kind: AnyAlertKind,
  ctx: ReadContext,
  uids: readonly string[],
): Promise<SourceRead> {
  const items: WatchedDevice[] = [];
  const calls = await byUidChunks(uids, async (q) => {
    const read = await readDevices(kind, ctx, q);
    items.push(...read.items);
    return read.calls;
  });
  return { items, covers: new Set(uids), calls };
}

/** Reads UIDS_PER_READ uids at a time, each chunk by its `uid:(…)` query; the calls the reads made, summed. */
async function byUidChunks(uids: readonly string[], read: (q: string) => Promise<number>): Promise<number> {
  let calls = 0;
  for (let start = 0; start < uids.length; start += UIDS_PER_READ)
    calls += await read(uidQuery(uids.slice(start, start + UIDS_PER_READ)));
  return calls;
}

/** The newest change-log events of one device, newest first (to explain a conflict, or who staged). */
export async function readChanges(scc: SccClient, deviceUid: string): Promise<ChangeEntry[]> {
  const { data } = await scc.call('getChangelogs', {
    query: { q: `entityUid:"${deviceUid}"`, limit: String(CHANGELOGS_PER_FINDING) },
  });
  const entries: ChangeEntry[] = [];
  for (const log of data.items ?? []) {
    for (const event of log.events ?? []) {
      const entry: ChangeEntry = {};
      if (event.date) entry.date = event.date;
      if (event.username) entry.username = event.username;
      if (event.action) entry.action = event.action;
      if (event.description) entry.description = event.description;
      if (event.diff) entry.diff = event.diff;
      entries.push(entry);
    }
  }
  return entries.sort((a, b) => Date.parse(b.date ?? '') - Date.parse(a.date ?? ''));
}

/** A subscription's `--devices` query as device uids, and the calls it took. */
export async function readDeviceSet(
  scc: SccClient,
  scope: StreamScope,
  query: string,
): Promise<{ uids: string[]; calls: number }> {
  const uids: string[] = [];
  const pages =
    scope === 'own'
      ? scc.paginate(
          'getDevices',
          { query: { q: query } },
          { budget: { items: DEVICE_SET_LIMIT, pages: 200 } },
        )
      : scc.paginate(
          'getMspManagedDevices',
          { query: { q: query } },
          { budget: { items: DEVICE_SET_LIMIT, pages: 200 } },
        );
  for await (const device of pages) if (device.uid) uids.push(device.uid);
  return { uids, calls: pagesFor(uids.length) };
}

/**
 * Adds to each finding that asks for it (the kind's `explain`) what SCC's change log says about its device,
 * read once per finding, at most EXPLAINED_PER_READ per read: a burst (a change pushed to 300 devices by
 * hand) is not 300 reads, the button shows the rest. Only the profile's own devices: the change log is
 * read with the profile's token. Returns the SCC calls it took.
 */
export async function explainFindings(
  scc: SccClient,
  kind: AnyAlertKind,
  findings: readonly Finding[],
  log: Logger,
): Promise<number> {
  const explainer = kind.explain;
  if (!explainer) return 0;
  let calls = 0;
  for (const finding of findings) {
    if (!explainer.wants(finding) || finding.subject.type !== 'device') continue;
    if (calls >= EXPLAINED_PER_READ) break;
    try {
      calls += 1;
      finding.details.push(...explainer.details(await readChanges(scc, finding.subject.uid)));
    } catch (error) {
      // The finding is told without what the change log would add.
      log.warn({ err: error, kind: kind.kind }, 'alert scan: the change log could not be read');
    }
  }
  return calls;
}
