// The device directory: names, kinds and UUIDs side by side (people type names; SCC speaks UUIDs), and
// the Secure Device Connectors with the devices behind each.

import type { RenderMeta } from '../model/types.js';
import type { View } from '../model/view.js';
import type { Device, Sdc } from '../scc/generated/models.js';
import { deviceKind } from '../scc/kinds.js';
import { fieldBlocks, humanEnum, time, truncate } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';
import { untrusted } from './untrusted.js';

const SHORT_KIND = { asa: 'ASA', ftd: 'FTD', fmc: 'FMC', other: '' } as const;

/** `ASA`, `FTD`, `FMC`, or SCC's own type in words for the other kinds. */
export function deviceTypeLabel(device: Pick<Device, 'deviceType'>): string {
  return SHORT_KIND[deviceKind(device)] || humanEnum(device.deviceType);
}

export function renderDeviceList(
  devices: readonly Device[],
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  return listView(
    {
      title: 'Devices',
      page,
      query,
      columns: ['Name', 'Type', 'Version', 'State', 'UUID'],
      rows: devices.map((d) => [
        d.name,
        deviceTypeLabel(d),
        d.softwareVersion,
        humanEnum(d.connectivityState),
        d.uid,
      ]),
      hint: 'Commands take a device by name or UUID, e.g. `/fw interfaces <device>`.',
      empty: 'no devices.',
    },
    meta,
  );
}

/** `devices` is the inventory (undefined: too large to read, so which devices are behind is not said). */
export function renderConnectorList(
  connectors: readonly Sdc[],
  devices: readonly Device[] | undefined,
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  const behind = (sdc: Sdc) =>
    devices === undefined
      ? '?'
      : devices
          .filter((d) => d.connectorUid === sdc.uid)
          .map((d) => d.name)
          .join(', ') || 'none';
  return listView(
    {
      title: 'Secure Device Connectors',
      page,
      query,
      columns: ['Name', 'Status', 'Last heartbeat', 'Version', 'Devices'],
      rows: connectors.map((c) => [
        c.name,
        humanEnum(c.status),
        time(c.lastHeartbeat),
        c.softwareVersion,
        behind(c),
      ]),
      hint:
        devices === undefined
          ? 'The inventory is too large to say which devices are behind each connector.'
          : 'A device behind a connector that stopped its heartbeat is unreachable too: `/fw devices connectivityState:UNREACHABLE`.',
      empty: 'no connectors.',
    },
    meta,
  );
}

/** One connector: its state and the devices behind it (`devices` undefined: the inventory is too large). */
export function renderConnector(sdc: Sdc, devices: readonly Device[] | undefined): View {
  const behind =
    devices === undefined
      ? 'not known (the inventory is too large)'
      : devices.map((d) => d.name).join(', ') || 'none';
  return {
    summary: `Secure Device Connector ${sdc.name}: ${humanEnum(sdc.status)}`,
    blocks: [
      { kind: 'header', text: `Secure Device Connector ${untrusted(truncate(sdc.name, 120))}` },
      ...fieldBlocks([
        ['Status', humanEnum(sdc.status)],
        ['Last heartbeat', time(sdc.lastHeartbeat)],
        ['Software version', sdc.softwareVersion],
        ['Address', sdc.ipAddress],
        ['Devices behind it', behind],
        ['UUID', sdc.uid],
      ]),
      {
        kind: 'context',
        text: 'A connector whose heartbeat stopped leaves every device behind it unreachable: `/fw devices connectivityState:UNREACHABLE`.',
      },
    ],
    visibility: 'ephemeral',
  };
}
