// Staged changes and deploys as views: what a deploy would run on an ASA, the deployment runs, and one
// run with each device's result and what was deployed to it.
import { maskConfigLine, maskConfigSecrets } from '../model/configSecrets.js';
import type { RenderMeta, StagedItem } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import type { AsaChangeItemDto, DeploymentRunDto } from '../scc/generated/models.js';
import { code, counted, humanEnum, time } from './format.js';
import { listView } from './list.js';
import { commandButton, type PageInfo } from './paging.js';

export interface PendingChanges {
  device: { uid: string; name: string };
  configState: string | null;
  conflict: boolean;
  /** SCC's copy differs from the device's running configuration. */
  staged: boolean;
  status: 'SUCCESS' | 'UNSUPPORTED_COMMANDS' | 'ERROR' | 'UNKNOWN';
  commands: string[];
}

/** Under every interface change: what to do with what is now staged on the device. */
export function stagedButtons(deviceName: string): ViewBlock | undefined {
  const buttons = [
    commandButton('Preview commands', `changes ${deviceName}`, 'primary'),
    commandButton('Deploy…', `deploy ${deviceName}`),
    commandButton('Discard…', `discard ${deviceName}`, 'danger'),
  ].filter((button) => button !== undefined);
  return buttons.length > 0 ? { kind: 'actions', buttons } : undefined;
}

/** An interface change's view with the staged-change buttons added. */
export function withStagedButtons(view: View, deviceName: string): View {
  const buttons = stagedButtons(deviceName);
  return buttons ? { ...view, blocks: [...view.blocks, buttons] } : view;
}

/** At most this many staged items are named in a change's message; `/fw changes` shows everything. */
const NAMED_ITEMS = 5;

function stagedCount(deviceName: string, staged: readonly StagedItem[] | undefined): string {
  if (staged === undefined)
    // Said the same on every surface: the CLI has no thread to count the commands in later.
    return 'SCC did not say what else is staged on it.';
  if (staged.length === 0)
    return `SCC's copy of ${deviceName} now matches the device again: nothing is waiting for a deploy.`;
  const named = staged.slice(0, NAMED_ITEMS).map((item) => `${maskConfigLine(item.what)} (${item.change})`);
  const more = staged.length > NAMED_ITEMS ? `, and ${staged.length - NAMED_ITEMS} more` : '';
  return (
    `A deploy of ${deviceName} would now push *${counted(staged.length, 'staged change')}*, ` +
    `whoever made ${staged.length === 1 ? 'it' : 'them'}: ${named.join(', ')}${more}.`
  );
}

/**
 * The sentences every interface change ends with: it is staged, not on the device; what is now staged on
 * the device (read right after the change; undefined when SCC could not say); and what to do next.
 */
export function stagedNote(deviceName: string, staged?: readonly StagedItem[]): string {
  return (
    `Staged in SCC, not yet on ${deviceName}: traffic is unchanged until it is deployed. ` +
    `${stagedCount(deviceName, staged)} ` +
    `\`/fw changes ${deviceName}\` shows the commands a deploy would run; \`/fw deploy ${deviceName}\` asks to run them.`
  );
}

export function renderPendingChanges(pending: PendingChanges, _meta: RenderMeta): View {
  const { device, commands } = pending;
  const blocks: ViewBlock[] = [
    { kind: 'header', text: `Staged changes on ${device.name}` },
    {
      kind: 'fields',
      fields: [
        { label: 'Config state', value: humanEnum(pending.configState) || 'unknown' },
        { label: 'Pending commands', value: String(commands.length) },
        { label: 'Calculation', value: humanEnum(pending.status) },
      ],
    },
  ];
  if (commands.length === 0) {
    blocks.push({
      kind: 'text',
      text: `Nothing is staged on ${code(device.name)}: SCC and the device agree.`,
    });
  } else {
    blocks.push({ kind: 'text', text: `A deploy would run these commands on ${code(device.name)}:` });
    blocks.push({
      kind: 'code',
      text: maskConfigSecrets(commands.join('\n')),
      filename: `${device.name}-pending.txt`,
    });
    blocks.push({
      kind: 'context',
      text: `Everything staged on the device is deployed together, whoever staged it (SCC UI, API, fwbot). \`/fw deploy ${device.name}\` asks for a second person's approval of exactly these commands.`,
    });
  }
  if (pending.status === 'UNSUPPORTED_COMMANDS')
    blocks.push({
      kind: 'text',
      text: ':warning: Some of these commands cannot be applied line by line: a deploy skips them unless it applies the whole configuration (`--force-unsupported`), which drops every active connection through the device.',
    });
  if (pending.conflict)
    blocks.push({
      kind: 'text',
      text: ':warning: SCC detected a change made on the device itself (conflict detected): a deploy would overwrite it.',
    });
  return {
    summary: `${device.name}: ${counted(commands.length, 'pending command')}`,
    blocks,
    visibility: 'ephemeral',
  };
}

function deviceResults(run: DeploymentRunDto): string {
  return (run.deviceDeploymentStatuses ?? [])
    .map((d) => `${d.name ?? d.uid ?? '?'}: ${d.status ?? 'unknown'}${d.errorMsg ? ` (${d.errorMsg})` : ''}`)
    .join(', ');
}

export function renderDeploymentList(
  runs: readonly DeploymentRunDto[],
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  return listView(
    {
      title: 'Deployment runs',
      page,
      query,
      columns: ['Submitted', 'Status', 'By', 'Devices', 'Run'],
      rows: runs.map((run) => [
        time(run.submissionTime),
        humanEnum(run.deploymentRunStatus),
        run.deployerUsername,
        deviceResults(run),
        run.uid,
      ]),
      widths: [undefined, undefined, undefined, 60],
      hint: '`/fw deployments show <run>` shows what was deployed to each device.',
      empty: 'no deployment runs.',
    },
    meta,
  );
}

export function renderDeployment(
  run: DeploymentRunDto,
  changes: readonly { deviceUid: string; items: readonly AsaChangeItemDto[] }[],
  _meta: RenderMeta,
): View {
  const names = new Map(
    (run.deviceDeploymentStatuses ?? []).map((d) => [d.uid ?? '', d.name ?? d.uid ?? '?']),
  );
  const blocks: ViewBlock[] = [
    { kind: 'header', text: `Deployment run ${run.uid ?? ''}` },
    {
      kind: 'fields',
      fields: [
        { label: 'Status', value: humanEnum(run.deploymentRunStatus) },
        { label: 'By', value: run.deployerUsername ?? 'unknown' },
        { label: 'Submitted', value: time(run.submissionTime) },
        ...(run.description ? [{ label: 'Description', value: run.description }] : []),
        ...(run.failureReason ? [{ label: 'Failure', value: humanEnum(run.failureReason) }] : []),
      ],
    },
  ];
  if (run.deviceDeploymentStatuses?.length) blocks.push({ kind: 'text', text: deviceResults(run) });
  for (const { deviceUid, items } of changes) {
    const name = names.get(deviceUid) ?? deviceUid;
    for (const item of items) {
      const deployed = item.deployedConfig ?? '';
      blocks.push({ kind: 'text', text: `Deployed to ${code(name)}:` });
      blocks.push({
        kind: 'code',
        text: deployed ? maskConfigSecrets(deployed) : '(nothing)',
        filename: `${name}-deployed.txt`,
      });
    }
  }
  return {
    summary: `Deployment run ${run.uid ?? ''}: ${humanEnum(run.deploymentRunStatus)}`,
    blocks,
    visibility: 'ephemeral',
  };
}
