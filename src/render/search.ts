// The view of SCC's global search: what was found, grouped by kind (devices with the lines of their
// configuration that matched, managers and services, objects, policies, cdFMC's devices, objects and
// policies with links to it where they are https), each group counted and cut. Everything shown comes from
// SCC: it goes through untrusted() or code(), never into fwbot's own markup as it is.
import type { Button, View, ViewBlock } from '../model/view.js';
import type { CdFmcObject, Entity, GlobalSearchResult } from '../scc/generated/models.js';
import { code, counted, humanEnum, isLinkableUrl, NONE, truncate, typeLabel } from './format.js';
import { untrusted } from './untrusted.js';

/** Lines of an ASA's configuration shown per device found by a search; the rest are counted. */
export const MAX_MATCHING_LINES = 20;
/** Items listed per kind of search result; the rest are counted. */
export const MAX_SEARCH_ITEMS = 15;
/** Link buttons of cdFMC results (Slack takes 25 buttons per message, and a reader far fewer). */
const MAX_LINK_BUTTONS = 5;

function listed<T>(items: readonly T[], line: (item: T) => string): string[] {
  const shown = items.slice(0, MAX_SEARCH_ITEMS).map((item) => `• ${line(item)}`);
  if (items.length > shown.length) shown.push(`• … and ${items.length - shown.length} more`);
  return shown;
}

function entityLine(entity: Entity): string {
  const parts = [untrusted(entity.name ?? entity.uid ?? NONE)];
  if (entity.type) parts.push(typeLabel(entity.type));
  if (entity.address) parts.push(untrusted(entity.address));
  if (entity.uid) parts.push(code(entity.uid));
  return parts.join(' · ');
}

/** Object results are open records: their name, type and UUID where they have them. */
function objectLine(object: Record<string, unknown>): string {
  const text = (key: string) => (typeof object[key] === 'string' ? (object[key] as string) : undefined);
  const parts = [untrusted(text('name') ?? text('uid') ?? NONE)];
  const type = text('objectType') ?? text('type');
  if (type) parts.push(humanEnum(type));
  const uid = text('uid');
  if (uid) parts.push(code(uid));
  return parts.join(' · ');
}

function cdFmcLine(item: CdFmcObject): string {
  const parts = [untrusted(item.name ?? item.uid ?? NONE)];
  if (item.link && !isLinkableUrl(item.link)) parts.push('(its link is not https, so it is not offered)');
  return parts.join(' ');
}

export function renderSearch(result: GlobalSearchResult, text: string): View {
  const inventory = result.inventory ?? {};
  const devices = inventory.devices ?? [];
  const others = [...(inventory.managers ?? []), ...(inventory.services ?? [])];
  const objects = result.objects ?? [];
  const policies = result.policies ?? [];
  const cdFmc = result.cdFmcResult ?? {};
  const fmcGroups: [string, CdFmcObject[]][] = [
    ['cdFMC devices', cdFmc.devices ?? []],
    ['cdFMC objects', cdFmc.objects ?? []],
    ['cdFMC policies', cdFmc.policies ?? []],
  ];
  const counts: [string, number][] = [
    ['device', devices.length],
    ['manager or service', others.length],
    ['object', objects.length],
    ['policy', policies.length],
    ...fmcGroups.map(([label, items]): [string, number] => [
      label.replace(/s$/, '').replace('policie', 'policy'),
      items.length,
    ]),
  ];
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  const plural = (one: string) =>
    one.endsWith('policy')
      ? one.replace(/policy$/, 'policies')
      : one === 'manager or service'
        ? 'managers or services'
        : `${one}s`;
  const found = counts
    .filter(([, count]) => count > 0)
    .map(([one, count]) => counted(count, one, plural(one)));
  const heading = `*Search for* ${code(text)}`;
  if (total === 0)
    return {
      summary: `Search for “${text}”: nothing found`,
      blocks: [{ kind: 'text', text: `${heading}: SCC found nothing: no device, object or policy matches.` }],
      visibility: 'ephemeral',
    };
  const blocks: ViewBlock[] = [{ kind: 'text', text: `${heading}: ${found.join(', ')}.` }];
  if (devices.length > 0) {
    blocks.push({
      kind: 'text',
      text: [`*Devices* (${devices.length})`, ...listed(devices, entityLine)].join('\n'),
    });
    for (const device of devices.slice(0, MAX_SEARCH_ITEMS)) {
      const lines = device.matchingConfigurations ?? [];
      if (lines.length === 0) continue;
      const shown = lines.slice(0, MAX_MATCHING_LINES);
      const more = lines.length > shown.length ? `\n… and ${lines.length - shown.length} more lines` : '';
      blocks.push({
        kind: 'context',
        text: `${counted(lines.length, 'line')} of ${untrusted(device.name ?? NONE)}’s configuration:`,
      });
      blocks.push({ kind: 'code', text: `${shown.join('\n')}${more}` });
    }
  }
  if (others.length > 0)
    blocks.push({
      kind: 'text',
      text: [`*Managers and services* (${others.length})`, ...listed(others, entityLine)].join('\n'),
    });
  if (objects.length > 0)
    blocks.push({
      kind: 'text',
      text: [`*Objects* (${objects.length})`, ...listed(objects, objectLine)].join('\n'),
    });
  if (policies.length > 0)
    blocks.push({
      kind: 'text',
      text: [
        `*Policies* (${policies.length})`,
        ...listed(policies, (policy) =>
          [untrusted(policy.name ?? policy.uid ?? NONE), ...(policy.uid ? [code(policy.uid)] : [])].join(
            ' · ',
          ),
        ),
      ].join('\n'),
    });
  const buttons: Button[] = [];
  for (const [label, items] of fmcGroups) {
    if (items.length === 0) continue;
    blocks.push({
      kind: 'text',
      text: [`*${label}* (${items.length})`, ...listed(items, cdFmcLine)].join('\n'),
    });
    for (const item of items)
      if (item.link && isLinkableUrl(item.link) && buttons.length < MAX_LINK_BUTTONS)
        buttons.push({ label: truncate(`Open ${item.name ?? 'in cdFMC'}`, 75), url: item.link });
  }
  if (objects.length > 0 || devices.length > 0)
    blocks.push({
      kind: 'context',
      text: '`/fw objects show <name>` shows where an object is used; `/fw rules <asa> <text>` the rules that name it.',
    });
  if (buttons.length > 0) blocks.push({ kind: 'actions', buttons });
  return { summary: `Search for “${text}”: ${found.join(', ')}`, blocks, visibility: 'ephemeral' };
}
