// One Secure Client upgrade across the MSP portal's managed tenants (`msp vpn upgrade`), after a second
// person approves it: the devices it selects (mspSelection.ts) and the version are what the approval holds;
// before the approved run each device is read again and a device gone, renamed or moved to another tenant
// is named on the card. SCC answers with one cross-tenant run, which fwbot follows tenant by tenant
// (the follow kind mspUpgradeRun).
import { z } from 'zod';
import { announcement } from '../render/announce.js';
import { code, counted } from '../render/format.js';
import { type MspDeviceFacts, tenantGroups } from '../render/msp.js';
import { untrusted } from '../render/untrusted.js';
import { optionalText, text } from './args.js';
import {
  DEVICES,
  devices,
  factsOf,
  MAX_MSP_DEVICES,
  MspDeviceFactsSchema,
  rereadMspDevice,
  selectMspDevices,
} from './mspSelection.js';
import { defineOperation } from './operation.js';

const UpgradeFacts = z.object({
  devices: z.array(MspDeviceFactsSchema).min(1).max(MAX_MSP_DEVICES),
  version: z.string(),
  name: z.string().nullable(),
});
type UpgradeFacts = z.infer<typeof UpgradeFacts>;

function spread(devices: readonly MspDeviceFacts[]): string {
  const tenants = tenantGroups(devices).length;
  return `${counted(devices.length, 'device')} in ${counted(tenants, 'tenant')}`;
}

export const mspVpnUpgrade = defineOperation({
  id: 'msp.vpn.upgrade',
  words: ['msp', 'vpn', 'upgrade'],
  area: 'msp',
  failure: 'Could not start the Secure Client upgrade across tenants',
  summary:
    'Upgrade Secure Client on ASAs across managed tenants, in one run (after a second person approves)',
  params: [
    DEVICES,
    {
      name: 'version',
      kind: 'word',
      flag: true,
      description: 'the Secure Client version, see `msp vpn versions`',
    },
    { name: 'name', kind: 'word', flag: true, optional: true, description: 'a name to find the run by' },
  ],
  args: z.object({ device: devices(), version: text(), name: optionalText() }),
  role: 'operator',
  tenancy: 'portal',
  // One command reaches many customers' firewalls at once: a second person looks first unless the policy
  // file says otherwise (approvals.operations.msp.vpn.upgrade).
  approval: { default: 'four-eyes' },
  scc: ['getMspManagedDevices', 'getMspManagedDevice', 'upgradeMspManagedAsaSecureClientPackages'],
  examples: [
    'msp vpn upgrade nw-asa-hq globex-asa-01 --version 5.1.8.105',
    'msp vpn upgrade "managedTenantName:northwind-us" --version 5.1.8.105 --name "June refresh"',
  ],
  target: {
    facts: UpgradeFacts,
    resolve: async (ctx, args) => {
      const chosen = (await selectMspDevices(ctx.scc, args.device)).map(factsOf);
      return {
        facts: { devices: chosen, version: args.version, name: args.name ?? null },
        raw: {
          device: chosen.map((d) => d.uid),
          version: args.version,
          ...(args.name ? { name: args.name } : {}),
        },
      };
    },
    reread: async (ctx, facts) => {
      const reads = await Promise.all(facts.devices.map((device) => rereadMspDevice(ctx.scc, device)));
      const gone = reads.find((read) => !read.found);
      if (gone && !gone.found) return gone;
      return {
        found: true,
        facts: { ...facts, devices: reads.flatMap((read) => (read.found ? [read.facts] : [])) },
      };
    },
    compare: (before: UpgradeFacts, after: UpgradeFacts) =>
      before.devices.flatMap((device, i) => {
        const now = after.devices[i];
        if (!now) return [`device ${device.name} is missing`];
        const changes: string[] = [];
        if (now.name !== device.name) changes.push(`device ${device.name} is now named ${now.name}`);
        if (now.tenantUid !== device.tenantUid)
          changes.push(`${now.name} is now in tenant ${now.tenantName}, not ${device.tenantName}`);
        return changes;
      }),
    describe: ({ devices: chosen, version, name }) => ({
      action: `upgrade Secure Client to ${code(version)} on ${spread(chosen)}`,
      line: `Secure Client ${untrusted(version)} on ${chosen.map((d) => untrusted(`${d.name} (${d.tenantName})`)).join(', ')}`,
      fields: [
        {
          // One value on one line: the card shows a field value as typed, line breaks as `\n`.
          label: 'Tenants',
          value: tenantGroups(chosen)
            .map((g) => `${g.tenantName}: ${g.devices.length} (${g.devices.map((d) => d.name).join(', ')})`)
            .join('; '),
        },
        { label: 'Version', value: version },
        ...(name === null ? [] : [{ label: 'Run name', value: name }]),
      ],
      warnings: [
        `Remote-access VPN users of ${tenantGroups(chosen).length === 1 ? 'this customer' : 'every customer listed'} get the new Secure Client at their next connection.`,
      ],
    }),
  },
  run: async (ctx, _args, { devices: chosen, version, name }) => {
    const body = { deviceUids: chosen.map((d) => d.uid), version, ...(name ? { name } : {}) };
    const { data } = await ctx.scc.call('upgradeMspManagedAsaSecureClientPackages', { body });
    return { devices: chosen, transaction: data };
  },
  render: ({ devices: chosen, transaction }, args, meta) =>
    announcement(
      {
        sentence: `upgrade Secure Client to *${args.version}* on ${spread(chosen)}: ${tenantGroups(chosen)
          .map((g) => `${g.tenantName} (${g.devices.map((d) => d.name).join(', ')})`)
          .join(', ')}`,
        tense: 'asked',
        transaction,
        details: [['Run name', args.name]],
        next: 'fwbot follows the upgrade run and reports its progress here, tenant by tenant.',
      },
      meta,
    ),
  track: ({ devices: chosen, transaction }, args) =>
    transaction.transactionUid
      ? [
          {
            kind: 'mspUpgradeRun',
            transactionUid: transaction.transactionUid,
            label: `upgrade Secure Client to ${args.version} on ${spread(chosen)}`,
          },
        ]
      : [],
});
