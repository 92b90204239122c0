// The device directory: `/fw devices [query]`, names and UUIDs side by side.
import { z } from 'zod';
import { renderDeviceList } from '../render/devices.js';
import { pageInfo } from '../render/list.js';
import { listArgs, OFFSET, pageQuery, queryParam } from './common.js';
import { defineOperation, type Operation } from './operation.js';

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

/** Devices: this area's operations, in the order help and the command table list them (index.ts). */
export const DEVICE_OPERATIONS: readonly Operation[] = [devicesList];
