// The device inventory: how device names (what people type) become UUIDs (what every other operation
// takes), and back.
import type { CallOptions, SccCaller, SearchQuery } from './call.js';
import type * as Model from './generated/models.js';

export interface DevicesArea {
  list(query?: SearchQuery, options?: CallOptions): Promise<Model.DevicePage>;
  /** Every matching device, page after page. */
  iterate(query?: Omit<SearchQuery, 'limit' | 'offset'>, options?: CallOptions): AsyncIterable<Model.Device>;
  get(deviceUid: string, options?: CallOptions): Promise<Model.Device>;
}

export function createDevicesArea({ call, paginate }: SccCaller): DevicesArea {
  return {
    list: async (query = {}, options = {}) => (await call('getDevices', { query, ...options })).data,
    iterate: (query = {}, options = {}) => paginate('getDevices', { query, ...options }),
    get: async (deviceUid, options = {}) =>
      (await call('getDevice', { path: { deviceUid }, ...options })).data,
  };
}
