// Creating and editing ASA interfaces, from the text or from a form. Every form field is also a flag with
// the same name and rule (interfaceFields.ts), so a script or the CLI needs no form; the form opens when
// the command names only its target (ModalSpec.when `incomplete`). The create forms offer only what the
// device can take (free ports as EtherChannel members, possible parents for a subinterface); the edit form
// is fitted to the interface's kind and filled with its current values. Either way an edit sends only
// the settings that differ from the interface's current ones.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import {
  describeChanges,
  ipv4Text,
  renderInterfaceChanged,
  renderInterfaceCreated,
} from '../render/interfaces.js';
import type { AsaInterface } from '../scc/generated/models.js';
import { int, list, optionalInt, text } from './args.js';
import { DEVICE, INTERFACE, stagedTrack } from './common.js';
import {
  COMMON_FLAGS,
  commonBody,
  commonFields,
  commonSettings,
  ETHERCHANNEL_ID_RANGE,
  freePorts,
  interfaceOptions,
  LACP_FLAG,
  LACP_MODES,
  lacpMode,
  MEMBERS_FLAG,
  rawText,
  SUBINTERFACE_ID_RANGE,
  SUBINTERFACE_VLAN_RANGE,
  VLAN_INTERFACE_RANGE,
} from './interfaceFields.js';
import { ASA_ONLY, namesByUid } from './interfaces.js';
import {
  defineOperation,
  type ModalField,
  type Operation,
  type OperationContext,
  type RawArgs,
  type StagedChange,
} from './operation.js';
import {
  INTERFACE_KIND_NAMES,
  type InterfaceKind,
  interfaceLabel,
  listDeviceInterfaces,
  type ResolvedDevice,
  type ResolvedInterface,
  resolveDevice,
  resolveInterface,
} from './resolve.js';
import { readStaged, STAGED_READ, type StagedItem } from './stagedDiff.js';

const MAX_MEMBERS = 16;

/** Who created what, for a deploy's card (StagingLedger). */
function createdChange(
  device: ResolvedDevice,
  kind: InterfaceKind,
  created: AsaInterface,
): StagedChange | undefined {
  if (!created.hardwareName) return undefined;
  return {
    deviceUid: device.uid,
    interfaceName: created.hardwareName,
    nameifs: created.name ? [created.name] : [],
    what: `created ${INTERFACE_KIND_NAMES[kind]} ${interfaceLabel(created)}`,
  };
}

/** A created interface is followed until its device is deployed. */
function createdTrack<R extends { device: ResolvedDevice; created: AsaInterface; staged?: StagedItem[] }>(
  { device, created, staged }: R,
  _args: unknown,
  now: number,
) {
  return stagedTrack(device, `${interfaceLabel(created)} on ${device.name}`, now, staged !== undefined);
}
const members = () => list({ min: 1, max: MAX_MEMBERS, what: 'member interfaces' });

/** Every interface change stages on the ASA it names: a hold on that device stops it (deviceHolds.ts). */
const changesTheDevice = {
  devices: async (ctx: OperationContext, args: { device: string }) => {
    const device = await resolveDevice(ctx.scc, args.device, ASA_ONLY);
    return [{ uid: device.uid, name: device.name }];
  },
};

/** The ASA named in a form's prefilled arguments, and all its interfaces. */
async function deviceAndInterfaces(ctx: OperationContext, raw: RawArgs) {
  const device = await resolveDevice(ctx.scc, rawText(raw, 'device'), ASA_ONLY);
  return { device, all: await listDeviceInterfaces(ctx.scc, device.uid) };
}

async function resolveAll(
  ctx: OperationContext,
  device: ResolvedDevice,
  typed: readonly string[],
  all: readonly ResolvedInterface[],
) {
  return Promise.all(typed.map((t) => resolveInterface(ctx.scc, device, t, all)));
}

const lacpField = (initial: string): ModalField => ({
  name: 'lacp-mode',
  label: 'LACP mode',
  input: 'select',
  options: LACP_MODES.map((mode) => ({ label: mode.toLowerCase(), value: mode })),
  initial,
});

export const interfacesCreateEtherchannel = defineOperation({
  id: 'interfaces.create.etherchannel',
  words: ['interfaces', 'create', 'etherchannel'],
  area: 'interfaces',
  failure: 'Could not create the EtherChannel',
  summary: 'Create an EtherChannel on an ASA from free physical ports',
  params: [
    DEVICE,
    { ...MEMBERS_FLAG, optional: false },
    {
      name: 'etherchannel-id',
      kind: 'int',
      flag: true,
      optional: true,
      description: 'EtherChannel ID, 1–48 (default: the lowest free one)',
    },
    LACP_FLAG,
    ...COMMON_FLAGS,
  ],
  args: z.object({
    device: text(),
    'etherchannel-id': optionalInt(...ETHERCHANNEL_ID_RANGE),
    members: members(),
    'lacp-mode': lacpMode,
    ...commonSettings,
  }),
  role: 'operator',
  approval: 'never',
  changes: changesTheDevice,
  scc: ['createAsaEtherChannelInterface', STAGED_READ],
  examples: [
    'interfaces create etherchannel asa-hq-01',
    'interfaces create etherchannel asa-hq-01 --members GigabitEthernet1/6,GigabitEthernet1/7 --lacp-mode active --name uplink --ipv4 10.40.0.1/24',
  ],
  modal: {
    title: 'New EtherChannel',
    submit: 'Create',
    when: 'incomplete',
    fields: async (ctx, prefilled) => {
      const { device, all } = await deviceAndInterfaces(ctx, prefilled);
      return [
        {
          // Only this ASA's free ports, few and device-local (see interfaceOptions): a static list.
          name: 'members',
          label: 'Member interfaces',
          input: 'multi_select',
          options: interfaceOptions(freePorts(all)),
          none: `${device.name} has no free physical port for an EtherChannel (a free port is a data port with no name, in no other EtherChannel and without subinterfaces).`,
        },
        {
          name: 'etherchannel-id',
          label: 'EtherChannel ID (1–48)',
          input: 'number',
          optional: true,
          hint: 'Leave empty for the lowest free ID.',
        },
        lacpField('ACTIVE'),
        ...commonFields(),
      ];
    },
  },
  run: async (ctx, args) => {
    const device = await resolveDevice(ctx.scc, args.device, ASA_ONLY);
    const all = await listDeviceInterfaces(ctx.scc, device.uid);
    const ports = await resolveAll(ctx, device, args.members, all);
    const body = {
      ...commonBody(args),
      memberInterfaces: ports.map((p) => p.uid),
      ...(args['lacp-mode'] ? { lacpMode: args['lacp-mode'] } : {}),
      ...(args['etherchannel-id'] !== undefined ? { etherChannelId: args['etherchannel-id'] } : {}),
    };
    const { data } = await ctx.scc.call('createAsaEtherChannelInterface', {
      path: { deviceUid: device.uid },
      body,
    });
    return { device, created: data, names: namesByUid(all), staged: await readStaged(ctx, device.uid) };
  },
  track: createdTrack,
  stages: ({ device, created }) => createdChange(device, 'etherchannel', created),
  render: ({ device, created, names, staged }, _args, meta) =>
    renderInterfaceCreated(device, 'etherchannel', created, names, meta, staged),
});

const canParent = (i: ResolvedInterface) =>
  (i.kind === 'physical' && !i.iface.managementInterface && !i.iface.etherChannelGroupUid) ||
  i.kind === 'etherchannel';

export const interfacesCreateSubinterface = defineOperation({
  id: 'interfaces.create.subinterface',
  words: ['interfaces', 'create', 'subinterface'],
  area: 'interfaces',
  failure: 'Could not create the subinterface',
  summary: 'Create a subinterface (a VLAN on a physical port or EtherChannel) on an ASA',
  params: [
    DEVICE,
    {
      name: 'parent',
      kind: 'interface',
      optional: true,
      description: 'the physical or EtherChannel interface it is on',
    },
    {
      name: 'subinterface-id',
      kind: 'int',
      flag: true,
      description: 'the number after the dot (Gi1/2.100), 1–4294967295',
    },
    {
      name: 'vlan',
      kind: 'int',
      flag: true,
      optional: true,
      description: 'the VLAN ID it tags, 1–4094',
    },
    ...COMMON_FLAGS,
  ],
  args: z.object({
    device: text(),
    parent: text(),
    'subinterface-id': int(...SUBINTERFACE_ID_RANGE),
    vlan: optionalInt(...SUBINTERFACE_VLAN_RANGE),
    ...commonSettings,
  }),
  role: 'operator',
  approval: 'never',
  changes: changesTheDevice,
  scc: ['createAsaSubInterface', STAGED_READ],
  examples: [
    'interfaces create subinterface asa-hq-01',
    'interfaces create subinterface asa-hq-01 inside',
    'interfaces create subinterface asa-hq-01 inside --subinterface-id 100 --vlan 100 --name dmz --ipv4 10.100.0.1/24',
  ],
  modal: {
    title: 'New subinterface',
    submit: 'Create',
    when: 'incomplete',
    fields: async (ctx, prefilled) => {
      const { device, all } = await deviceAndInterfaces(ctx, prefilled);
      const typed = rawText(prefilled, 'parent');
      const chosen = typed ? await resolveInterface(ctx.scc, device, typed, all) : undefined;
      return [
        {
          // A static list of this ASA's ports (few, device-local; see interfaceOptions), not a search.
          name: 'parent',
          label: 'Parent interface',
          input: 'select',
          options: interfaceOptions(all.filter(canParent)),
          none: `${device.name} has no interface that can carry a subinterface: no data port outside an EtherChannel, and no EtherChannel.`,
          initial: chosen?.uid,
        },
        {
          name: 'subinterface-id',
          label: 'Subinterface ID',
          input: 'number',
          hint: 'The number after the dot: Gi1/2.100',
        },
        { name: 'vlan', label: 'VLAN ID (1–4094)', input: 'number', optional: true },
        ...commonFields(),
      ];
    },
  },
  run: async (ctx, args) => {
    const device = await resolveDevice(ctx.scc, args.device, ASA_ONLY);
    const all = await listDeviceInterfaces(ctx.scc, device.uid);
    const parent = await resolveInterface(ctx.scc, device, args.parent, all);
    if (parent.kind !== 'physical' && parent.kind !== 'etherchannel') {
      throw new UserError(
        `${parent.label} is a ${INTERFACE_KIND_NAMES[parent.kind]}; a subinterface goes on a physical or EtherChannel interface.`,
      );
    }
    const body = {
      ...commonBody(args),
      subInterfaceId: args['subinterface-id'],
      ...(args.vlan !== undefined ? { vlanPrimaryId: args.vlan } : {}),
    };
    const path = { deviceUid: device.uid, interfaceUid: parent.uid };
    const { data } = await ctx.scc.call('createAsaSubInterface', { path, body });
    return { device, created: data, names: namesByUid(all), staged: await readStaged(ctx, device.uid) };
  },
  track: createdTrack,
  stages: ({ device, created }) => createdChange(device, 'subinterface', created),
  render: ({ device, created, names, staged }, _args, meta) =>
    renderInterfaceCreated(device, 'subinterface', created, names, meta, staged),
});

export const interfacesCreateVlan = defineOperation({
  id: 'interfaces.create.vlan',
  words: ['interfaces', 'create', 'vlan'],
  area: 'interfaces',
  failure: 'Could not create the VLAN interface',
  summary: 'Create a VLAN interface on an ASA',
  params: [
    DEVICE,
    { name: 'vlan-id', kind: 'int', flag: true, description: 'the VLAN ID, 1–4070' },
    ...COMMON_FLAGS,
  ],
  args: z.object({ device: text(), 'vlan-id': int(...VLAN_INTERFACE_RANGE), ...commonSettings }),
  role: 'operator',
  approval: 'never',
  changes: changesTheDevice,
  scc: ['createAsaVlanInterface', STAGED_READ],
  examples: [
    'interfaces create vlan asa-branch-02',
    'interfaces create vlan asa-hq-01 --vlan-id 30 --name guest --ipv4 10.30.0.1/24 --security-level 20',
  ],
  modal: {
    title: 'New VLAN interface',
    submit: 'Create',
    when: 'incomplete',
    fields: async (ctx, prefilled) => {
      await deviceAndInterfaces(ctx, prefilled);
      return [{ name: 'vlan-id', label: 'VLAN ID (1–4070)', input: 'number' }, ...commonFields()];
    },
  },
  run: async (ctx, args) => {
    const device = await resolveDevice(ctx.scc, args.device, ASA_ONLY);
    const body = { ...commonBody(args), vlanId: args['vlan-id'] };
    const { data } = await ctx.scc.call('createAsaVlanInterface', { path: { deviceUid: device.uid }, body });
    const staged = await readStaged(ctx, device.uid);
    return { device, created: data, names: new Map<string, string>(), staged };
  },
  track: createdTrack,
  stages: ({ device, created }) => createdChange(device, 'vlan', created),
  render: ({ device, created, names, staged }, _args, meta) =>
    renderInterfaceCreated(device, 'vlan', created, names, meta, staged),
});

const MODIFY = {
  physical: 'modifyAsaPhysicalInterface',
  etherchannel: 'modifyAsaEtherChannelInterface',
  subinterface: 'modifyAsaSubInterface',
  vlan: 'modifyAsaVlanInterface',
} as const;

/** The interface to edit; virtual tunnel interfaces are read-only in SCC. */
async function editable(ctx: OperationContext, typedDevice: string, typedInterface: string) {
  const device = await resolveDevice(ctx.scc, typedDevice, ASA_ONLY);
  const all = await listDeviceInterfaces(ctx.scc, device.uid);
  const found = await resolveInterface(ctx.scc, device, typedInterface, all);
  if (found.kind === 'vti')
    throw new UserError(`${found.label} is a virtual tunnel interface; SCC does not change those.`);
  return { device, all, found, kind: found.kind };
}

/** The settings an edit may change: one at least must be given (from the text; the form gives them all). */
const EDIT_SETTINGS = [
  'name',
  'ipv4',
  'security-level',
  'mtu',
  'description',
  'enabled',
  'lacp-mode',
  'members',
] as const;

/**
 * Only what differs from the current interface, so an untouched form field changes nothing; from the text,
 * settings not given are not in `body` at all, so they stay as they are.
 */
function changedOnly(current: AsaInterface, body: Record<string, unknown>): Record<string, unknown> {
  const same = (key: string, value: unknown): boolean => {
    if (key === 'ipv4') return ipv4Text(value as AsaInterface['ipv4']) === ipv4Text(current.ipv4);
    if (key === 'memberInterfaces' && Array.isArray(value)) {
      return [...value].sort().join() === [...(current.memberInterfaces ?? [])].sort().join();
    }
    return (current as Record<string, unknown>)[key] === value;
  };
  return Object.fromEntries(Object.entries(body).filter(([key, value]) => !same(key, value)));
}

export const interfacesEdit = defineOperation({
  id: 'interfaces.edit',
  words: ['interfaces', 'edit'],
  area: 'interfaces',
  failure: 'Could not change the interface',
  summary: 'Change an interface of an ASA (the form fits its kind)',
  params: [DEVICE, INTERFACE, ...COMMON_FLAGS, LACP_FLAG, MEMBERS_FLAG],
  args: z
    .object({
      device: text(),
      interface: text(),
      ...commonSettings,
      'lacp-mode': lacpMode,
      members: members().optional(),
    })
    .refine((args) => EDIT_SETTINGS.some((name) => args[name] !== undefined), {
      message: `give at least one setting to change: ${EDIT_SETTINGS.map((name) => `--${name}`).join(', ')}.`,
    }),
  role: 'operator',
  approval: 'never',
  changes: changesTheDevice,
  scc: [...Object.values(MODIFY), STAGED_READ],
  examples: [
    'interfaces edit asa-hq-01 inside',
    'interfaces edit asa-hq-01 inside --mtu 9000',
    'interfaces edit asa-hq-01 Port-channel1 --lacp-mode passive',
  ],
  modal: {
    title: 'Edit interface',
    submit: 'Save',
    when: 'incomplete',
    fields: async (ctx, prefilled) => {
      const { all, found } = await editable(
        ctx,
        rawText(prefilled, 'device'),
        rawText(prefilled, 'interface'),
      );
      const fields = commonFields(found.iface);
      if (found.kind !== 'etherchannel') return fields;
      return [
        ...fields,
        lacpField(found.iface.lacpMode ?? 'ACTIVE'),
        {
          name: 'members',
          label: 'Member interfaces',
          input: 'multi_select',
          options: interfaceOptions(freePorts(all, found.uid)),
          none: `${found.label} has no member port and the ASA no free one to give it, so this form cannot be filled; change its other settings with the command's flags (\`/fw interfaces edit <device> <interface> --mtu …\`).`,
          initial: found.iface.memberInterfaces ?? [],
        },
      ];
    },
  },
  run: async (ctx, args) => {
    const { device, all, found, kind } = await editable(ctx, args.device, args.interface);
    // The form shows these only for an EtherChannel; typed for another kind, they are a mistake to say.
    const channelOnly = (['lacp-mode', 'members'] as const).filter((name) => args[name] !== undefined);
    if (kind !== 'etherchannel' && channelOnly.length > 0) {
      throw new UserError(
        `${channelOnly.map((name) => `--${name}`).join(' and ')} apply to EtherChannels only; ${found.label} is a ${INTERFACE_KIND_NAMES[kind]}.`,
      );
    }
    const ports =
      args.members && kind === 'etherchannel' ? await resolveAll(ctx, device, args.members, all) : undefined;
    const wanted = {
      ...commonBody(args),
      ...(kind === 'etherchannel' && args['lacp-mode'] ? { lacpMode: args['lacp-mode'] } : {}),
      ...(ports ? { memberInterfaces: ports.map((p) => p.uid) } : {}),
    };
    const body = changedOnly(found.iface, wanted);
    if (Object.keys(body).length === 0) {
      throw new UserError(`Nothing to change: ${found.label} already has these settings.`);
    }
    const path = { deviceUid: device.uid, interfaceUid: found.uid };
    const { data } = await ctx.scc.call(MODIFY[kind], { path, body });
    const staged = await readStaged(ctx, device.uid);
    return { device, kind, found, after: data, names: namesByUid(all), staged };
  },
  track: ({ device, found, staged }, _args, now) =>
    stagedTrack(device, `${found.label} on ${device.name}`, now, staged !== undefined),
  stages: ({ device, kind, found, after, names }) => {
    if (!found.iface.hardwareName) return undefined;
    const lookup = (uid: string | null | undefined) => (uid ? (names.get(uid) ?? uid) : '—');
    const changes = describeChanges(found.iface, after, kind, lookup);
    return {
      deviceUid: device.uid,
      interfaceName: found.iface.hardwareName,
      nameifs: [found.iface.name, after.name].filter((name): name is string => Boolean(name)),
      what: `changed ${INTERFACE_KIND_NAMES[kind]} ${found.label}${changes.length ? ` (${changes.join('; ')})` : ''}`,
    };
  },
  render: ({ device, kind, found, after, names, staged }, _args, meta) => {
    const lookup = (uid: string | null | undefined) => (uid ? (names.get(uid) ?? uid) : '—');
    return renderInterfaceChanged(
      device,
      kind,
      found.label,
      describeChanges(found.iface, after, kind, lookup),
      meta,
      staged,
    );
  },
});

/** Creating and changing ASA interfaces: this area's operations, in the order help and the command table list them (index.ts). */
export const INTERFACE_CHANGE_OPERATIONS: readonly Operation[] = [
  interfacesCreateEtherchannel,
  interfacesCreateSubinterface,
  interfacesCreateVlan,
  interfacesEdit,
];
