// What is staged on an ASA, read at once: SCC's copy of the configuration against the device's running one
// (getAsaConfiguration, one GET). The exact commands a deploy would run need SCC's asynchronous calculation
// (pendingCommands.ts); this is the count an interface change can say in its own message without waiting for it.
//
// ASA configuration is a list of top-level lines, each with its indented sub-lines (`interface Vlan20`
// then ` nameif iot`). A change is one top-level item that is new, gone or different. Top-level lines
// without sub-lines that set one thing per name (`mtu inside 1500`) are keyed by their first two words, so
// a changed value is one change, not one line removed and one added.

import type { StagedItem } from '../model/types.js';
import type { OperationContext } from './operation.js';

export type { StagedItem } from '../model/types.js';

/** Lines that carry no configuration: `: Saved`, `!` separators, the checksum, `end`, blank lines. */
const NOT_CONFIG = /^(?::|!|Cryptochecksum:|end\s*$|\s*$)/;

/** Top-level commands that set one interface's own setting, naming it by its nameif (`mtu iot 1500`). */
export const OF_AN_INTERFACE: ReadonlySet<string> = new Set(['mtu', 'monitor-interface']);

/** Each interface's name (`nameif iot`) → its stanza's key (`interface Vlan20`). */
function interfacesByName(configs: readonly string[]): Map<string, string> {
  const byName = new Map<string, string>();
  for (const config of configs) {
    let stanza: string | undefined;
    for (const line of config.split(/\r?\n/)) {
      if (!/^\s/.test(line)) stanza = line.startsWith('interface ') ? line.trim() : undefined;
      const nameif = /^\s+nameif\s+(\S+)/.exec(line)?.[1];
      if (stanza && nameif) byName.set(nameif, stanza);
    }
  }
  return byName;
}

function items(config: string, interfaces: ReadonlyMap<string, string>): Map<string, string> {
  const found = new Map<string, string>();
  const add = (key: string, line: string) =>
    found.set(key, found.has(key) ? `${found.get(key)}\n${line}` : line);
  let key: string | undefined;
  for (const line of config.split(/\r?\n/)) {
    if (NOT_CONFIG.test(line)) {
      key = undefined;
      continue;
    }
    if (/^\s/.test(line)) {
      if (key !== undefined) add(key, line.trim());
      continue;
    }
    const words = line.trim().split(/\s+/);
    // A stanza is keyed by its whole first line. A lone line that sets an interface's own setting by the
    // interface's name (`mtu iot 1500`) belongs to that interface; any other is keyed by the words that
    // say what it sets.
    const owner = OF_AN_INTERFACE.has(words[0] ?? '') ? interfaces.get(words[1] ?? '') : undefined;
    key = words[0] === 'interface' ? line.trim() : (owner ?? words.slice(0, 2).join(' '));
    // Lines sharing a key (several `route outside …`) are one item whose value is all of them.
    add(key, line.trim());
  }
  return found;
}

/** The items of SCC's copy that differ from the device's, in the order of SCC's copy, then the removed ones. */
export function stagedItems(configOnCloud: string, configOnDevice: string): StagedItem[] {
  const interfaces = interfacesByName([configOnCloud, configOnDevice]);
  const cloud = items(configOnCloud, interfaces);
  const device = items(configOnDevice, interfaces);
  const out: StagedItem[] = [];
  for (const [key, value] of cloud) {
    const was = device.get(key);
    if (was === undefined) out.push({ what: key, change: 'new' });
    else if (was !== value) out.push({ what: key, change: 'changed' });
  }
  for (const key of device.keys()) if (!cloud.has(key)) out.push({ what: key, change: 'removed' });
  return out;
}

/** The SCC operation readStaged calls, for the `scc` declaration of every operation that uses it. */
export const STAGED_READ = 'getAsaConfiguration' as const;

/**
 * What is staged on the device right after a change, or undefined when SCC could not say: the change is
 * made by then, so a failed read must not turn it into a failure.
 */
export async function readStaged(
  ctx: OperationContext,
  deviceUid: string,
): Promise<StagedItem[] | undefined> {
  try {
    const { data } = await ctx.scc.call(STAGED_READ, { path: { deviceUid } });
    return stagedItems(data.configOnCloud ?? '', data.configOnDevice ?? '');
  } catch (error) {
    ctx.log.warn({ err: error, deviceUid }, 'staged configuration not read after the change');
    return undefined;
  }
}
