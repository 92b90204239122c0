// Secure Client (the VPN client) on ASAs and FTDs: packages, compatible versions, upgrades and their runs.
// SCC keeps ASA and FTD apart (one operation each); these commands pick by the device's kind.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import { code, counted } from '../render/format.js';
import { pageInfo } from '../render/list.js';
import { PAGE_SIZE } from '../render/paging.js';
import { untrusted } from '../render/untrusted.js';
import {
  renderPackage,
  renderPackages,
  renderRun,
  renderRunFields,
  renderRuns,
  renderVersions,
} from '../render/vpn.js';
import type { CompatibleSecureClientVersionDto } from '../scc/generated/models.js';
import { list, offset, optionalText, text, unique, uuid } from './args.js';
import { DEVICE, listArgs, OFFSET, pageQuery, queryParam } from './common.js';
import { compareDevices, DeviceFacts, deviceFacts, rereadDevice } from './deviceTarget.js';
import { defineOperation, type Operation } from './operation.js';
import { type DeviceRequirement, type ResolvedDevice, resolveDevice, resolveDevices } from './resolve.js';

const VPN_DEVICE: DeviceRequirement = {
  kinds: ['asa', 'ftd'],
  why: 'Secure Client is managed on ASAs and threat-defense devices (FTD)',
};
/** The devices the upgrade form's menu offers (the same kinds as VPN_DEVICE, as SCC's Lucene). */
const VPN_DEVICE_QUERY = 'deviceType:ASA OR deviceType:*FTD';
/** SCC takes 1–50 devices per version lookup or upgrade. */
export const MAX_DEVICES = 50;
const DEVICES = {
  name: 'device',
  kind: 'device' as const,
  variadic: true,
  description: 'device names or UUIDs, up to 50',
};
const devices = () => list({ min: 1, max: MAX_DEVICES, what: 'devices' });

const byKind = <A, F>(device: Pick<ResolvedDevice, 'kind'>, asa: A, ftd: F): A | F =>
  device.kind === 'asa' ? asa : ftd;

export const vpnPackages = defineOperation({
  id: 'vpn.packages',
  words: ['vpn', 'packages'],
  area: 'vpn',
  failure: 'Could not list the Secure Client packages',
  summary: 'List the Secure Client packages on an ASA or FTD',
  params: [DEVICE, OFFSET],
  args: z.object({ device: text(), offset: offset() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getAsaSecureClientPackages', 'getFtdSecureClientPackages'],
  examples: ['vpn packages asa-hq-01', 'vpn packages ftd-edge-01'],
  run: async (ctx, args) => {
    const device = await resolveDevice(ctx.scc, args.device, VPN_DEVICE);
    const operationId = byKind(
      device,
      'getAsaSecureClientPackages' as const,
      'getFtdSecureClientPackages' as const,
    );
    const query = { limit: PAGE_SIZE, offset: args.offset };
    const { data } = await ctx.scc.call(operationId, { path: { deviceUid: device.uid }, query });
    return { device, data, query };
  },
  render: ({ device, data, query }, _args, meta) =>
    renderPackages(device, data.items ?? [], pageInfo(data, query), meta),
});

export const vpnPackage = defineOperation({
  id: 'vpn.package',
  words: ['vpn', 'package'],
  area: 'vpn',
  failure: 'Could not show the Secure Client package',
  summary: 'Show one Secure Client package of an ASA or FTD',
  params: [
    DEVICE,
    { name: 'package-uid', kind: 'uuid', description: 'UUID of the package (see `vpn packages`)' },
  ],
  args: z.object({ device: text(), 'package-uid': uuid() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getAsaSecureClientPackageByUid', 'getFtdSecureClientPackageByUid'],
  examples: ['vpn package ftd-edge-01 3fa85f64-5717-4562-b3fc-2c963f66afa6'],
  run: async (ctx, args) => {
    const device = await resolveDevice(ctx.scc, args.device, VPN_DEVICE);
    const operationId = byKind(
      device,
      'getAsaSecureClientPackageByUid' as const,
      'getFtdSecureClientPackageByUid' as const,
    );
    const path = { deviceUid: device.uid, packageUid: args['package-uid'] };
    return { device, pkg: (await ctx.scc.call(operationId, { path })).data };
  },
  render: ({ device, pkg }) => renderPackage(device, pkg),
});

export const vpnVersions = defineOperation({
  id: 'vpn.versions',
  words: ['vpn', 'versions'],
  area: 'vpn',
  failure: 'Could not list the Secure Client versions',
  summary: 'List the Secure Client versions every given device can take',
  params: [DEVICES],
  args: z.object({ device: devices() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getAsaCompatibleSecureClientVersions', 'getFtdCompatibleSecureClientVersions'],
  examples: ['vpn versions asa-hq-01 asa-dc-03', 'vpn versions ftd-edge-01'],
  run: async (ctx, args) => {
    const found = await resolveDevices(ctx.scc, args.device, VPN_DEVICE);
    // SCC answers per kind, so ASAs and FTDs given together get one answer each.
    const groups = [
      {
        label: 'ASA',
        devices: found.filter((d) => d.kind === 'asa'),
        operationId: 'getAsaCompatibleSecureClientVersions' as const,
      },
      {
        label: 'FTD',
        devices: found.filter((d) => d.kind === 'ftd'),
        operationId: 'getFtdCompatibleSecureClientVersions' as const,
      },
    ].filter((group) => group.devices.length > 0);
    return Promise.all(
      groups.map(async ({ label, devices: members, operationId }) => {
        const versions: CompatibleSecureClientVersionDto[] = [];
        const query = { deviceUids: members.map((d) => d.uid) };
        for await (const version of ctx.scc.paginate(operationId, { query })) versions.push(version);
        return { label, devices: members, versions };
      }),
    );
  },
  render: (groups) => renderVersions(groups),
});

export const vpnUpgrade = defineOperation({
  id: 'vpn.upgrade',
  words: ['vpn', 'upgrade'],
  area: 'vpn',
  failure: 'Could not start the Secure Client upgrade',
  summary: 'Upgrade Secure Client on ASAs or on FTDs to a version',
  params: [
    { ...DEVICES, optional: true },
    {
      name: 'version',
      kind: 'word',
      flag: true,
      optional: true,
      description: 'the Secure Client version, see `vpn versions`',
    },
    { name: 'name', kind: 'word', flag: true, optional: true, description: 'a name to find the run by' },
  ],
  args: z
    .object({ device: devices(), version: text(), name: optionalText() })
    .refine((args) => unique(args.device) === undefined, {
      path: ['device'],
      message: 'names a device twice.',
    }),
  role: 'operator',
  // The policy file may make upgrades wait for a second person (approvals.operations.vpn.upgrade).
  approval: { default: 'none' },
  scc: ['triggerSecureClientUpgrade', 'triggerFtdSecureClientUpgrade', 'getDevice'],
  examples: ['vpn upgrade', 'vpn upgrade asa-hq-01 asa-dc-03 --version 5.1.4.74 --name "May rollout"'],
  modal: {
    title: 'Upgrade Secure Client',
    submit: 'Upgrade',
    when: 'empty',
    // A fixed form: the devices are an external select searched as the user types, since an inventory
    // easily holds more than Slack's 100 static options (and the form opens without waiting on SCC).
    fields: [
      {
        name: 'device',
        label: 'Devices (all ASAs or all FTDs)',
        input: 'device',
        multiple: true,
        deviceQuery: VPN_DEVICE_QUERY,
      },
      { name: 'version', label: 'Secure Client version', input: 'text', placeholder: '5.1.4.74' },
      { name: 'name', label: 'Name of the run', input: 'text', optional: true },
    ],
  },
  target: {
    facts: z.object({
      devices: z.array(DeviceFacts).min(1),
      version: z.string(),
      name: z.string().nullable(),
    }),
    resolve: async (ctx, args) => {
      const found = await resolveDevices(ctx.scc, args.device, VPN_DEVICE);
      if (new Set(found.map((d) => d.kind)).size > 1) {
        throw new UserError('An upgrade run covers ASAs or FTDs, not both: start one for each kind.');
      }
      const devices = found.map(deviceFacts);
      return {
        facts: { devices, version: args.version, name: args.name ?? null },
        raw: {
          device: devices.map((d) => d.uid),
          version: args.version,
          ...(args.name ? { name: args.name } : {}),
        },
      };
    },
    reread: async (ctx, facts) => {
      const reads = await Promise.all(facts.devices.map((device) => rereadDevice(ctx.scc, device)));
      const gone = reads.find((read) => !read.found);
      if (gone && !gone.found) return gone;
      return {
        found: true,
        facts: { ...facts, devices: reads.flatMap((read) => (read.found ? [read.facts] : [])) },
      };
    },
    compare: (before, after) =>
      before.devices.flatMap((device, i) => {
        const now = after.devices[i];
        return now ? compareDevices(device, now) : [`device ${device.name} is missing`];
      }),
    describe: ({ devices, version, name }) => ({
      action: `upgrade Secure Client to ${code(version)} on ${devices.length === 1 ? code(devices[0]?.name ?? '') : `${devices.length} devices`}`,
      line: `Secure Client ${untrusted(version)} on ${devices.map((d) => untrusted(d.name)).join(', ')}`,
      fields: [
        { label: 'Devices', value: devices.map((d) => d.name).join(', ') },
        { label: 'Version', value: version },
        ...(name === null ? [] : [{ label: 'Run name', value: name }]),
      ],
      warnings: [],
    }),
  },
  run: async (ctx, _args, { devices: found, version, name }) => {
    const [first] = found;
    if (!first) throw new UserError('An upgrade run needs at least one device.');
    const operationId = byKind(
      first,
      'triggerSecureClientUpgrade' as const,
      'triggerFtdSecureClientUpgrade' as const,
    );
    const body = { deviceUids: found.map((d) => d.uid), version, ...(name ? { name } : {}) };
    const { data } = await ctx.scc.call(operationId, { body });
    return { devices: found, transaction: data };
  },
  render: ({ devices: found, transaction }, args, meta) =>
    announcement(
      {
        sentence: `upgrade Secure Client to *${args.version}* on ${found.map((d) => d.name).join(', ')}`,
        tense: 'asked',
        transaction,
        details: [['Run name', args.name]],
        next: 'fwbot follows the upgrade run and reports its progress here.',
      },
      meta,
    ),
  track: ({ devices: found, transaction }, args) =>
    transaction.transactionUid
      ? [
          {
            kind: 'upgradeRun',
            transactionUid: transaction.transactionUid,
            label: `upgrade Secure Client to ${args.version} on ${counted(found.length, 'device')}`,
          },
        ]
      : [],
});

export const vpnRuns = defineOperation({
  id: 'vpn.runs',
  words: ['vpn', 'runs'],
  area: 'vpn',
  failure: 'Could not list the upgrade runs',
  summary: 'List Secure Client upgrade runs, newest first',
  params: [queryParam('run'), OFFSET],
  args: z.object(listArgs),
  role: 'viewer',
  approval: 'never',
  scc: ['getSecureClientUpgradeRuns'],
  examples: ['vpn runs', 'vpn runs rollout', 'vpn runs upgradeRunStatus:DONE_WITH_DEVICE_ERRORS'],
  run: async (ctx, args) => {
    const query = { ...pageQuery(args), sort: ['submissionTime:DESC' as const] };
    return (await ctx.scc.call('getSecureClientUpgradeRuns', { query })).data;
  },
  render: (data, args, meta) =>
    renderRuns(data.items ?? [], pageInfo(data, pageQuery(args)), args.query, meta),
});

export const vpnRun = defineOperation({
  id: 'vpn.run',
  words: ['vpn', 'run'],
  area: 'vpn',
  failure: 'Could not show the upgrade run',
  summary: 'Show one Secure Client upgrade run, device by device',
  params: [{ name: 'run-uid', kind: 'uuid', description: 'UUID of the run (see `vpn runs`)' }],
  args: z.object({ 'run-uid': uuid() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getSecureClientUpgradeRun'],
  examples: ['vpn run 3fa85f64-5717-4562-b3fc-2c963f66afa6'],
  run: async (ctx, args) =>
    (await ctx.scc.call('getSecureClientUpgradeRun', { path: { upgradeRunUid: args['run-uid'] } })).data,
  render: (run) => renderRun(run),
});

export const vpnRunFields = defineOperation({
  id: 'vpn.run-fields',
  words: ['vpn', 'run-fields'],
  area: 'vpn',
  failure: 'Could not read what upgrade runs can be searched by',
  summary: 'Show the statuses, types and users that upgrade runs can be searched by',
  params: [],
  args: z.object({}),
  role: 'viewer',
  approval: 'never',
  scc: ['getSecureClientUpgradeRunsAttributeValues'],
  examples: ['vpn run-fields'],
  run: async (ctx) => (await ctx.scc.call('getSecureClientUpgradeRunsAttributeValues', {})).data,
  render: (values) => renderRunFields(values),
});

/** Secure Client: this area's operations, in the order help and the command table list them (index.ts). */
export const VPN_OPERATIONS: readonly Operation[] = [
  vpnPackages,
  vpnPackage,
  vpnVersions,
  vpnUpgrade,
  vpnRuns,
  vpnRun,
  vpnRunFields,
];
