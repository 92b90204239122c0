// Admin routes that change an ASA's access lists as a person in SCC's UI would, deployed at once: add a
// line (ASA semantics: `line N` goes before the list's current line N, remarks counted; no line: appended)
// or remove one; and a global line (`snmp-server community …`), added or removed as written, its secret in
// clear as a real SCC may show it (the simulator's own configuration masks its secrets as ASAs print them).
// The device's policy lines change in both copies (a change staged through the API stays staged), and the
// change log records an UPDATE by `username` with the diff of the running configuration and the command.
// Bad input (an unknown object, a line that is not `extended permit|deny …` or `remark …`, a line number
// the list does not have) is a 400 with a sentence; an unknown device 404.
import { z } from 'zod';
import { invalidInput, notFound } from '../errors.js';
import type { SimResponse } from '../http/context.js';
import type { SimRuntime } from '../runtime.js';
import {
  accessListLineProblem,
  insertAccessListLine,
  removeAccessListLine,
} from '../state/asaAccessListEdits.js';
import { configOnDevice } from '../state/asaConfig.js';
import { policyOf } from '../state/asaPolicy.js';
import { editBothCopies, policyLinesOf } from '../state/asaPolicyLines.js';
import { recordDeviceChange } from '../state/changeLog.js';
import type { DeviceRecord } from '../state/model.js';
import { type AddRoute, type AdminRequest, findDevice, parse, UI_USER } from './request.js';

const AclName = z.string().regex(/^[A-Za-z0-9][\w.-]{0,63}$/, 'an access list name (letters, digits, _ . -)');
/** One configuration line: printable, no line breaks, at most 400 characters. */
const Line = z
  .string()
  .min(1)
  .max(400)
  .regex(/^[\x20-\x7e]+$/, 'one line of printable ASCII');

const AddInput = z
  .object({
    acl: AclName.optional(),
    line: z.number().int().min(1).max(100_000).optional(),
    /** `extended permit …` / `remark …`, or the whole `access-list NAME [line N] …` command. */
    text: Line,
    username: z.string().min(1).max(200).optional(),
  })
  .strict();
const ConfigLineInput = z
  .object({
    /** A global configuration line such as `snmp-server community …`, added (or removed) as written. */
    text: Line.refine((t) => !/^\s/.test(t) && !/^(?:access-list|access-group|object|route)\s/.test(t), {
      message:
        'a global line other than access-list, access-group, object and route (they have routes of their own)',
    }),
    remove: z.boolean().optional(),
    username: z.string().min(1).max(200).optional(),
  })
  .strict();
const RemoveInput = z
  .object({
    acl: AclName,
    line: z.number().int().min(1).max(100_000),
    username: z.string().min(1).max(200).optional(),
  })
  .strict();

export const POLICY_ROUTES = [
  [
    'POST',
    '/_sim/devices/{device}/access-list',
    "add an access-list line in SCC's UI, deployed at once (change log): {acl?, line?, text, username?}; text is `extended …` / `remark …` or a whole `access-list NAME [line N] …`",
  ],
  [
    'DELETE',
    '/_sim/devices/{device}/access-list',
    "remove line N of an access list in SCC's UI, deployed at once (change log): {acl, line, username?}",
  ],
  [
    'POST',
    '/_sim/devices/{device}/access-list/remove',
    'the same removal, for clients without DELETE bodies',
  ],
  [
    'POST',
    '/_sim/devices/{device}/config-line',
    "add (or with remove: true, remove) a global configuration line in SCC's UI, deployed at once (change log): {text, remove?, username?}; e.g. `snmp-server community …` as a real SCC may show it, secret in clear",
  ],
] as const;

function asaOf(sim: SimRuntime, key: string): DeviceRecord {
  const device = findDevice(sim.state, key);
  if (device.kind !== 'ASA') throw invalidInput(`${device.device.name} is not an ASA`);
  return device;
}

/** `access-list NAME [line N] REST` split into its parts, or the text as the rule of `acl`. */
function splitCommand(text: string, acl: string | undefined, line: number | undefined) {
  const m = /^access-list\s+(\S+)\s+(?:line\s+(\d+)\s+)?(.+)$/.exec(text.trim());
  if (m === null) {
    if (acl === undefined) throw invalidInput('acl is required unless text is a whole access-list command');
    return { acl, line, rule: text.trim() };
  }
  const [, name = '', n, rule = ''] = m;
  if (acl !== undefined && acl !== name) throw invalidInput(`text is for access list ${name}, not ${acl}`);
  const fromText = n === undefined ? undefined : Number(n);
  if (line !== undefined && fromText !== undefined && line !== fromText) {
    throw invalidInput(`text says line ${fromText}, line says ${line}`);
  }
  return { acl: name, line: line ?? fromText, rule };
}

function applied(
  sim: SimRuntime,
  device: DeviceRecord,
  change: {
    edit: (lines: readonly string[]) => string[];
    command: string;
    description: string;
    username: string;
  },
): SimResponse {
  const { state } = sim;
  const before = configOnDevice(state, device);
  editBothCopies(state, device.device.uid, change.edit);
  const log = recordDeviceChange(state, device, {
    action: 'UPDATE',
    username: change.username,
    at: sim.clock.now(),
    description: change.description,
    before,
    after: configOnDevice(state, device),
    commands: [change.command],
    pending: device.device.configState === 'NOT_SYNCED',
  });
  return {
    status: 200,
    body: { device: device.device.name, command: change.command, changelogUid: log.uid },
  };
}

async function remove(sim: SimRuntime, r: AdminRequest): Promise<SimResponse> {
  const device = asaOf(sim, r.params.device ?? '');
  const input = await parse(r, RemoveInput);
  const result = removeAccessListLine(policyLinesOf(sim.state, device.device.uid), input.acl, input.line);
  if (result === undefined) {
    throw notFound(`${device.device.name} has no line ${input.line} in access list ${input.acl}`);
  }
  const text = result.text;
  return applied(sim, device, {
    edit: (lines) => {
      const at = lines.indexOf(text);
      return at === -1 ? [...lines] : lines.filter((_, i) => i !== at);
    },
    command: result.command,
    username: input.username ?? UI_USER,
    description: `Removed line ${input.line} of access list ${input.acl} on ${device.device.name}: ${result.text}`,
  });
}

export function addPolicyRoutes(add: AddRoute, sim: SimRuntime): void {
  add('POST', '/_sim/devices/{device}/access-list', async (r) => {
    const device = asaOf(sim, r.params.device ?? '');
    const input = await parse(r, AddInput);
    const edit = splitCommand(input.text, input.acl, input.line);
    const policy = policyOf(sim.state, device.device.uid);
    const entries = policy.accessLists.get(edit.acl) ?? [];
    if (edit.line !== undefined && edit.line > entries.length + 1) {
      throw invalidInput(
        `access list ${edit.acl} on ${device.device.name} has ${entries.length} lines: line ${edit.line} cannot be inserted`,
      );
    }
    const problem = accessListLineProblem(policy, edit.rule);
    if (problem !== undefined) throw invalidInput(`Cannot add to ${edit.acl}: ${problem}`);
    const result = insertAccessListLine(policyLinesOf(sim.state, device.device.uid), edit);
    const where = edit.line === undefined ? 'at the end' : `at line ${edit.line}`;
    return applied(sim, device, {
      edit: (lines) => insertAccessListLine(lines, edit).lines,
      command: result.command,
      username: input.username ?? UI_USER,
      description: `Added to access list ${edit.acl} ${where} on ${device.device.name}: ${result.text}`,
    });
  });
  add('POST', '/_sim/devices/{device}/config-line', async (r) => {
    const device = asaOf(sim, r.params.device ?? '');
    const input = await parse(r, ConfigLineInput);
    const lines = policyLinesOf(sim.state, device.device.uid);
    const text = input.text.trimEnd();
    const present = lines.includes(text);
    if (input.remove === true && !present) throw notFound(`${device.device.name} has no line "${text}"`);
    return applied(sim, device, {
      edit: (copy) =>
        input.remove === true
          ? copy.filter((l) => l !== text)
          : copy.includes(text)
            ? [...copy]
            : [...copy, text],
      command: input.remove === true ? `no ${text}` : text,
      username: input.username ?? UI_USER,
      description: `${input.remove === true ? 'Removed' : 'Set'} ${text.split(/\s+/).slice(0, 2).join(' ')} on ${device.device.name}`,
    });
  });
  add('DELETE', '/_sim/devices/{device}/access-list', (r) => remove(sim, r));
  add('POST', '/_sim/devices/{device}/access-list/remove', (r) => remove(sim, r));
}
