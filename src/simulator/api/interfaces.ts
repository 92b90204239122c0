// ASA interface operations: read every kind, create / modify / delete EtherChannels, subinterfaces and
// VLAN interfaces, modify physical interfaces (never create or delete them), and only read virtual
// tunnel interfaces. Every change runs the ASA's checks in interfaceRules.ts first, and is staged: it edits
// SCC's copy of the configuration, which reads answer, and reaches the device only on deploy. Each one is
// an event of the device's change log, by the token's user.

import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { requireWrite } from '../auth.js';
import { type ErrorDetails, invalidInput, notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { describe, requireBody, uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { cloudSnapshot, recordStaged } from '../state/asaConfig.js';
import type { DeviceRecord, InterfaceKind, InterfaceRecord } from '../state/model.js';
import { deviceOfKind } from './devices.js';
import {
  checkCommon,
  checkEtherChannelId,
  checkMembers,
  checkSubInterface,
  checkVlanId,
  checkVlanMembers,
  freeEtherChannelId,
  parentProblem,
} from './interfaceRules.js';

const interfaceFields: FieldTable<Model.AsaInterface> = {
  uid: { kind: 'string', get: (i) => i.uid },
  name: { kind: 'string', get: (i) => i.name },
  hardwareName: { kind: 'string', get: (i) => i.hardwareName },
  description: { kind: 'string', get: (i) => i.description },
  interfaceType: { kind: 'string', get: (i) => i.interfaceType },
  enabled: { kind: 'boolean', get: (i) => i.enabled },
  managementOnly: { kind: 'boolean', get: (i) => i.managementOnly },
  mode: { kind: 'string', get: (i) => i.mode },
  mtu: { kind: 'number', get: (i) => i.mtu },
  securityLevel: { kind: 'number', get: (i) => i.securityLevel },
  ipAddress: { kind: 'string', get: (i) => i.ipv4?.ipAddress?.ipAddress },
  macAddress: { kind: 'string', get: (i) => i.macAddress },
  etherChannelId: { kind: 'number', get: (i) => i.etherChannelId },
  subInterfaceId: { kind: 'number', get: (i) => i.subInterfaceId },
  vlanId: { kind: 'number', get: (i) => i.vlanId },
  vlanPrimaryId: { kind: 'number', get: (i) => i.vlanPrimaryId },
  parentInterfaceUid: { kind: 'string', get: (i) => i.parentInterfaceUid },
};

const dto = (record: InterfaceRecord): Model.AsaInterface => structuredClone(record);

function interfacesOf(ctx: RequestContext, device: DeviceRecord): InterfaceRecord[] {
  return [...ctx.state.interfaces.values()].filter((i) => i.deviceUid === device.device.uid);
}

function interfaceOf(ctx: RequestContext, device: DeviceRecord, kind: InterfaceKind): InterfaceRecord {
  const uid = uuidParam(ctx, 'interfaceUid');
  const record = ctx.state.interfaces.get(uid);
  if (record === undefined || record.deviceUid !== device.device.uid || record.interfaceType !== kind) {
    throw notFound(
      `Interface ${uid} is not a ${kind.toLowerCase().replaceAll('_', ' ')} of device ${device.device.name}`,
      {
        interfaceUid: { value: uid },
      },
    );
  }
  return record;
}

function fail(details: ErrorDetails): void {
  if (Object.keys(details).length > 0)
    throw invalidInput(`Interface rejected by the device: ${describe(details)}`, details);
}

/**
 * Every change lands in SCC's copy only (staged): the device's running configuration changes on deploy,
 * and the device is NOT_SYNCED meanwhile. `before` is SCC's copy before the change, for the change log.
 */
function staged(
  ctx: RequestContext,
  device: DeviceRecord,
  before: InterfaceRecord[],
  status: 200 | 201,
  record: InterfaceRecord,
) {
  const verb = status === 201 ? 'Created' : 'Modified';
  recordStaged(ctx.state, device, before, {
    action: status === 201 ? 'CREATE' : 'UPDATE',
    username: ctx.principal.username,
    at: ctx.now,
    description: `${verb} interface ${label(record)} on ${device.device.name}`,
  });
  return { status, body: dto(record) };
}

/** `Port-channel7 (backup)`: the hardware name, with the interface's name when it has one. */
const label = (record: InterfaceRecord) =>
  typeof record.name === 'string' && record.name !== ''
    ? `${record.hardwareName} (${record.name})`
    : record.hardwareName;

/** Copies the fields a body sets onto a record; `undefined` leaves a field alone. */
function apply(record: InterfaceRecord, fields: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined) (record as Record<string, unknown>)[key] = value;
}

/** ASA defaults: an interface named `inside` gets security level 100, any other name 0. */
const defaultSecurityLevel = (name: string | undefined) =>
  name === undefined ? undefined : name === 'inside' ? 100 : 0;

function list(kind: InterfaceKind): Handler {
  return (ctx) => {
    const device = deviceOfKind(ctx, 'ASA');
    const items = interfacesOf(ctx, device)
      .filter((i) => i.interfaceType === kind)
      .map(dto);
    return {
      status: 200,
      body: listPage(ctx.query, items, { fields: interfaceFields, search: true, sort: true }),
    };
  };
}

function read(kind: InterfaceKind): Handler {
  return (ctx) => ({ status: 200, body: dto(interfaceOf(ctx, deviceOfKind(ctx, 'ASA'), kind)) });
}

function remove(
  kind: InterfaceKind,
  before?: (ctx: RequestContext, record: InterfaceRecord, all: InterfaceRecord[]) => void,
): Handler {
  return (ctx) => {
    requireWrite(ctx.principal);
    const device = deviceOfKind(ctx, 'ASA');
    const record = interfaceOf(ctx, device, kind);
    const snapshot = cloudSnapshot(ctx.state, device.device.uid);
    before?.(ctx, record, interfacesOf(ctx, device));
    ctx.state.interfaces.delete(record.uid);
    recordStaged(ctx.state, device, snapshot, {
      action: 'DELETE',
      username: ctx.principal.username,
      at: ctx.now,
      description: `Deleted interface ${label(record)} on ${device.device.name}`,
    });
    return { status: 204 };
  };
}

const createEtherChannel: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const device = deviceOfKind(ctx, 'ASA');
  const before = cloudSnapshot(ctx.state, device.device.uid);
  const input = requireBody(ctx, Input.EtherChannelInterfaceCreateInput);
  const all = interfacesOf(ctx, device);
  const details: ErrorDetails = {};
  const id = input.etherChannelId ?? freeEtherChannelId(all);
  checkEtherChannelId(details, all, id);
  checkMembers(details, all, input.memberInterfaces ?? []);
  checkCommon(details, all, input);
  fail(details);
  const record: InterfaceRecord = {
    uid: ctx.state.rng.uuid(),
    deviceUid: device.device.uid,
    interfaceType: 'ETHER_CHANNEL_INTERFACE',
    hardwareName: `Port-channel${id}`,
    etherChannelId: id,
    lacpMode: 'ACTIVE',
    enabled: true,
    mtu: 1500,
    mode: 'ROUTED',
    managementOnly: false,
    managementInterface: false,
    monitorInterface: true,
    macAddress: ctx.state.rng.macAddress(),
  };
  apply(record, {
    ...input,
    securityLevel: input.securityLevel ?? defaultSecurityLevel(input.name),
    etherChannelId: id,
  });
  for (const uid of record.memberInterfaces ?? []) {
    const port = ctx.state.interfaces.get(uid);
    if (port !== undefined) port.etherChannelGroupUid = record.uid;
  }
  ctx.state.interfaces.set(record.uid, record);
  return staged(ctx, device, before, 201, record);
};

const modifyEtherChannel: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const device = deviceOfKind(ctx, 'ASA');
  const before = cloudSnapshot(ctx.state, device.device.uid);
  const record = interfaceOf(ctx, device, 'ETHER_CHANNEL_INTERFACE');
  const input = requireBody(ctx, Input.EtherChannelInterfacePatchInput);
  const all = interfacesOf(ctx, device);
  const details: ErrorDetails = {};
  if (input.memberInterfaces !== undefined) checkMembers(details, all, input.memberInterfaces, record);
  checkCommon(details, all, input, record);
  fail(details);
  if (input.memberInterfaces !== undefined) {
    // Ports leaving the channel are freed; ports joining it are taken.
    for (const uid of record.memberInterfaces ?? []) {
      const port = ctx.state.interfaces.get(uid);
      if (port !== undefined) delete port.etherChannelGroupUid;
    }
    for (const uid of input.memberInterfaces) {
      const port = ctx.state.interfaces.get(uid);
      if (port !== undefined) port.etherChannelGroupUid = record.uid;
    }
  }
  apply(record, input);
  return staged(ctx, device, before, 200, record);
};

const deleteEtherChannel = remove('ETHER_CHANNEL_INTERFACE', (ctx, record, all) => {
  const subs = all.filter((i) => i.parentInterfaceUid === record.uid);
  if (subs.length > 0) {
    throw invalidInput(`${record.hardwareName} has subinterfaces; delete them first`, {
      interfaceUid: { subinterfaces: subs.map((s) => s.hardwareName) },
    });
  }
  // Deleting an EtherChannel frees its member ports.
  for (const uid of record.memberInterfaces ?? []) {
    const port = ctx.state.interfaces.get(uid);
    if (port !== undefined) delete port.etherChannelGroupUid;
  }
});

const createSubInterface: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const device = deviceOfKind(ctx, 'ASA');
  const before = cloudSnapshot(ctx.state, device.device.uid);
  const parentUid = uuidParam(ctx, 'interfaceUid');
  const input = requireBody(ctx, Input.SubInterfaceCreateInput);
  const all = interfacesOf(ctx, device);
  const parent = all.find((i) => i.uid === parentUid);
  if (parent === undefined) {
    throw invalidInput(`Parent interface ${parentUid} does not exist on device ${device.device.name}`, {
      interfaceUid: { message: 'parent interface does not exist', value: parentUid },
    });
  }
  const details: ErrorDetails = {};
  const problem = parentProblem(parent);
  if (problem !== undefined) details.interfaceUid = { message: problem, value: parentUid };
  checkSubInterface(
    details,
    all.filter((i) => i.parentInterfaceUid === parent.uid),
    input,
  );
  checkCommon(details, all, input);
  fail(details);
  const record: InterfaceRecord = {
    uid: ctx.state.rng.uuid(),
    deviceUid: device.device.uid,
    interfaceType: 'SUB_INTERFACE',
    hardwareName: `${parent.hardwareName}.${input.subInterfaceId}`,
    parentInterfaceUid: parent.uid,
    vlanSecondaryIds: [],
    enabled: true,
    mtu: 1500,
    managementOnly: false,
    monitorInterface: true,
  };
  apply(record, { ...input, securityLevel: input.securityLevel ?? defaultSecurityLevel(input.name) });
  ctx.state.interfaces.set(record.uid, record);
  return staged(ctx, device, before, 201, record);
};

const modifySubInterface: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const device = deviceOfKind(ctx, 'ASA');
  const before = cloudSnapshot(ctx.state, device.device.uid);
  const record = interfaceOf(ctx, device, 'SUB_INTERFACE');
  const input = requireBody(ctx, Input.SubInterfacePatchInput);
  const details: ErrorDetails = {};
  checkCommon(details, interfacesOf(ctx, device), input, record);
  fail(details);
  apply(record, input);
  return staged(ctx, device, before, 200, record);
};

const listParentSubInterfaces: Handler = (ctx) => {
  const device = deviceOfKind(ctx, 'ASA');
  const parentUid = uuidParam(ctx, 'interfaceUid');
  const all = interfacesOf(ctx, device);
  if (!all.some((i) => i.uid === parentUid)) {
    throw notFound(`Interface ${parentUid} does not exist on device ${device.device.name}`, {
      interfaceUid: { value: parentUid },
    });
  }
  const items = all.filter((i) => i.parentInterfaceUid === parentUid).map(dto);
  return {
    status: 200,
    body: listPage(ctx.query, items, { fields: interfaceFields, search: true, sort: true }),
  };
};

const createVlan: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const device = deviceOfKind(ctx, 'ASA');
  const before = cloudSnapshot(ctx.state, device.device.uid);
  const input = requireBody(ctx, Input.VlanInterfaceCreateInput);
  const all = interfacesOf(ctx, device);
  const details: ErrorDetails = {};
  checkVlanId(details, all, input.vlanId);
  checkVlanMembers(details, all, input.memberInterfaces ?? []);
  checkCommon(details, all, input);
  fail(details);
  const record: InterfaceRecord = {
    uid: ctx.state.rng.uuid(),
    deviceUid: device.device.uid,
    interfaceType: 'VLAN_INTERFACE',
    hardwareName: `Vlan${input.vlanId}`,
    memberInterfaces: [],
    enabled: true,
    mtu: 1500,
    managementOnly: false,
    monitorInterface: false,
  };
  apply(record, { ...input, securityLevel: input.securityLevel ?? defaultSecurityLevel(input.name) });
  ctx.state.interfaces.set(record.uid, record);
  return staged(ctx, device, before, 201, record);
};

const modifyVlan: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const device = deviceOfKind(ctx, 'ASA');
  const before = cloudSnapshot(ctx.state, device.device.uid);
  const record = interfaceOf(ctx, device, 'VLAN_INTERFACE');
  const input = requireBody(ctx, Input.VlanInterfacePatchInput);
  const all = interfacesOf(ctx, device);
  const details: ErrorDetails = {};
  if (input.memberInterfaces !== undefined) checkVlanMembers(details, all, input.memberInterfaces);
  checkCommon(details, all, input, record);
  fail(details);
  apply(record, input);
  return staged(ctx, device, before, 200, record);
};

const modifyPhysical: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const device = deviceOfKind(ctx, 'ASA');
  const before = cloudSnapshot(ctx.state, device.device.uid);
  const record = interfaceOf(ctx, device, 'PHYSICAL_INTERFACE');
  const input = requireBody(ctx, Input.PhysicalInterfacePatchInput);
  const details: ErrorDetails = {};
  const group = record.etherChannelGroupUid;
  if (typeof group === 'string' && input.name !== undefined && input.name !== '') {
    const channel = ctx.state.interfaces.get(group);
    details.name = {
      message: `${record.hardwareName} is a member of ${channel?.hardwareName ?? 'an EtherChannel'}; name the EtherChannel instead`,
    };
  }
  checkCommon(details, interfacesOf(ctx, device), input, record);
  fail(details);
  apply(record, input);
  if (input.mtu !== undefined && record.runtimeData) record.runtimeData.mtu = input.mtu;
  return staged(ctx, device, before, 200, record);
};

export const interfaceHandlers = {
  createAsaEtherChannelInterface: createEtherChannel,
  getAsaEtherChannelInterfaces: list('ETHER_CHANNEL_INTERFACE'),
  getAsaEtherChannelInterface: read('ETHER_CHANNEL_INTERFACE'),
  modifyAsaEtherChannelInterface: modifyEtherChannel,
  deleteAsaEtherChannelInterface: deleteEtherChannel,
  createAsaSubInterface: createSubInterface,
  getAsaInterfaceSubInterfaces: listParentSubInterfaces,
  getAsaSubInterfaces: list('SUB_INTERFACE'),
  getAsaSubInterface: read('SUB_INTERFACE'),
  modifyAsaSubInterface: modifySubInterface,
  deleteAsaSubInterface: remove('SUB_INTERFACE'),
  createAsaVlanInterface: createVlan,
  getAsaVlanInterfaces: list('VLAN_INTERFACE'),
  getAsaVlanInterface: read('VLAN_INTERFACE'),
  modifyAsaVlanInterface: modifyVlan,
  deleteAsaVlanInterface: remove('VLAN_INTERFACE'),
  getAsaPhysicalInterfaces: list('PHYSICAL_INTERFACE'),
  getAsaPhysicalInterface: read('PHYSICAL_INTERFACE'),
  modifyAsaPhysicalInterface: modifyPhysical,
  getAsaVirtualTunnelInterfaces: list('VIRTUAL_TUNNEL_INTERFACE'),
  getAsaVirtualTunnelInterface: read('VIRTUAL_TUNNEL_INTERFACE'),
} satisfies Partial<OperationHandlers>;
