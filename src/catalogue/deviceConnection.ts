// SCC's connection to its devices: one Secure Device Connector (`/fw connectors show <connector>`), and the
// two calls that mend an ASA's connection: `/fw devices reconnect <asa>` (reconnectAsaDevice) and `/fw
// devices accept-certificate <asa>…` (bulkAcceptAsaCertificates, for an ASA that presents a new
// certificate). Both are governed: a second person by default (the policy file may lower it), audited
// either way. SCC's API shows no certificate, so fwbot looks at the one each ASA presents at its management
// address (presentedCertificates.ts) and the card shows its fingerprint; a look again right before the call
// that finds another one stops it.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import { renderConnector } from '../render/devices.js';
import { code, counted, humanEnum } from '../render/format.js';
import { untrusted } from '../render/untrusted.js';
import type { Sdc } from '../scc/generated/models.js';
import { exactLucene } from '../scc/lucene.js';
import { isUuid, list, text } from './args.js';
import { DEVICE, transactionTrack } from './common.js';
import { inventory } from './devices.js';
import { compareDevices, DeviceFacts, deviceFacts } from './deviceTarget.js';
import {
  type CertificateProbe,
  defineOperation,
  type Operation,
  type OperationContext,
  type TargetRead,
} from './operation.js';
import {
  CertificateLookFacts,
  certificateChanges,
  certificateLines,
  lookAtCertificate,
  unseenWarning,
} from './presentedCertificates.js';
import { type DeviceRequirement, resolveDevice, resolveDevices } from './resolve.js';
import { isNotFound } from './sccErrors.js';

const ASA: DeviceRequirement = {
  kinds: ['asa'],
  why: 'SCC reconnects and accepts certificates of ASAs only',
};

export const connectorShow = defineOperation({
  id: 'connectors.show',
  words: ['connectors', 'show'],
  area: 'devices',
  failure: 'Could not show the Secure Device Connector',
  summary: 'Show one Secure Device Connector: status, last heartbeat, version and the devices behind it',
  params: [{ name: 'connector', kind: 'word', description: 'connector name or UUID (see `connectors`)' }],
  args: z.object({ connector: text() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getSdc', 'getSdcs', 'getDevices'],
  examples: ['connectors show sdc-hq', 'connectors show 7131daad-e813-4b8f-8f42-be1e241e8cdb'],
  run: async (ctx, args) => {
    const typed = args.connector.trim();
    let sdc: Sdc | undefined;
    if (isUuid(typed)) {
      try {
        sdc = (await ctx.scc.call('getSdc', { path: { sdcUid: typed.toLowerCase() } })).data;
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    } else {
      const query = { q: exactLucene('name', typed), limit: 2 };
      sdc = (await ctx.scc.call('getSdcs', { query })).data.items?.[0];
    }
    if (sdc === undefined)
      throw new UserError(`No Secure Device Connector is named “${typed}”: \`/fw connectors\` lists them.`);
    const devices = await inventory(ctx.scc);
    return { sdc, devices: devices?.filter((d) => d.connectorUid === sdc.uid) };
  },
  render: ({ sdc, devices }) => renderConnector(sdc, devices),
});

const ConnectionFacts = DeviceFacts.extend({ connectivityState: z.string() });
type ConnectionFacts = z.infer<typeof ConnectionFacts>;

async function connectionFacts(ctx: OperationContext, typed: string): Promise<ConnectionFacts> {
  const device = await resolveDevice(ctx.scc, typed, ASA);
  return { ...deviceFacts(device), connectivityState: device.device.connectivityState ?? 'UNKNOWN' };
}

async function rereadConnection(ctx: OperationContext, before: ConnectionFacts) {
  try {
    const { data } = await ctx.scc.call('getDevice', { path: { deviceUid: before.uid } });
    const facts: ConnectionFacts = {
      ...deviceFacts({ uid: before.uid, name: data.name, kind: before.kind }),
      connectivityState: data.connectivityState ?? 'UNKNOWN',
    };
    return { found: true as const, facts };
  } catch (error) {
    if (isNotFound(error))
      return { found: false as const, reason: `device ${before.name} is no longer in the inventory` };
    throw error;
  }
}

export const devicesReconnect = defineOperation({
  id: 'devices.reconnect',
  words: ['devices', 'reconnect'],
  area: 'devices',
  failure: 'Could not reconnect the ASA',
  summary: 'Ask SCC to re-establish its connection to an ASA',
  params: [{ ...DEVICE, description: 'ASA name or UUID' }],
  args: z.object({ device: text() }),
  role: 'operator',
  approval: { default: 'four-eyes' },
  auditEveryCall: true,
  // A connectivity incident's Reconnect… button (src/alerts/kinds/actions.ts).
  offeredAsButton: true,
  scc: ['getDevices', 'getDevice', 'reconnectAsaDevice'],
  examples: ['devices reconnect asa-hq-01'],
  target: {
    facts: ConnectionFacts,
    resolve: async (ctx, args) => {
      const facts = await connectionFacts(ctx, args.device);
      return { facts, raw: { device: facts.uid } };
    },
    reread: rereadConnection,
    compare: (before, after) => compareDevices(before, after),
    describe: (facts) => ({
      action: `reconnect SCC to ${code(facts.name)}`,
      line: `SCC's connection to ${untrusted(facts.name)}`,
      fields: [
        { label: 'Device', value: facts.name },
        { label: 'Connectivity', value: humanEnum(facts.connectivityState) },
      ],
      warnings:
        facts.connectivityState === 'NEW_CERT_DETECTED'
          ? [
              ':warning: The ASA presents a new certificate: SCC does not reconnect it until the certificate is accepted (`/fw devices accept-certificate`).',
            ]
          : [],
    }),
  },
  run: async (ctx, _args, facts) => ({
    device: facts,
    transaction: (await ctx.scc.call('reconnectAsaDevice', { path: { deviceUid: facts.uid } })).data,
  }),
  render: ({ device, transaction }, _args, meta) =>
    announcement(
      {
        sentence: `reconnect SCC to ${code(device.name)}`,
        tense: 'asked',
        transaction,
        details: [['Connectivity before', humanEnum(device.connectivityState)]],
        next: 'fwbot reports in this thread when SCC is done.',
      },
      meta,
    ),
  track: ({ device, transaction }) => transactionTrack(transaction, `reconnect of ${device.name}`),
});

/** A device waiting for its certificate to be accepted, and fwbot's look at the certificate it presents. */
const CertificateFacts = ConnectionFacts.extend({ look: CertificateLookFacts });
type CertificateFacts = z.infer<typeof CertificateFacts>;

/** The device and its certificate again, right before the call: SCC's record, then another look. */
async function rereadCertificate(
  ctx: OperationContext,
  before: CertificateFacts,
  probe: CertificateProbe | undefined,
): Promise<TargetRead<CertificateFacts>> {
  try {
    const { data } = await ctx.scc.call('getDevice', { path: { deviceUid: before.uid } });
    return {
      found: true,
      facts: {
        ...deviceFacts({ uid: before.uid, name: data.name, kind: before.kind }),
        connectivityState: data.connectivityState ?? 'UNKNOWN',
        look: await lookAtCertificate(probe, data.address),
      },
    };
  } catch (error) {
    if (isNotFound(error))
      return { found: false, reason: `device ${before.name} is no longer in the inventory` };
    throw error;
  }
}

/** SCC accepts the certificates of 1 to 50 ASAs per call. */
const MAX_CERTIFICATES = 50;

export const devicesAcceptCertificate = defineOperation({
  id: 'devices.accept-certificate',
  words: ['devices', 'accept-certificate'],
  area: 'devices',
  failure: 'Could not accept the ASAs’ new certificates',
  summary: 'Accept the new certificate an ASA presents, so SCC reaches it again',
  params: [{ name: 'device', kind: 'device', variadic: true, description: 'ASA names or UUIDs, up to 50' }],
  args: z.object({ device: list({ min: 1, max: MAX_CERTIFICATES, what: 'devices' }) }),
  role: 'operator',
  approval: { default: 'four-eyes' },
  auditEveryCall: true,
  // A new-certificate incident's Accept the new certificate… button (src/alerts/kinds/actions.ts).
  offeredAsButton: true,
  scc: ['getDevices', 'getDevice', 'bulkAcceptAsaCertificates'],
  examples: ['devices accept-certificate asa-hq-01'],
  target: {
    facts: z.object({ devices: z.array(CertificateFacts).min(1) }),
    resolve: async (ctx, args) => {
      const found = await resolveDevices(ctx.scc, args.device, ASA);
      const states = found.map((d) => ({
        ...deviceFacts(d),
        connectivityState: d.device.connectivityState ?? 'UNKNOWN',
      }));
      const without = states.filter((d) => d.connectivityState !== 'NEW_CERT_DETECTED');
      if (without.length > 0)
        throw new UserError(
          `${without.map((d) => `${d.name} (${humanEnum(d.connectivityState)})`).join(', ')} ${without.length === 1 ? 'presents' : 'present'} no new certificate: there is nothing to accept.`,
        );
      const probe = ctx.services?.certificates;
      const devices = await Promise.all(
        found.map(async (d, i) => ({
          ...(states[i] as ConnectionFacts), // one state per device found, in order
          look: await lookAtCertificate(probe, d.device.address),
        })),
      );
      return { facts: { devices }, raw: { device: devices.map((d) => d.uid) } };
    },
    reread: async (ctx, facts) => {
      const probe = ctx.services?.certificates;
      const reads = await Promise.all(facts.devices.map((d) => rereadCertificate(ctx, d, probe)));
      const gone = reads.find((r) => !r.found);
      if (gone && !gone.found) return gone;
      return { found: true, facts: { devices: reads.flatMap((r) => (r.found ? [r.facts] : [])) } };
    },
    compare: (before, after) =>
      before.devices.flatMap((device, i) => {
        const now = after.devices[i];
        if (!now) return [`device ${device.name} is missing`];
        const moved =
          now.connectivityState === device.connectivityState
            ? []
            : [
                `${now.name} is now ${humanEnum(now.connectivityState)}: it no longer waits for a certificate.`,
              ];
        return [
          ...compareDevices(device, now),
          ...moved,
          ...certificateChanges(now.name, device.look, now.look),
        ];
      }),
    describe: ({ devices }) => ({
      action: `accept the new certificate of ${devices.map((d) => code(d.name)).join(', ')}`,
      line: `new certificate of ${devices.map((d) => untrusted(d.name)).join(', ')}`,
      fields: [{ label: 'Devices', value: devices.map((d) => d.name).join(', ') }],
      code: devices.flatMap((d) => certificateLines(d.name, d.look)).join('\n'),
      warnings: [
        ...unseenWarning(
          devices.filter((d) => !d.look.certificate).map((d) => ({ name: d.name, look: d.look })),
        ),
        ':warning: SCC accepts whatever certificate the ASA presents to it. Above is what the ASA presented to fwbot: compare its SHA-256 with `show crypto ca certificates` on the ASA before approving. A certificate nobody expected can mean someone is in the middle.',
      ],
    }),
  },
  run: async (ctx, _args, { devices }) => ({
    devices,
    transaction: (
      await ctx.scc.call('bulkAcceptAsaCertificates', { body: { deviceUids: devices.map((d) => d.uid) } })
    ).data,
  }),
  render: ({ devices, transaction }, _args, meta) =>
    announcement(
      {
        sentence: `accept the new certificate of ${devices.map((d) => code(d.name)).join(', ')}`,
        tense: 'asked',
        transaction,
        next: 'fwbot reports in this thread when SCC is done.',
      },
      meta,
    ),
  track: ({ devices, transaction }) =>
    transactionTrack(transaction, `certificate acceptance of ${counted(devices.length, 'ASA')}`),
});

/** SCC's connection to devices: this file's operations, after the device directory (index.ts). */
export const DEVICE_CONNECTION_OPERATIONS: readonly Operation[] = [
  connectorShow,
  devicesReconnect,
  devicesAcceptCertificate,
];
