// Help, generated from the declarations: the overview grouped by area, `help <topic>` for an area, a group
// of commands or one command (usage line, arguments, role, examples), and the docs' command table.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import type { View, ViewBlock } from '../model/view.js';
import { optionalText } from './args.js';
import { type Area, defineOperation, type Operation } from './operation.js';
import { suggest } from './suggest.js';
import { COMMAND, usageLine } from './usage.js';

/** Areas in the order help lists them, with the title people know them by. */
export const AREAS: readonly { area: Area; title: string; blurb: string }[] = [
  { area: 'devices', title: 'Devices', blurb: 'the device inventory: names, kinds and UUIDs' },
  { area: 'tenants', title: 'Tenants', blurb: 'MSP portal tenants, their users and API tokens' },
  {
    area: 'interfaces',
    title: 'Interfaces',
    blurb: 'ASA interfaces: physical, EtherChannel, subinterface, VLAN, VTI',
  },
  {
    area: 'changes',
    title: 'Changes',
    blurb:
      'what is staged on an ASA, deploying it (with approval), discarding it, past deployments, SCC’s change log',
  },
  {
    area: 'policy',
    title: 'Policy',
    blurb:
      'is it allowed? search, access rules, objects and where they are used, packet traces, show commands',
  },
  { area: 'reports', title: 'Reports', blurb: 'event-search reports, with download links' },
  { area: 'gateway', title: 'Gateway', blurb: 'direct requests to a cloud-delivered FMC' },
  { area: 'vpn', title: 'VPN', blurb: 'Secure Client packages, compatible versions and upgrades' },
  {
    area: 'msp',
    title: 'MSP',
    blurb: 'devices and Secure Client upgrades across every managed tenant',
  },
  {
    area: 'upgrades',
    title: 'Upgrades',
    blurb: 'ASA and FTD software: the versions each device can move to, across tenants for an MSP',
  },
  {
    area: 'alerts',
    title: 'Alerts',
    blurb:
      'what fwbot tells a channel unasked: devices offline, conflicts, failovers, certificates, runs, users',
  },
  {
    area: 'audit',
    title: 'Audit',
    blurb: 'who asked for and approved what in fwbot, and SCC’s audit log of users',
  },
  { area: 'help', title: 'Help', blurb: 'this help' },
];

const LANGUAGE_NOTES = [
  'Devices, tenants and interfaces take a name or a UUID.',
  'A query without a colon searches names (`acme` finds `acme-eu`); with a colon it is Lucene (`region:EU AND name:acme*`), read by fwbot and passed on with each value escaped.',
  'Quote an argument that has spaces, or one that looks like a command word: `"show"`.',
  'Changes are announced in the channel; governed ones (deletes, removals, deploys, tokens, access, FMC writes) wait for someone else to approve.',
];

/** What the declaration says about approval, in words (the policy file may change `{ default }` rules). */
export function approvalNote(op: Operation): string | undefined {
  if (op.approval === 'always') return 'It runs only after another person approves it.';
  if (op.approval === 'never') return undefined;
  const some = op.governsOnly ? ` (${op.governsOnly})` : '';
  return op.approval.default === 'four-eyes'
    ? `By default it runs only after another person approves it${some}; the policy file may change that.`
    : 'The policy file may make it wait for another person to approve it.';
}

function roleNote(op: Operation): string {
  const role = `Needs the *${op.role}* role.`;
  const approval = approvalNote(op);
  return approval ? `${role} ${approval}` : role;
}

function modalNote(op: Operation): string | undefined {
  if (!op.modal) return undefined;
  return op.modal.when === 'incomplete'
    ? 'Without flags, and without all it needs, it opens a form (what you typed is filled in).'
    : 'Without arguments it opens a form.';
}

function commandLines(ops: readonly Operation[], command: string): string {
  return ops.map((op) => `\`${usageLine(op, command)}\`  ${op.summary}`).join('\n');
}

export function helpOverview(ops: readonly Operation[], command: string = COMMAND): View {
  const blocks: ViewBlock[] = [{ kind: 'header', text: 'fwbot: Security Cloud Control from chat' }];
  blocks.push({ kind: 'text', text: LANGUAGE_NOTES.join('\n') });
  for (const { area, title, blurb } of AREAS) {
    const inArea = ops.filter((op) => op.area === area);
    if (inArea.length === 0 || area === 'help') continue;
    // The map of every command, usage only: with each one's summary it no longer fits one Slack message
    // (about 12k characters); `help <topic>` and `help <command>` say what each does.
    blocks.push({
      kind: 'text',
      text: `*${title}*: ${blurb}\n${inArea.map((op) => `\`${usageLine(op, command)}\``).join('\n')}`,
    });
  }
  const topics = AREAS.filter(({ area }) => area !== 'help' && ops.some((op) => op.area === area)).map(
    ({ area }) => area,
  );
  blocks.push({ kind: 'context', text: `\`${command} help <topic>\` for details: ${topics.join(', ')}.` });
  return { summary: `fwbot commands: ${topics.join(', ')}`, blocks, visibility: 'ephemeral' };
}

function commandHelp(op: Operation, command: string): View {
  const blocks: ViewBlock[] = [
    { kind: 'header', text: op.words.join(' ') },
    { kind: 'text', text: `${op.summary}\n\`${usageLine(op, command)}\`` },
  ];
  const params = op.params.filter((param) => !param.hidden);
  if (params.length > 0) {
    const lines = params.map((param) => {
      const name = param.flag
        ? `--${param.name}`
        : param.kind === 'query'
          ? 'query'
          : `<${param.name}${param.variadic ? '…' : ''}>`;
      const choices = param.choices && param.kind !== 'choice' ? ` (${param.choices.join(', ')})` : '';
      return `\`${name}\`  ${param.description}${choices}${param.optional ? ' (optional)' : ''}`;
    });
    blocks.push({ kind: 'text', text: lines.join('\n') });
  }
  const notes = [roleNote(op), modalNote(op)].filter((note) => note !== undefined);
  blocks.push({ kind: 'context', text: notes.join(' ') });
  if (op.examples.length > 0) {
    blocks.push({
      kind: 'text',
      text: `Examples:\n${op.examples.map((e) => `\`${command} ${e}\``).join('\n')}`,
    });
  }
  return { summary: `${command} ${op.words.join(' ')}: ${op.summary}`, blocks, visibility: 'ephemeral' };
}

function groupHelp(title: string, ops: readonly Operation[], command: string): View {
  const blocks: ViewBlock[] = [
    { kind: 'header', text: title },
    { kind: 'text', text: commandLines(ops, command) },
    {
      kind: 'context',
      text: `\`${command} help <command>\` for one, e.g. \`${command} help ${ops[0]?.words.join(' ') ?? ''}\`.`,
    },
  ];
  return { summary: `${title}: ${ops.length} commands`, blocks, visibility: 'ephemeral' };
}

/** Help for a topic: an area, a group of words ("tenants users"), one command, or its id. */
export function helpTopic(ops: readonly Operation[], topic: string, command: string = COMMAND): View {
  const words = topic.trim().toLowerCase().replace(/\./g, ' ').split(/\s+/).filter(Boolean);
  if (words.length === 0) return helpOverview(ops, command);
  const exact = ops.find((op) => op.words.join(' ') === words.join(' '));
  const below = ops.filter((op) => words.every((word, i) => op.words[i] === word));
  if (exact && below.length === 1) return commandHelp(exact, command);
  if (below.length > 0) {
    const area = AREAS.find((a) => words.length === 1 && a.area === words[0]);
    const title = area ? `${area.title}: ${area.blurb}` : `${command} ${words.join(' ')}`;
    return groupHelp(title, below, command);
  }
  const known = [...new Set(ops.map((op) => op.words.join(' ')))];
  const options = suggest(words.join(' '), known);
  const hint = options.length
    ? ` Did you mean ${options.map((o) => `\`${command} help ${o}\``).join(' or ')}?`
    : '';
  throw new UserError(`There is no help topic “${topic.trim()}”.${hint}`, options);
}

/** What a command's row in the docs' command table says besides its summary: approvals and forms. */
function notes(op: Operation): string {
  const notes = [
    op.approval === 'always'
      ? 'waits for approval'
      : op.approval !== 'never' && op.approval.default === 'four-eyes'
        ? 'waits for approval by default'
        : undefined,
    op.fastPath,
    op.modal?.when === 'incomplete'
      ? 'form when given no flags and not all it needs'
      : op.modal
        ? 'form when given no arguments'
        : undefined,
  ];
  return notes.filter((note) => note !== undefined).join('; ');
}

/** The command table of docs/using/commands.md, in Markdown. */
export function commandTable(ops: readonly Operation[], command: string = COMMAND): string {
  const escapePipes = (text: string) => text.replace(/\|/g, '\\|');
  const rows = AREAS.flatMap(({ area }) => ops.filter((op) => op.area === area)).map((op) => {
    const scc = op.scc.map((id) => `\`${id}\``).join(', ') || '—';
    const cells = [
      `\`${escapePipes(usageLine(op, command))}\``,
      escapePipes(op.summary),
      op.role,
      notes(op),
      scc,
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '| Command | What it does | Role | Notes | SCC operations |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** docs/using/commands.md's section on commands: how the language reads, then the table of every command. */
export function commandsMarkdown(ops: readonly Operation[], command: string = COMMAND): string {
  const notes = LANGUAGE_NOTES.map((note) => `- ${note}`).join('\n');
  return [
    '## Commands',
    '',
    `Everything fwbot does is a \`${command}\` command. \`${command} help\` lists them in Slack, and \`${command} help <command>\` explains one.`,
    '',
    notes,
    '',
    commandTable(ops, command),
    '',
  ].join('\n');
}

/** The `help` operation; it reads the registry it belongs to lazily, since it is part of it. */
export function defineHelpOperation(
  operations: () => readonly Operation[],
  command: string = COMMAND,
): Operation {
  return defineOperation({
    id: 'help',
    words: ['help'],
    area: 'help',
    failure: 'Could not show the help',
    summary: 'Show the commands, or the details of one',
    params: [
      {
        name: 'topic',
        kind: 'query',
        optional: true,
        description: 'an area or a command, e.g. `tenants create`',
      },
    ],
    args: z.object({ topic: optionalText() }),
    role: 'viewer',
    approval: 'never',
    scc: [],
    examples: ['help', 'help tenants', 'help interfaces edit'],
    // Resolving the topic here (not in render) turns an unknown topic into a UserError before rendering.
    run: async (_ctx, args) =>
      args.topic ? helpTopic(operations(), args.topic, command) : helpOverview(operations(), command),
    render: (view) => view,
  });
}
