// The device directory: `/fw devices [query]`, names and UUIDs side by side, and `/fw connectors`, the
// Secure Device Connectors those devices are reached through.
import { z } from 'zod';
import { renderConnectorList, renderDeviceList } from '../render/devices.js';
import { pageInfo } from '../render/list.js';
import { PagingBudgetExceeded } from '../scc/call.js';
import type { Device } from '../scc/generated/models.js';
import { listArgs, OFFSET, pageQuery, queryParam } from './common.js';
import { defineOperation, type Operation } from './operation.js';
import { LOOKUP_BUDGET, type SccReader } from './resolve.js';

export const devicesList = defineOperation({
  id: 'devices',
  words: ['devices'],
  area: 'devices',
  failure: 'Could not list the devices',
  summary: 'List the devices of the inventory, with their UUIDs',
  params: [queryParam('device'), OFFSET],
  args: z.object(listArgs),
  role: 'viewer',
  approval: 'never',
  // getDevices came into the reference to turn device names into UUIDs; listing the directory is what makes
  // names usable to people.
  scc: ['getDevices'],
  examples: ['devices', 'devices asa', 'devices deviceType:ASA AND connectivityState:ONLINE'],
  run: async (ctx, args) =>
    (await ctx.scc.call('getDevices', { query: { ...pageQuery(args), sort: ['name:ASC'] } })).data,
  render: (data, args, meta) =>
    renderDeviceList(data.items ?? [], pageInfo(data, pageQuery(args)), args.query, meta),
});

/** Every device of the inventory, or undefined past LOOKUP_BUDGET (the list then says it cannot tell). */
export async function inventory(scc: SccReader): Promise<Device[] | undefined> {
  const devices: Device[] = [];
  try {
    const pages = scc.paginate('getDevices', { query: { sort: ['name:ASC'] } }, { budget: LOOKUP_BUDGET });
    for await (const device of pages) devices.push(device);
  } catch (error) {
    if (error instanceof PagingBudgetExceeded) return undefined;
    throw error;
  }
  return devices;
}

export const connectorsList = defineOperation({
  id: 'connectors',
  words: ['connectors'],
  area: 'devices',
  failure: 'Could not list the Secure Device Connectors',
  summary: 'List the Secure Device Connectors, their last heartbeat and the devices behind each',
  params: [queryParam('connector'), OFFSET],
  args: z.object(listArgs),
  role: 'viewer',
  approval: 'never',
  // A device SCC reaches through an on-premises connector is unreachable while that connector is: when a
  // device goes offline, its connector's heartbeat is the first thing to look at.
  scc: ['getSdcs', 'getDevices'],
  examples: ['connectors', 'connectors status:INACTIVE'],
  run: async (ctx, args) => {
    const { data } = await ctx.scc.call('getSdcs', { query: { ...pageQuery(args), sort: ['name:ASC'] } });
    return { data, devices: (data.items ?? []).length > 0 ? await inventory(ctx.scc) : [] };
  },
  render: ({ data, devices }, args, meta) =>
    renderConnectorList(data.items ?? [], devices, pageInfo(data, pageQuery(args)), args.query, meta),
});

/** Devices: this area's operations, in the order help and the command table list them (index.ts). */
export const DEVICE_OPERATIONS: readonly Operation[] = [devicesList, connectorsList];
