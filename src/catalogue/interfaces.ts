// ASA interfaces: list (all kinds or one), show one (with its subinterfaces), delete (always approved by a
// second person; its target is interfaceTarget.ts). Creates and edits, which come with forms, are in
// interfaceChanges.ts. Every command here checks the device is an ASA.
import { z } from 'zod';
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
import {
  boundedPaginate,
  type DeviceRequirement,
  INTERFACE_GET,
  INTERFACE_KINDS,
  INTERFACE_LISTS,
  listDeviceInterfaces,
  type ResolvedDevice,
  type ResolvedInterface,
  resolveDevice,
  resolveInterface,
  toResolved,
} from './resolve.js';

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

export const interfacesDelete = defineOperation({
  id: 'interfaces.delete',
  words: ['interfaces', 'delete'],
  area: 'interfaces',
  summary: 'Delete an EtherChannel, VLAN or subinterface of an ASA',
  params: [DEVICE, INTERFACE],
  args: z.object({ device: text(), interface: text() }),
  role: 'operator',
  approval: 'always',
  scc: Object.values(DELETE_ONE),
  examples: ['interfaces delete asa-hq-01 Vlan20'],
  target: {
    facts: InterfaceFacts,
    resolve: async (ctx, args) => {
      const device = await resolveDevice(ctx.scc, args.device, ASA_ONLY);
      const all = await listDeviceInterfaces(ctx.scc, device.uid);
      const found = await resolveInterface(ctx.scc, device, args.interface, all);
      checkDeletable(found);
      const facts = interfaceFacts({ uid: device.uid, name: device.name }, found, all);
      return { facts, raw: { device: device.uid, interface: found.uid } };
    },
    reread: (ctx, facts) => rereadInterface(ctx.scc, facts),
    compare: compareInterfaces,
    describe: describeDeletion,
    removes: true,
  },
  run: async (ctx, _args, facts) => {
    if (facts.kind === 'physical' || facts.kind === 'vti') throw new Error(`${facts.kind} cannot be deleted`);
    await ctx.scc.call(DELETE_ONE[facts.kind], {
      path: { deviceUid: facts.device.uid, interfaceUid: facts.uid },
    });
    return facts;
  },
  track: (facts) => stagedTrack(facts.device, `deletion of ${factsLabel(facts)} on ${facts.device.name}`),
  render: (facts, _args, meta) => renderInterfaceDeleted(facts, meta),
});

/** Reading and deleting ASA interfaces: this area's operations, in the order help and the README list them (index.ts). */
export const INTERFACE_OPERATIONS: readonly Operation[] = [interfacesList, interfacesShow, interfacesDelete];
