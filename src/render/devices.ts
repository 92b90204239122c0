// The device directory: names, kinds and UUIDs side by side (people type names; SCC speaks UUIDs).

import type { RenderMeta } from '../model/types.js';
import type { View } from '../model/view.js';
import type { Device } from '../scc/generated/models.js';
import { deviceKind } from '../scc/kinds.js';
import { humanEnum } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';

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
