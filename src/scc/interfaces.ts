// Interfaces of an appliance (ASA), by kind. Each kind offers only what the reference has for it: physical
// interfaces are listed, read and modified but never created or removed; virtual tunnel interfaces are
// read-only; subinterfaces are also listed per parent interface.
import type { CallOptions, SccCaller, SearchQuery } from './call.js';
import type * as Input from './generated/inputs.js';
import type * as Model from './generated/models.js';

type Page = Model.AsaInterfacePage;
type Iface = Model.AsaInterface;

interface Readable {
  list(deviceUid: string, query?: SearchQuery, options?: CallOptions): Promise<Page>;
  get(deviceUid: string, interfaceUid: string, options?: CallOptions): Promise<Iface>;
}

interface Modifiable<Patch> {
  modify(deviceUid: string, interfaceUid: string, patch: Patch, options?: CallOptions): Promise<Iface>;
}

interface Removable {
  remove(deviceUid: string, interfaceUid: string, options?: CallOptions): Promise<void>;
}

export interface InterfacesArea {
  physical: Readable & Modifiable<Input.PhysicalInterfacePatchInput>;
  etherChannel: Readable &
    Modifiable<Input.EtherChannelInterfacePatchInput> &
    Removable & {
      create(
        deviceUid: string,
        input: Input.EtherChannelInterfaceCreateInput,
        options?: CallOptions,
      ): Promise<Iface>;
    };
  subInterface: Readable &
    Modifiable<Input.SubInterfacePatchInput> &
    Removable & {
      /** The subinterfaces of one parent interface. */
      listByParent(
        deviceUid: string,
        parentInterfaceUid: string,
        query?: SearchQuery,
        options?: CallOptions,
      ): Promise<Page>;
      /** Subinterfaces are created under their parent interface. */
      create(
        deviceUid: string,
        parentInterfaceUid: string,
        input: Input.SubInterfaceCreateInput,
        options?: CallOptions,
      ): Promise<Iface>;
    };
  vlan: Readable &
    Modifiable<Input.VlanInterfacePatchInput> &
    Removable & {
      create(deviceUid: string, input: Input.VlanInterfaceCreateInput, options?: CallOptions): Promise<Iface>;
    };
  virtualTunnel: Readable;
}

export function createInterfacesArea({ call }: SccCaller): InterfacesArea {
  const ids = (deviceUid: string, interfaceUid: string) => ({ path: { deviceUid, interfaceUid } });
  return {
    physical: {
      list: async (deviceUid, query = {}, options = {}) =>
        (await call('getAsaPhysicalInterfaces', { path: { deviceUid }, query, ...options })).data,
      get: async (deviceUid, interfaceUid, options = {}) =>
        (await call('getAsaPhysicalInterface', { ...ids(deviceUid, interfaceUid), ...options })).data,
      modify: async (deviceUid, interfaceUid, patch, options = {}) =>
        (
          await call('modifyAsaPhysicalInterface', {
            ...ids(deviceUid, interfaceUid),
            body: patch,
            ...options,
          })
        ).data,
    },
    etherChannel: {
      list: async (deviceUid, query = {}, options = {}) =>
        (await call('getAsaEtherChannelInterfaces', { path: { deviceUid }, query, ...options })).data,
      get: async (deviceUid, interfaceUid, options = {}) =>
        (await call('getAsaEtherChannelInterface', { ...ids(deviceUid, interfaceUid), ...options })).data,
      create: async (deviceUid, input, options = {}) =>
        (await call('createAsaEtherChannelInterface', { path: { deviceUid }, body: input, ...options })).data,
      modify: async (deviceUid, interfaceUid, patch, options = {}) =>
        (
          await call('modifyAsaEtherChannelInterface', {
            ...ids(deviceUid, interfaceUid),
            body: patch,
            ...options,
          })
        ).data,
      remove: async (deviceUid, interfaceUid, options = {}) => {
        await call('deleteAsaEtherChannelInterface', { ...ids(deviceUid, interfaceUid), ...options });
      },
    },
    subInterface: {
      list: async (deviceUid, query = {}, options = {}) =>
        (await call('getAsaSubInterfaces', { path: { deviceUid }, query, ...options })).data,
      listByParent: async (deviceUid, parentInterfaceUid, query = {}, options = {}) =>
        (
          await call('getAsaInterfaceSubInterfaces', {
            ...ids(deviceUid, parentInterfaceUid),
            query,
            ...options,
          })
        ).data,
      get: async (deviceUid, interfaceUid, options = {}) =>
        (await call('getAsaSubInterface', { ...ids(deviceUid, interfaceUid), ...options })).data,
      create: async (deviceUid, parentInterfaceUid, input, options = {}) =>
        (
          await call('createAsaSubInterface', {
            ...ids(deviceUid, parentInterfaceUid),
            body: input,
            ...options,
          })
        ).data,
      modify: async (deviceUid, interfaceUid, patch, options = {}) =>
        (await call('modifyAsaSubInterface', { ...ids(deviceUid, interfaceUid), body: patch, ...options }))
          .data,
      remove: async (deviceUid, interfaceUid, options = {}) => {
        await call('deleteAsaSubInterface', { ...ids(deviceUid, interfaceUid), ...options });
      },
    },
    vlan: {
      list: async (deviceUid, query = {}, options = {}) =>
        (await call('getAsaVlanInterfaces', { path: { deviceUid }, query, ...options })).data,
      get: async (deviceUid, interfaceUid, options = {}) =>
        (await call('getAsaVlanInterface', { ...ids(deviceUid, interfaceUid), ...options })).data,
      create: async (deviceUid, input, options = {}) =>
        (await call('createAsaVlanInterface', { path: { deviceUid }, body: input, ...options })).data,
      modify: async (deviceUid, interfaceUid, patch, options = {}) =>
        (await call('modifyAsaVlanInterface', { ...ids(deviceUid, interfaceUid), body: patch, ...options }))
          .data,
      remove: async (deviceUid, interfaceUid, options = {}) => {
        await call('deleteAsaVlanInterface', { ...ids(deviceUid, interfaceUid), ...options });
      },
    },
    virtualTunnel: {
      list: async (deviceUid, query = {}, options = {}) =>
        (await call('getAsaVirtualTunnelInterfaces', { path: { deviceUid }, query, ...options })).data,
      get: async (deviceUid, interfaceUid, options = {}) =>
        (await call('getAsaVirtualTunnelInterface', { ...ids(deviceUid, interfaceUid), ...options })).data,
    },
  };
}
