// ASA interfaces: list (all kinds or one), show one (with its subinterfaces), delete (always approved by a
// second person; its target is interfaceTarget.ts). Creates and edits, which come with forms, are in
// interfaceChanges.ts. Every command here checks the device is an ASA.
import { z } from 'zod';
import { code } from '../render/format.js';
import { renderInterface, renderInterfaceDeleted, renderInterfaceList } from '../render/interfaces.js';
import { pageInfo } from '../render/list.js';
import { PAGE_SIZE } from '../render/paging.js';
import { text } from './args.js';
import { DEVICE, INTERFACE, listArgs, OFFSET, pageQuery, queryParam, stagedTrack } from './common.js';
import {
  checkDeletable,
  compareInterfaces,
  describeDeletion,
  factsLabel,
  InterfaceFacts,
  interfaceFacts,
  rereadInterface,
} from './interfaceTarget.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';
import { pendingCommands } from './pendingCommands.js';
import {
  boundedPaginate,
  type DeviceRequirement,
  INTERFACE_GET,
  INTERFACE_KIND_NAMES,
  INTERFACE_KINDS,
  INTERFACE_LISTS,
  listDeviceInterfaces,
  type ResolvedDevice,
  type ResolvedInterface,
  resolveDevice,
  resolveInterface,
  toResolved,
} from './resolve.js';
import { readStaged, STAGED_READ } from './stagedDiff.js';
import { changeRequestFor, ticketedDescription } from './tickets.js';

/** People know an interface by its name (`inside`) or its hardware name (`GigabitEthernet1/2`). */
const INTERFACE_SEARCH = ['name', 'hardwareName'] as const;

export const ASA_ONLY: DeviceRequirement = {
  kinds: ['asa'],
  why: 'interfaces are managed here on ASAs only',
};

const DELETE_ONE = {
  etherchannel: 'deleteAsaEtherChannelInterface',
  subinterface: 'deleteAsaSubInterface',
  vlan: 'deleteAsaVlanInterface',
} as const;

/** The device's interfaces by UUID, named as people know them, to show members and parents. */
export function namesByUid(all: readonly ResolvedInterface[]): Map<string, string> {
  return new Map(all.map((i) => [i.uid, i.label]));
}

export const interfacesList = defineOperation({
  id: 'interfaces',
  words: ['interfaces'],
  area: 'interfaces',
  failure: 'Could not list the interfaces',
  summary: 'List the interfaces of an ASA, of all kinds or of one',
  params: [
    DEVICE,
    { name: 'kind', kind: 'choice', optional: true, choices: INTERFACE_KINDS, description: 'only this kind' },
    queryParam('interface'),
    OFFSET,
  ],
  args: z.object({ device: text(), kind: z.enum(INTERFACE_KINDS).optional(), ...listArgs }),
  role: 'viewer',
  approval: 'never',
  scc: Object.values(INTERFACE_LISTS),
  examples: [
    'interfaces asa-hq-01',
    'interfaces asa-hq-01 vlan',
    'interfaces asa-hq-01 inside',
    'interfaces asa-hq-01 mtu:9000',
  ],
  run: async (ctx, args) => {
    const device = await resolveDevice(ctx.scc, args.device, ASA_ONLY);
    const asked = pageQuery(args, INTERFACE_SEARCH);
    if (args.kind) {
      const { data } = await ctx.scc.call(INTERFACE_LISTS[args.kind], {
        path: { deviceUid: device.uid },
        query: asked,
      });
      const items = (data.items ?? []).map((iface) => toResolved(iface, args.kind ?? 'physical'));
      return { device, items, page: pageInfo(data, asked) };
    }
    // All kinds: five lists, merged and paged here (an ASA has tens of interfaces, not thousands).
    const all = await listAllKinds(ctx, device, asked.q);
    const items = all.slice(args.offset, args.offset + PAGE_SIZE);
    return {
      device,
      items,
      page: { offset: args.offset, limit: PAGE_SIZE, count: all.length, shown: items.length },
    };
  },
  render: (result, args, meta) =>
    renderInterfaceList(result.device, args.kind, result.items, result.page, args.query, meta),
});

async function listAllKinds(
  ctx: OperationContext,
  device: ResolvedDevice,
  q: string | undefined,
): Promise<ResolvedInterface[]> {
  if (q === undefined) return listDeviceInterfaces(ctx.scc, device.uid);
  const lists = await Promise.all(
    INTERFACE_KINDS.map(async (kind) => {
      const params = { path: { deviceUid: device.uid }, query: { q } };
      const found = await boundedPaginate(ctx.scc, INTERFACE_LISTS[kind], params, `${kind} interfaces`);
      return found.map((iface) => toResolved(iface, kind));
    }),
  );
  return lists.flat();
}

export const interfacesShow = defineOperation({
  id: 'interfaces.show',
  words: ['interfaces', 'show'],
  area: 'interfaces',
  failure: 'Could not show the interface',
  summary: 'Show one interface of an ASA, with its subinterfaces',
  params: [DEVICE, INTERFACE],
  args: z.object({ device: text(), interface: text() }),
  role: 'viewer',
  approval: 'never',
  scc: [...Object.values(INTERFACE_GET), 'getAsaInterfaceSubInterfaces'],
  examples: ['interfaces show asa-hq-01 inside', 'interfaces show asa-hq-01 GigabitEthernet1/2'],
  run: async (ctx, args) => {
    const device = await resolveDevice(ctx.scc, args.device, ASA_ONLY);
    const all = await listDeviceInterfaces(ctx.scc, device.uid);
    const found = await resolveInterface(ctx.scc, device, args.interface, all);
    const path = { deviceUid: device.uid, interfaceUid: found.uid };
    const { data: iface } = await ctx.scc.call(INTERFACE_GET[found.kind], { path });
    if (found.kind !== 'physical' && found.kind !== 'etherchannel') {
      return { device, kind: found.kind, iface, known: namesByUid(all) };
    }
    const { data: subs } = await ctx.scc.call('getAsaInterfaceSubInterfaces', {
      path,
      query: { limit: PAGE_SIZE },
    });
    const items = subs.items ?? [];
    const subinterfaces = { items, count: subs.count ?? items.length };
    return { device, kind: found.kind, iface, known: namesByUid(all), subinterfaces };
  },
  render: (detail) => renderInterface(detail),
});

/**
 * Whether an approved deletion is deployed with it (the policy file's approvals.deploy_with_change): only
 * when nothing else is pending on the device, or the deploy would push other people's changes unseen.
 */
const DeletionFacts = InterfaceFacts.extend({
  deploy: z.enum(['off', 'with-change', 'separately']).default('off'),
});

async function deployPlan(
  ctx: OperationContext,
  deviceUid: string,
): Promise<'off' | 'with-change' | 'separately'> {
  if (!ctx.policy?.deployWithChange) return 'off';
  const pending = await pendingCommands(ctx, deviceUid);
  return pending.commands.length === 0 && pending.status === 'SUCCESS' ? 'with-change' : 'separately';
}

export const interfacesDelete = defineOperation({
  id: 'interfaces.delete',
  words: ['interfaces', 'delete'],
  area: 'interfaces',
  failure: 'Could not delete the interface',
  summary: 'Delete an EtherChannel, VLAN or subinterface of an ASA',
  params: [DEVICE, INTERFACE],
  args: z.object({ device: text(), interface: text() }),
  role: 'operator',
  approval: 'always',
  scc: [
    ...Object.values(DELETE_ONE),
    // With approvals.deploy_with_change: what else is pending, and the deploy.
    'calculateAsaCommandsToApplyPendingChanges',
    'getTransaction',
    'getAsaCommandsToApplyPendingChanges',
    'deployChangesToMultipleAsaDevices',
    // The SCC change request named like the ticket, found or opened before that deploy (tickets.ts).
    'getTenantSettings',
    'getChangeRequests',
    'createChangeRequest',
    // What is staged on the device after the deletion (stagedDiff.ts).
    STAGED_READ,
  ],
  examples: ['interfaces delete asa-hq-01 Vlan20'],
  changes: { devices: async (_ctx, _args, facts) => (facts ? [facts.device] : []) },
  target: {
    facts: DeletionFacts,
    resolve: async (ctx, args) => {
      const device = await resolveDevice(ctx.scc, args.device, ASA_ONLY);
      const all = await listDeviceInterfaces(ctx.scc, device.uid);
      const found = await resolveInterface(ctx.scc, device, args.interface, all);
      checkDeletable(found);
      const facts = interfaceFacts({ uid: device.uid, name: device.name }, found, all);
      return {
        facts: { ...facts, deploy: await deployPlan(ctx, device.uid) },
        raw: { device: device.uid, interface: found.uid },
      };
    },
    reread: async (ctx, before) => {
      const read = await rereadInterface(ctx.scc, before);
      if (!read.found) return read;
      // Deployed with it only while nothing else is pending on the device; otherwise the change is told.
      const deploy =
        before.deploy === 'with-change' ? await deployPlan(ctx, before.device.uid) : before.deploy;
      return { found: true, facts: { ...read.facts, deploy } };
    },
    compare: (before, after) => [
      ...compareInterfaces(before, after),
      ...(before.deploy === 'with-change' && after.deploy !== 'with-change'
        ? [
            `other changes were staged on ${after.device.name} since the request, so it would no longer deploy only this deletion`,
          ]
        : []),
    ],
    describe: (facts) => {
      const base = describeDeletion(facts);
      const device = code(facts.device.name);
      if (facts.deploy === 'with-change')
        return {
          ...base,
          action: `${base.action} and deploy it to the device`,
          warnings: [
            ...base.warnings,
            `:rocket: Nothing else is pending on ${device}: once approved, the deletion is deployed to the device right away.`,
          ],
        };
      if (facts.deploy === 'separately')
        return {
          ...base,
          warnings: [
            ...base.warnings,
            `Other changes are pending on ${device}, so this approval only stages the deletion: ${code(`/fw deploy ${facts.device.name}`)} shows and deploys all of them.`,
          ],
        };
      return base;
    },
    removes: true,
  },
  run: async (ctx, _args, facts) => {
    if (facts.kind === 'physical' || facts.kind === 'vti') throw new Error(`${facts.kind} cannot be deleted`);
    await ctx.scc.call(DELETE_ONE[facts.kind], {
      path: { deviceUid: facts.device.uid, interfaceUid: facts.uid },
    });
    if (facts.deploy !== 'with-change') return { facts, staged: await readStaged(ctx, facts.device.uid) };
    await changeRequestFor(ctx, `delete ${factsLabel(facts)}`);
    const description = ticketedDescription(ctx.ticket, `fwbot: delete ${factsLabel(facts)}`);
    const { data } = await ctx.scc.call('deployChangesToMultipleAsaDevices', {
      body: { deviceUids: [facts.device.uid], description },
    });
    return { facts, deployment: data };
  },
  track: ({ facts, deployment, staged }, _args, now) =>
    deployment?.transactionUid
      ? [
          {
            kind: 'deployment',
            transactionUid: deployment.transactionUid,
            label: `deploy to ${facts.device.name}`,
          },
        ]
      : stagedTrack(
          facts.device,
          `deletion of ${factsLabel(facts)} on ${facts.device.name}`,
          now,
          staged !== undefined,
        ),
  // Deployed with it, it is on the device already: nothing is left staged to attribute.
  stages: ({ facts, deployment }) =>
    deployment || !facts.hardwareName
      ? undefined
      : {
          deviceUid: facts.device.uid,
          interfaceName: facts.hardwareName,
          nameifs: facts.name ? [facts.name] : [],
          what: `deleted ${INTERFACE_KIND_NAMES[facts.kind]} ${factsLabel(facts)}`,
        },
  render: ({ facts, deployment, staged }, _args, meta) =>
    renderInterfaceDeleted(facts, meta, deployment, staged),
});

/** Reading and deleting ASA interfaces: this area's operations, in the order help and the command table list them (index.ts). */
export const INTERFACE_OPERATIONS: readonly Operation[] = [interfacesList, interfacesShow, interfacesDelete];
