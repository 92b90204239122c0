// Admin routes that make things happen to devices, as they happen outside SCC: connectivity lost and
// regained (one device, or a burst of many in one request), a change made on an ASA's console (a
// conflict, recorded in the change log), an HA pair failing over or losing a unit, an ASA reloading (both
// lose the ASA's shuns), and certificates nearing expiry. Devices are named by UID or name.
import { z } from 'zod';
import { connectorsOf, deviceFields } from '../api/devices.js';
import { conflict, invalidInput, notFound } from '../errors.js';
import { matching } from '../lists/listEngine.js';
import { iso, type SimRuntime } from '../runtime.js';
import { changeOutOfBand, ensureAsaInterfaces } from '../state/asaConfig.js';
import { clearShuns } from '../state/asaShun.js';
import { rotateCertificate } from '../state/managementCertificates.js';
import type { DeviceRecord } from '../state/model.js';
import { type AddRoute, findDevice, findDevices, parse, UI_USER } from './request.js';

const DAY = 86_400_000;

const CONNECTIVITY_STATES = [
  'ONLINE',
  'UNREACHABLE',
  'BAD_CREDENTIALS',
  'UNKNOWN',
  'PENDING_SETUP',
  'PENDING',
  'NEW_CERT_DETECTED',
] as const;

const ConnectivityInput = z.object({ connectivityState: z.enum(CONNECTIVITY_STATES) }).strict();
const BurstInput = z
  .object({
    connectivityState: z.enum(CONNECTIVITY_STATES),
    /** UIDs or names. */
    devices: z.array(z.string().min(1)).max(20_000).optional(),
    /** Or a Lucene query over the device fields (those of getDevices), across every tenant. */
    q: z.string().min(1).optional(),
    /** At most this many of the devices `q` selects (in inventory order). */
    limit: z.number().int().min(1).max(20_000).optional(),
  })
  .strict()
  .refine((i) => (i.devices === undefined) !== (i.q === undefined), {
    message: 'give either devices or q',
  });
const OutOfBandInput = z
  .object({
    hardwareName: z.string().min(1).optional(),
    description: z.string().max(200).optional(),
    enabled: z.boolean().optional(),
    /** Who made the change on the device, as the change log names them. */
    username: z.string().min(1).max(200).optional(),
  })
  .strict();
const ManagementInput = z.object({ reachable: z.boolean() }).strict();
const ConnectorInput = z.object({ status: z.enum(['INACTIVE', 'ACTIVE']) }).strict();
const FailoverInput = z
  .object({ action: z.enum(['switch', 'fail-active', 'fail-standby', 'recover']).optional() })
  .strict();
const dateOrNull = z.union([z.iso.datetime({ offset: true }), z.null()]);
const CertificatesInput = z
  .object({
    certificateExpiryDate: dateOrNull.optional(),
    raVpnCertificateExpiryDate: dateOrNull.optional(),
    /** Relative to the simulated now; may be negative (already expired). */
    certificateExpiresInDays: z.number().min(-3650).max(3650).optional(),
    raVpnCertificateExpiresInDays: z.number().min(-3650).max(3650).optional(),
  })
  .strict();

export const DEVICE_ROUTES = [
  [
    'POST',
    '/_sim/devices/{device}/connectivity',
    "set a device's connectivityState: {connectivityState} (ONLINE, UNREACHABLE, BAD_CREDENTIALS, UNKNOWN, PENDING_SETUP, PENDING, NEW_CERT_DETECTED; an ASA set to NEW_CERT_DETECTED presents its next certificate on its management HTTPS)",
  ],
  [
    'POST',
    '/_sim/devices/connectivity',
    'set the connectivityState of many devices at once: {connectivityState, devices?: [uid|name], q?: lucene, limit?}',
  ],
  [
    'POST',
    '/_sim/devices/{device}/management',
    "open or close an ASA's management HTTPS to others than SCC: {reachable}. Closed, a look at its certificate (the simulator's management endpoint) gets no handshake, while SCC still reaches it",
  ],
  [
    'POST',
    '/_sim/connectors/{connector}/status',
    'stop (INACTIVE) or start (ACTIVE) a Secure Device Connector, by UID or name: {status}. Stopped, it sends no heartbeat and every device behind it is UNREACHABLE; started, they are as they were',
  ],
  [
    'POST',
    '/_sim/devices/{device}/out-of-band',
    "change an ASA's running config behind SCC's back (CONFLICT_DETECTED, in the change log): {hardwareName?, description?, enabled?, username?}",
  ],
  [
    'POST',
    '/_sim/devices/{device}/failover',
    'fail over an HA ASA pair: {action?: switch (default) | fail-active | fail-standby | recover}',
  ],
  [
    'POST',
    '/_sim/devices/{device}/reload',
    'reload an ASA: its shuns are lost (they live in memory, not in the configuration)',
  ],
  [
    'POST',
    '/_sim/devices/{device}/certificates',
    'set certificate expiry: {certificateExpiryDate?, raVpnCertificateExpiryDate? (ISO or null), certificateExpiresInDays?, raVpnCertificateExpiresInDays?}',
  ],
] as const;

/** `Primary - Active` → unit and state; HA ASAs report their own unit and their mate's this way. */
function parseFailover(text: string | null | undefined, fallbackUnit: string) {
  const match = /^\s*(Primary|Secondary)\s*-\s*(.+?)\s*$/i.exec(text ?? '');
  return { unit: match?.[1] ?? fallbackUnit, state: match?.[2] ?? 'Standby Ready' };
}

function failover(device: DeviceRecord, action: z.output<typeof FailoverInput>['action'] = 'switch') {
  const d = device.device;
  if (
    device.kind !== 'ASA' ||
    d.asaFailoverMode === undefined ||
    d.asaFailoverMode === null ||
    d.asaFailoverMode === 'OFF'
  ) {
    throw invalidInput(
      `${d.name} is not an ASA in a failover pair (asaFailoverMode ${d.asaFailoverMode ?? 'none'})`,
    );
  }
  const self = parseFailover(d.asaFailoverState, 'Primary');
  const mate = parseFailover(
    d.asaFailoverMate?.failoverState,
    self.unit === 'Primary' ? 'Secondary' : 'Primary',
  );
  const units = [self, mate];
  const active = units.find((u) => u.state === 'Active');
  const other = units.find((u) => u !== active);
  const failed = (u: { state: string }) => u.state === 'Failed';
  switch (action) {
    case 'switch':
      if (active === undefined || other === undefined || failed(other))
        throw conflict(`${d.name} cannot switch over: no healthy standby unit`);
      active.state = 'Standby Ready';
      other.state = 'Active';
      break;
    case 'fail-active':
      if (active === undefined || other === undefined || failed(other))
        throw conflict(`${d.name} has no healthy standby unit to take over`);
      active.state = 'Failed';
      other.state = 'Active';
      break;
    case 'fail-standby': {
      const standby = units.find((u) => u.state !== 'Active' && !failed(u));
      if (standby === undefined) throw conflict(`${d.name} has no healthy standby unit`);
      standby.state = 'Failed';
      break;
    }
    case 'recover':
      for (const u of units) if (failed(u)) u.state = 'Standby Ready';
      break;
  }
  d.asaFailoverState = `${self.unit} - ${self.state}`;
  d.asaFailoverMate = { ...(d.asaFailoverMate ?? {}), failoverState: `${mate.unit} - ${mate.state}` };
}

/** A new certificate detected is a new one presented: an ASA's management HTTPS shows the next key pair. */
function setConnectivity(device: DeviceRecord, state: (typeof CONNECTIVITY_STATES)[number]): void {
  if (state === 'NEW_CERT_DETECTED' && device.kind === 'ASA' && device.device.connectivityState !== state)
    rotateCertificate(device);
  device.device.connectivityState = state;
}

export function addDeviceRoutes(add: AddRoute, sim: SimRuntime): void {
  add('POST', '/_sim/devices/{device}/connectivity', async (r) => {
    const device = findDevice(sim.state, r.params.device ?? '');
    const input = await parse(r, ConnectivityInput);
    setConnectivity(device, input.connectivityState);
    return { status: 200, body: { device: device.device.name, connectivityState: input.connectivityState } };
  });

  add('POST', '/_sim/devices/connectivity', async (r) => {
    const input = await parse(r, BurstInput);
    let devices: DeviceRecord[];
    if (input.devices !== undefined) devices = findDevices(sim.state, input.devices);
    else {
      const all = [...sim.state.devices.values()];
      const fields = Object.fromEntries(
        Object.entries(deviceFields).map(([name, spec]) => [
          name,
          { kind: spec.kind, get: (d: DeviceRecord) => spec.get(d.device) },
        ]),
      );
      devices = matching(input.q ?? '', all, fields);
    }
    if (input.limit !== undefined) devices = devices.slice(0, input.limit);
    for (const d of devices) setConnectivity(d, input.connectivityState);
    return {
      status: 200,
      body: {
        connectivityState: input.connectivityState,
        count: devices.length,
        devices: devices.map((d) => d.device.name),
      },
    };
  });

  add('POST', '/_sim/devices/{device}/management', async (r) => {
    const device = findDevice(sim.state, r.params.device ?? '');
    const input = await parse(r, ManagementInput);
    if (device.kind !== 'ASA') throw invalidInput(`${device.device.name} is not an ASA`);
    if (input.reachable) delete device.managementClosed;
    else device.managementClosed = true;
    return { status: 200, body: { device: device.device.name, managementReachable: input.reachable } };
  });

  add('POST', '/_sim/connectors/{connector}/status', async (r) => {
    const input = await parse(r, ConnectorInput);
    const named = r.params.connector ?? '';
    const matches = [...connectorsOf(sim.state.devices.values())].filter(
      ([uid, { name }]) => uid === named || name === named,
    );
    const [match] = matches;
    if (!match) throw notFound(`No Secure Device Connector ${named}`);
    if (matches.length > 1)
      throw invalidInput(`${matches.length} connectors are named ${named}: give the UID of one`);
    const [uid, { name, devices }] = match;
    const outage = sim.state.connectorOutages.get(uid);
    if (input.status === 'INACTIVE' && !outage) {
      sim.state.connectorOutages.set(uid, {
        since: sim.clock.now(),
        before: new Map(devices.map((d) => [d.device.uid, d.device.connectivityState])),
      });
      for (const d of devices) d.device.connectivityState = 'UNREACHABLE';
    } else if (input.status === 'ACTIVE' && outage) {
      sim.state.connectorOutages.delete(uid);
      for (const d of devices) {
        const before = outage.before.get(d.device.uid);
        d.device.connectivityState = (before ?? 'ONLINE') as typeof d.device.connectivityState;
      }
    }
    return {
      status: 200,
      body: { connector: name, uid, status: input.status, devices: devices.map((d) => d.device.name) },
    };
  });

  add('POST', '/_sim/devices/{device}/out-of-band', async (r) => {
    const device = findDevice(sim.state, r.params.device ?? '');
    const input = await parse(r, OutOfBandInput);
    if (device.kind !== 'ASA') throw invalidInput(`${device.device.name} is not an ASA`);
    ensureAsaInterfaces(sim.state, device);
    const changed = changeOutOfBand(sim.state, device, {
      hardwareName: input.hardwareName,
      description: input.description,
      enabled: input.enabled,
      username: input.username ?? UI_USER,
      at: sim.clock.now(),
    });
    if (changed === undefined)
      throw notFound(`${device.device.name} has no interface ${input.hardwareName ?? ''}`);
    return {
      status: 200,
      body: {
        device: device.device.name,
        hardwareName: changed.hardwareName,
        conflictDetectionState: device.device.conflictDetectionState,
        configState: device.device.configState,
        changelogUid: sim.state.activeChangelogs.get(device.device.uid),
      },
    };
  });

  add('POST', '/_sim/devices/{device}/failover', async (r) => {
    const device = findDevice(sim.state, r.params.device ?? '');
    const input = await parse(r, FailoverInput);
    failover(device, input.action);
    // Shuns are not kept across failover: the unit that takes over has none.
    const shunsLost = clearShuns(sim.state, device.device.uid);
    return {
      status: 200,
      body: {
        device: device.device.name,
        shunsLost,
        asaFailoverMode: device.device.asaFailoverMode,
        asaFailoverState: device.device.asaFailoverState,
        mateFailoverState: device.device.asaFailoverMate?.failoverState,
      },
    };
  });

  add('POST', '/_sim/devices/{device}/reload', async (r) => {
    const device = findDevice(sim.state, r.params.device ?? '');
    await parse(r, z.object({}).strict());
    if (device.kind !== 'ASA') throw invalidInput(`${device.device.name} is not an ASA`);
    return {
      status: 200,
      body: { device: device.device.name, shunsLost: clearShuns(sim.state, device.device.uid) },
    };
  });

  add('POST', '/_sim/devices/{device}/certificates', async (r) => {
    const device = findDevice(sim.state, r.params.device ?? '');
    const input = await parse(r, CertificatesInput);
    const now = sim.clock.now();
    const at = (date: string | null | undefined, days: number | undefined) =>
      days !== undefined ? iso(now + Math.round(days * DAY)) : date === undefined ? undefined : date;
    const management = at(input.certificateExpiryDate, input.certificateExpiresInDays);
    const raVpn = at(input.raVpnCertificateExpiryDate, input.raVpnCertificateExpiresInDays);
    if (management === undefined && raVpn === undefined)
      throw invalidInput(
        'Give a certificate expiry: certificateExpiryDate, raVpnCertificateExpiryDate or …InDays',
      );
    const d = device.device;
    if (management !== undefined) {
      if (management === null) delete d.certificateExpiryDate;
      else d.certificateExpiryDate = new Date(management).toISOString();
    }
    if (raVpn !== undefined) {
      if (raVpn === null) delete d.raVpnCertificateExpiryDate;
      else d.raVpnCertificateExpiryDate = new Date(raVpn).toISOString();
    }
    return {
      status: 200,
      body: {
        device: d.name,
        certificateExpiryDate: d.certificateExpiryDate ?? null,
        raVpnCertificateExpiryDate: d.raVpnCertificateExpiryDate ?? null,
      },
    };
  });
}
