// The access policy of each simulated ASA, read from its running configuration: the one parse
// (`parsePolicy`) of the rendered text into the `AsaPolicy` model (asaPolicyModel.ts) every API answer and
// command-line evaluator reads, and `policyOf`, that parse cached per world and device. The parse reads the
// rendered text itself, so a rule's `configLine` is its line in what getAsaConfiguration answers. It only
// sorts the text into its parts; each part is read in its own home: objects and object-groups
// (asaObjects.ts), access lists and access groups (asaAccessLists.ts), object NAT (asaNat.ts), static
// routes (here: one line each). Where the lines are kept and placed is asaPolicyLines.ts; changing an
// access list, asaAccessListEdits.ts; the shadow / duplicate analysis, asaRuleIssues.ts; evaluating a
// packet, asaPolicyEval.ts. UIDs are hashes of the device UID, the kind and the name or line text
// (stableUid), never drawn from the world's RNG (other UIDs are golden).

import { accessGroupsOf, accessListsOf, type ConfigLine } from './asaAccessLists.js';
import { cidrOf, maskToPrefix } from './asaAddresses.js';
import { configOnCloud, configOnDevice } from './asaConfig.js';
import { dynamicNatsOf, type ObjectNatLine, staticNatsOf } from './asaNat.js';
import { addDefinition, completeDefinitions, definitionHead, emptyDefinitions } from './asaObjects.js';
import { devicePolicyLinesOf, policyLinesOf } from './asaPolicyLines.js';
import type { AsaPolicy, StaticRoute } from './asaPolicyModel.js';
import { timeRangesOf } from './asaTimeRanges.js';
import type { DeviceRecord, SimState } from './model.js';

/** `route IFC NETWORK MASK GATEWAY [METRIC]`, or undefined when the line is not one. */
function staticRoute(line: string): StaticRoute | undefined {
  const t = line.split(/\s+/);
  const prefix = maskToPrefix(t[3] ?? '');
  const network = prefix === undefined ? undefined : cidrOf(t[2] ?? '', prefix);
  if (network === undefined || t[1] === undefined || t[4] === undefined) return undefined;
  return { interface: t[1], network, gateway: t[4], metric: Number(t[5] ?? 1), text: line };
}

/** The policy in an ASA's running configuration text (what `show running-config` prints). */
export function parsePolicy(deviceUid: string, config: string, lines: readonly string[] = []): AsaPolicy {
  const text = config.split('\n');
  const defs = emptyDefinitions();
  const natLines: ObjectNatLine[] = [];
  const aclLines: ConfigLine[] = [];
  const groupLines: ConfigLine[] = [];
  const routes: StaticRoute[] = [];

  // One pass: definition blocks with their bodies (a later block for the same object adds to it), and the
  // top-level lines each part reads.
  for (let n = 0; n < text.length; n += 1) {
    const line = text[n] ?? '';
    const head = definitionHead(line);
    if (head === undefined) {
      if (line.startsWith('access-list ')) aclLines.push({ text: line, configLine: n + 1 });
      else if (line.startsWith('access-group ')) groupLines.push({ text: line, configLine: n + 1 });
      else if (line.startsWith('route ')) {
        const route = staticRoute(line);
        if (route !== undefined) routes.push(route);
      }
      continue;
    }
    const body: string[] = [];
    while ((text[n + 1] ?? '').startsWith(' ')) {
      n += 1;
      body.push((text[n] ?? '').trim());
    }
    for (const nat of addDefinition(defs, deviceUid, head, body, n + 1 - body.length))
      natLines.push({ object: head.name, line: nat });
  }
  completeDefinitions(defs);

  return {
    deviceUid,
    lines: [...lines],
    objects: [...defs.objects.values()],
    objectGroups: [...defs.groups.values()],
    accessLists: accessListsOf(deviceUid, defs, aclLines),
    accessGroups: accessGroupsOf(deviceUid, groupLines),
    routes,
    nats: staticNatsOf(defs, natLines),
    dynamicNats: dynamicNatsOf(defs, natLines),
    timeRanges: timeRangesOf(text),
  };
}

// --- the policy of a device, cached --------------------------------------------------------------------

const cache = new WeakMap<SimState, Map<string, { config: string; aliases: number; policy: AsaPolicy }>>();

const NO_POLICY = (deviceUid: string): AsaPolicy => ({
  deviceUid,
  lines: [],
  objects: [],
  objectGroups: [],
  accessLists: new Map(),
  accessGroups: [],
  routes: [],
  nats: [],
  dynamicNats: [],
});

/**
 * The ASA's access policy as the device runs it, parsed from its running configuration (the same text
 * getAsaConfiguration answers as configOnDevice): what packet-tracer and `show` evaluate. Cached per world
 * and device until that text changes.
 */
export function policyOf(state: SimState, deviceUid: string): AsaPolicy {
  const device = state.devices.get(deviceUid);
  if (device === undefined || device.kind !== 'ASA') return NO_POLICY(deviceUid);
  return cachedPolicy(state, device, 'device');
}

/**
 * The ASA's access policy in SCC's copy (configOnCloud): what the rule, access group and object APIs answer
 * and change. The same as policyOf until a change is staged, and again once it is deployed.
 */
export function cloudPolicyOf(state: SimState, deviceUid: string): AsaPolicy {
  const device = state.devices.get(deviceUid);
  if (device === undefined || device.kind !== 'ASA') return NO_POLICY(deviceUid);
  return cachedPolicy(state, device, 'cloud');
}

function cachedPolicy(state: SimState, device: DeviceRecord, copy: 'device' | 'cloud'): AsaPolicy {
  const uid = device.device.uid;
  let byDevice = cache.get(state);
  if (byDevice === undefined) {
    byDevice = new Map();
    cache.set(state, byDevice);
  }
  const config = copy === 'device' ? configOnDevice(state, device) : configOnCloud(state, device);
  const key = `${copy}:${uid}`;
  const hit = byDevice.get(key);
  const aliases = state.uidAliases.size;
  if (hit !== undefined && hit.config === config && hit.aliases === aliases) return hit.policy;
  const lines = copy === 'device' ? devicePolicyLinesOf(state, uid) : policyLinesOf(state, uid);
  const policy = withKeptUids(state, parsePolicy(uid, config, lines));
  byDevice.set(key, { config, aliases, policy });
  return policy;
}

/**
 * A rule or access group changed through the API keeps the UID it had (SimState.uidAliases), as SCC's do,
 * though its lines (from which UIDs are derived) changed.
 */
function withKeptUids(state: SimState, policy: AsaPolicy): AsaPolicy {
  if (state.uidAliases.size === 0) return policy;
  policy.uidAliases = state.uidAliases;
  for (const entries of policy.accessLists.values())
    for (const entry of entries) entry.uid = state.uidAliases.get(entry.uid) ?? entry.uid;
  for (const binding of policy.accessGroups) binding.uid = state.uidAliases.get(binding.uid) ?? binding.uid;
  return policy;
}
