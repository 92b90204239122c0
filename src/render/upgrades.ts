// Firewall software upgrades as people read them: the versions each device can move to, one table per
// hardware model (what a device can run depends on its model), with the tenant of each device when the
// read spans an MSP portal's tenants.
import type { View, ViewBlock } from '../model/view.js';
import { counted, table } from './format.js';
import { untrusted } from './untrusted.js';

export interface UpgradeVersionsRow {
  name: string;
  kind: 'ASA' | 'FTD';
  model: string;
  running: string;
  /** Newest first, as SCC lists them; `7.4.2 (suggested)` where SCC suggests one. */
  versions: readonly string[];
  tenant?: string;
}

/** How many versions a cell lists before it says how many more there are. */
const MAX_VERSIONS_SHOWN = 6;
/** Wide enough for that many versions (`7.4.2.1 (suggested)` is the longest kind). */
const VERSIONS_WIDTH = 140;

function versionsCell(versions: readonly string[]): string {
  if (versions.length === 0) return 'none newer';
  const shown = versions.slice(0, MAX_VERSIONS_SHOWN).join(', ');
  return versions.length > MAX_VERSIONS_SHOWN
    ? `${shown} and ${versions.length - MAX_VERSIONS_SHOWN} older`
    : shown;
}

export function renderUpgradeVersions(rows: readonly UpgradeVersionsRow[], acrossTenants: boolean): View {
  const models = [...new Set(rows.map((r) => r.model))].sort();
  const withTenant = acrossTenants && rows.some((r) => r.tenant !== undefined);
  const tenants = new Set(rows.flatMap((r) => (r.tenant === undefined ? [] : [r.tenant])));
  const where = withTenant ? ` in ${counted(tenants.size, 'tenant')}` : '';
  const blocks: ViewBlock[] = [
    {
      kind: 'text',
      text: `*Software versions ${counted(rows.length, 'device')}${where} can move to*, by hardware model`,
    },
  ];
  for (const model of models) {
    const group = rows
      .filter((r) => r.model === model)
      .sort((a, b) => (a.tenant ?? '').localeCompare(b.tenant ?? '') || a.name.localeCompare(b.name));
    const common = group.reduce<string[]>(
      (shared, r, i) => (i === 0 ? [...r.versions] : shared.filter((v) => r.versions.includes(v))),
      [],
    );
    const kind = [...new Set(group.map((r) => r.kind))].join('/');
    const every =
      group.length > 1
        ? common.length > 0
          ? ` — every one can move to ${untrusted(common.join(', '))}`
          : ' — no version fits every one'
        : '';
    blocks.push({
      kind: 'text',
      text: `*${untrusted(model)}* (${kind}, ${counted(group.length, 'device')})${every}`,
    });
    blocks.push(
      table(
        withTenant ? ['Device', 'Tenant', 'Running', 'Can move to'] : ['Device', 'Running', 'Can move to'],
        group.map((r) =>
          withTenant
            ? [r.name, r.tenant ?? '(the portal)', r.running, versionsCell(r.versions)]
            : [r.name, r.running, versionsCell(r.versions)],
        ),
        withTenant
          ? [undefined, undefined, undefined, VERSIONS_WIDTH]
          : [undefined, undefined, VERSIONS_WIDTH],
      ),
    );
  }
  blocks.push({
    kind: 'context',
    text: 'What a device can run depends on its model and the version it runs now; SCC lists only newer versions it can download.',
  });
  return {
    summary: `Software versions for ${rows.map((r) => r.name).join(', ')}`,
    blocks,
    visibility: 'ephemeral',
  };
}
