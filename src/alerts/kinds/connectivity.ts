// Connectivity: a device leaves ONLINE (UNREACHABLE, BAD_CREDENTIALS, NEW_CERT_DETECTED…) and comes back.
// Read: the devices that are not ONLINE, every 30 s, with the Secure Device Connector each is reached
// through; the ones in an open incident are also read by uid sooner, so "back online" is told soon and a
// device removed meanwhile is told as removed.
//
// When a connector is down (SCC's status for it is not ACTIVE; its last heartbeat is shown as the evidence,
// not judged by fwbot's clock, which need not agree with SCC's), the devices behind it that go offline are one incident about the connector, naming them, instead of a
// burst of one incident per device: the connector is what to fix. Such a device keeps `via` (the connector)
// and is told on its own only if it is still offline once its connector is back.
import { z } from 'zod';
import { time } from '../../render/format.js';
import { untrusted } from '../../render/untrusted.js';
import type { AlertAction } from '../vocabulary.js';
import { acceptNewCertificate, reconnectDevice } from './actions.js';
import {
  ANY_READER,
  type DetectInput,
  DeviceMemo,
  defineAlertKind,
  deviceChanges,
  deviceFinding,
  type Finding,
  incidentKeyOf,
  isoOf,
  memoOf,
  stillOpen,
  transitionKey,
  type WatchedConnector,
  type WatchedDevice,
} from './kind.js';

const State = DeviceMemo.extend({
  /** SCC's connectivityState while it is not ONLINE; a connector's status (or NO_HEARTBEAT) while down. */
  state: z.string(),
  /** When the scan first saw it so (ms). */
  since: z.number(),
  /** A device that went offline behind a connector that was down: told in the connector's incident. */
  via: z.string().optional(),
  /** A connector's entry (key `connector:<uid>`): the devices behind it that are offline, by uid and name. */
  devices: z.array(z.object({ uid: z.string(), name: z.string() })).optional(),
  /** A connector's last heartbeat, as SCC wrote it. */
  lastHeartbeat: z.string().optional(),
});
type State = z.infer<typeof State>;

const ONLINE = 'ONLINE';
const CONNECTOR = 'connector:';
/** Devices named in a connector incident's details, at most (the count is always given). */
const NAMED_DEVICES = 25;

/** SCC's status of a connector that is down (INACTIVE, DISABLED, UNKNOWN…), or undefined while it works. */
export function connectorDown(connector: WatchedConnector | undefined): string | undefined {
  if (!connector?.status || connector.status === 'ACTIVE') return undefined;
  return connector.status;
}

export const connectivity = defineAlertKind({
  kind: 'connectivity',
  summary:
    'a device leaves ONLINE (unreachable, bad credentials, new certificate…) and comes back; devices behind a connector that is down are one incident about the connector',
  tokenRoles: ANY_READER,
  words: {
    opened: 'went offline',
    closed: 'back online',
    noun: 'device',
    notice: 'connectivity notice',
    now: ['device offline', 'devices offline'],
  },
  source: { from: 'devices', q: () => `NOT connectivityState:${ONLINE}`, connectors: true },
  acrossTenants: true,
  intervalMs: 30_000,
  // Devices only: a connector's entry is not a device uid to read.
  sooner: (state) => state.devices === undefined,
  state: State,
  current: stillOpen,
  detect(input) {
    const { profile, now } = input;
    const at = isoOf(now);
    const connectorsBefore = new Map<string, State>();
    const devicesBefore = new Map<string, State>();
    for (const [key, state] of input.previous) {
      if (key.startsWith(CONNECTOR)) connectorsBefore.set(key.slice(CONNECTOR.length), state);
      else devicesBefore.set(key, state);
    }
    const down = downConnectors(input.items);
    const { next, changes } = deviceChanges({ ...input, previous: devicesBefore }, (device, before) => {
      const state = device.connectivityState;
      if (!state || state === ONLINE) return undefined;
      const via = before ? before.via : device.connectorUid;
      const behindDown = via !== undefined && down.has(via) ? via : undefined;
      return {
        ...memoOf(device),
        state,
        since: before?.state === state ? before.since : (before?.since ?? now),
        ...(behindDown ? { via: behindDown } : {}),
      };
    });
    const findings: Finding[] = [];
    for (const { uid, before, after, device } of changes) {
      const finding = (what: Parameters<typeof deviceFinding>[4], memo: DeviceMemo) =>
        findings.push(deviceFinding('connectivity', profile, uid, memo, what));
      // A device told in its connector's incident has no incident of its own to update or close.
      const toldBefore = before !== undefined && before.via === undefined;
      if (after === 'gone') {
        if (before && toldBefore)
          finding(
            {
              field: 'connectivityState',
              phase: 'close',
              state: 'REMOVED',
              previous: before.state,
              headline: `${untrusted(before.name)} is no longer in the inventory`,
              at,
            },
            before,
          );
      } else if (after === undefined) {
        if (before && toldBefore)
          finding(
            {
              field: 'connectivityState',
              phase: 'close',
              state: ONLINE,
              previous: before.state,
              headline: `${untrusted(before.name)} back online`,
              at,
            },
            before,
          );
      } else if (after.via !== undefined) {
        // Behind a connector that is down: the connector's incident names it.
      } else if (!toldBefore) {
        finding(
          {
            field: 'connectivityState',
            phase: 'open',
            state: after.state,
            previous: ONLINE,
            headline: `${untrusted(after.name)} is ${untrusted(after.state)}`,
            actions: mendingActions(uid, after, device),
            ...(before?.via
              ? { details: ['Its Secure Device Connector is back, and the device is still not ONLINE.'] }
              : {}),
            at,
          },
          after,
        );
      } else if (before && before.state !== after.state) {
        finding(
          {
            field: 'connectivityState',
            phase: 'update',
            state: after.state,
            previous: before.state,
            headline: `${untrusted(after.name)} is now ${untrusted(after.state)} (was ${untrusted(before.state)})`,
            actions: mendingActions(uid, after, device),
            at,
          },
          after,
        );
      }
    }
    const connectors = connectorFindings(input, connectorsBefore, down, next);
    for (const [uid, state] of connectors.next) next.set(`${CONNECTOR}${uid}`, state);
    return { next, findings: [...findings, ...connectors.findings] };
  },
});

/**
 * What mends an offline ASA, one click from its incident (issue 38): accepting the new certificate it
 * presents, else asking SCC to reconnect. Both are governed operations, run as the person who clicks.
 * Buttons act through this profile, so a managed tenant's device (an MSP read) offers none, nor does a
 * device SCC cannot reconnect this way (an FTD, or a type not read).
 */
function mendingActions(uid: string, state: State, device: WatchedDevice | undefined): AlertAction[] {
  if (state.tenant || device?.deviceType !== 'ASA') return [];
  return state.state === 'NEW_CERT_DETECTED' ? [acceptNewCertificate(uid)] : [reconnectDevice(uid)];
}

interface DownConnector {
  connector: WatchedConnector;
  state: string;
  devices: WatchedDevice[];
}

/** The connectors that are down now, with the offline devices read behind each. */
function downConnectors(items: readonly WatchedDevice[]): Map<string, DownConnector> {
  const down = new Map<string, DownConnector>();
  for (const device of items) {
    if (!device.connector || !device.connectivityState || device.connectivityState === ONLINE) continue;
    const state = connectorDown(device.connector);
    if (!state) continue;
    const entry = down.get(device.connector.uid) ?? { connector: device.connector, state, devices: [] };
    entry.devices.push(device);
    down.set(device.connector.uid, entry);
  }
  return down;
}

/** Connector incidents: opened when a connector is down, updated as its devices change, closed when back. */
function connectorFindings(
  input: DetectInput<WatchedDevice, State>,
  before: ReadonlyMap<string, State>,
  down: ReadonlyMap<string, DownConnector>,
  devices: ReadonlyMap<string, State>,
): { next: Map<string, State>; findings: Finding[] } {
  const { profile, now, items, covers } = input;
  const at = isoOf(now);
  const next = new Map<string, State>();
  const findings: Finding[] = [];
  const finding = (
    uid: string,
    state: State,
    phase: Finding['phase'],
    previous: string | undefined,
    headline: string,
  ) => {
    const behind = state.devices ?? [];
    const named = behind.slice(0, NAMED_DEVICES).map((device) => untrusted(device.name));
    const more = behind.length - named.length;
    findings.push({
      key: transitionKey(
        'connectivity',
        `${CONNECTOR}${uid}`,
        'status',
        previous,
        `${state.state}:${behind.length}`,
        at,
      ),
      ...(state.tenant ? { tenant: state.tenant } : {}),
      subject: { type: 'connector', uid, name: state.name },
      incidentKey: incidentKeyOf('connectivity', profile, 'connector', uid),
      phase,
      state: state.state,
      ...(previous === undefined ? {} : { previous }),
      headline,
      details: [
        `Last heartbeat: ${state.lastHeartbeat ? time(state.lastHeartbeat) : 'none reported'}; status ${untrusted(state.state)}.`,
        ...(behind.length > 0
          ? [`Behind it, offline: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}.`]
          : []),
      ],
      at,
      actions: [{ label: 'Show the connectors', command: 'connectors' }],
      deviceUids: behind.map((device) => device.uid),
    });
  };
  for (const [uid, { connector, state, devices: read }] of down) {
    const was = before.get(uid);
    // Devices told in this incident: those read now, and those it named before that are still offline behind it.
    const behind = new Map(
      was?.devices?.filter((d) => devices.get(d.uid)?.via === uid).map((d) => [d.uid, d]),
    );
    for (const device of read)
      if (devices.get(device.uid)?.via === uid)
        behind.set(device.uid, { uid: device.uid, name: device.name });
    if (behind.size === 0 && !was) continue;
    const tenant = read[0]?.tenant;
    const now_: State = {
      name: connector.name,
      ...(tenant ? { tenant } : {}),
      state,
      since: was?.since ?? now,
      devices: [...behind.values()].sort((a, b) => a.name.localeCompare(b.name)),
      ...(connector.lastHeartbeat ? { lastHeartbeat: connector.lastHeartbeat } : {}),
    };
    next.set(uid, now_);
    const count = `${now_.devices?.length ?? 0} device${now_.devices?.length === 1 ? '' : 's'} behind it offline`;
    const name = untrusted(connector.name);
    if (!was) finding(uid, now_, 'open', 'ACTIVE', `Connector ${name} is down: ${count}`);
    else if (was.state !== state || (was.devices?.length ?? 0) !== (now_.devices?.length ?? 0))
      finding(uid, now_, 'update', was.state, `Connector ${name} is still down: ${count}`);
  }
  for (const [uid, was] of before) {
    if (down.has(uid)) continue;
    // Back: read again and working, or a full read found no device offline behind it.
    const readAgain = items.some((device) => device.connector?.uid === uid);
    if (!readAgain && covers !== 'all') {
      next.set(uid, was);
      continue;
    }
    finding(
      uid,
      { ...was, state: 'ACTIVE', devices: [] },
      'close',
      was.state,
      `Connector ${untrusted(was.name)} is back`,
    );
  }
  return { next, findings };
}
