// Views of Secure Client (the VPN client): packages on a device, compatible versions, upgrade runs and
// their progress, and the announcement of an upgrade.

import type { RenderMeta } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import type {
  CompatibleSecureClientVersionDto,
  SecureClientPackageDto,
  SecureClientUpgradeRunAttributeValues,
  SecureClientUpgradeRunDto,
} from '../scc/generated/models.js';
import type { ResolvedDevice } from '../scc/kinds.js';
import { fieldBlocks, humanEnum, NONE, table, time } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';
import {
  describeProgress,
  overallPercent,
  pipelineOf,
  type RunProgress,
  runProgress,
} from './upgradeProgress.js';

const OS_NAMES: Readonly<Record<string, string>> = { WINDOWS: 'Windows', MACOS: 'macOS', LINUX: 'Linux' };

function osName(os: string): string {
  return OS_NAMES[os] ?? os;
}

/** `Windows x86_64`, or — when SCC could not tell (an FTD package with an unusual file name). */
export function platform(item: { os?: string | null; cpuArchitecture?: string | null }): string {
  if (!item.os) return NONE;
  return item.cpuArchitecture ? `${osName(item.os)} ${item.cpuArchitecture.toLowerCase()}` : osName(item.os);
}

/** `Windows x86_64/arm64, macOS universal`: platforms grouped by operating system. */
export function platforms(items: readonly { os: string; cpuArchitecture: string }[]): string {
  const byOs = new Map<string, string[]>();
  for (const item of items)
    byOs.set(item.os, [...(byOs.get(item.os) ?? []), item.cpuArchitecture.toLowerCase()]);
  return [...byOs].map(([os, archs]) => `${osName(os)} ${archs.join('/')}`).join(', ') || NONE;
}

export function renderPackages(
  device: ResolvedDevice,
  packages: readonly SecureClientPackageDto[],
  page: PageInfo,
  meta: RenderMeta,
): View {
  const empty =
    device.kind === 'ftd'
      ? 'none. An FTD lists the packages of its remote-access VPN policy, and it may have no policy.'
      : 'none installed.';
  return listView(
    {
      title: `Secure Client packages on ${device.name}`,
      page,
      columns: ['File', 'Version', 'Platform', 'UUID'],
      rows: packages.map((p) => [p.fileName, p.version, platform(p), p.uid]),
      widths: [64],
      hint: `\`/fw vpn package ${device.name} <package-uid>\` for one package.`,
      empty,
    },
    meta,
  );
}

export function renderPackage(device: ResolvedDevice, pkg: SecureClientPackageDto): View {
  const blocks: ViewBlock[] = [
    { kind: 'header', text: pkg.fileName },
    ...fieldBlocks([
      ['Device', device.name],
      ['Version', pkg.version],
      ['Platform', platform(pkg)],
      ['UUID', pkg.uid],
    ]),
  ];
  if (!pkg.version) {
    blocks.push({
      kind: 'context',
      text: 'The file name does not follow Secure Client’s naming, so SCC cannot tell its version, OS or architecture.',
    });
  }
  return {
    summary: `Secure Client package ${pkg.fileName} on ${device.name}`,
    blocks,
    visibility: 'ephemeral',
  };
}

export interface VersionGroup {
  /** `ASA` or `FTD`: SCC answers compatible versions per kind of device. */
  label: string;
  devices: readonly ResolvedDevice[];
  versions: readonly CompatibleSecureClientVersionDto[];
}

/** Versions shown per group; more are counted, not listed. */
const MAX_VERSIONS = 25;

export function renderVersions(groups: readonly VersionGroup[]): View {
  const blocks: ViewBlock[] = [];
  for (const group of groups) {
    const names = group.devices.map((d) => d.name).join(', ');
    const shown = group.versions.slice(0, MAX_VERSIONS);
    const more =
      group.versions.length > shown.length ? ` (newest ${shown.length} of ${group.versions.length})` : '';
    if (shown.length === 0) {
      blocks.push({
        kind: 'text',
        text: `*${group.label}: ${names}*: no Secure Client version fits all of them.`,
      });
      continue;
    }
    const lines = shown.map((v) => `\`${v.version}\`  ${platforms(v.platforms)}`);
    blocks.push({ kind: 'text', text: `*${group.label}: ${names}*${more}\n${lines.join('\n')}` });
  }
  blocks.push({ kind: 'context', text: '`/fw vpn upgrade <device…> --version <version>` to upgrade.' });
  const devices = groups.flatMap((g) => g.devices.map((d) => d.name)).join(', ');
  return { summary: `Secure Client versions for ${devices}`, blocks, visibility: 'ephemeral' };
}

export function renderRuns(
  runs: readonly SecureClientUpgradeRunDto[],
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  return listView(
    {
      title: 'Secure Client upgrade runs',
      page,
      query,
      columns: ['Name', 'Version', 'Status', 'Done', 'Submitted', 'UUID'],
      rows: runs.map((r) => [
        r.name,
        r.secureClientVersion,
        humanEnum(r.upgradeRunStatus),
        overallPercent(runProgress(r.upgradeRunStatus, r.percentageComplete, pipelineOf(r.upgradeRunType))),
        time(r.submissionTime),
        r.uid,
      ]),
      hint: '`/fw vpn run <run-uid>` for one run, `/fw vpn run-fields` for the values to search by.',
      empty: 'no upgrade runs.',
    },
    meta,
  );
}

type RunFacts = Pick<
  SecureClientUpgradeRunDto,
  | 'name'
  | 'uid'
  | 'upgradeRunStatus'
  | 'percentageComplete'
  | 'secureClientVersion'
  | 'username'
  | 'submissionTime'
  | 'lastUpdatedTime'
  | 'errorMsg'
  | 'transactionUid'
>;
type RunDevice = Pick<
  NonNullable<SecureClientUpgradeRunDto['devices']>[number],
  'name' | 'uid' | 'status' | 'errorMsg'
>;

/**
 * The header and facts of one upgrade run, single-tenant or across tenants, with its progress (the step's
 * and the run's, never the step's alone); `more` follow the version.
 */
export function runHead(
  run: RunFacts,
  progress: RunProgress,
  more: [label: string, value: unknown][] = [],
): ViewBlock[] {
  return [
    { kind: 'header', text: run.name || `Upgrade run ${run.uid ?? ''}` },
    ...fieldBlocks([
      ['Status', humanEnum(run.upgradeRunStatus)],
      ['Progress', describeProgress(progress)],
      ['Version', run.secureClientVersion],
      ...more,
      ['Started by', run.username],
      ['Submitted', time(run.submissionTime)],
      ['Last update', time(run.lastUpdatedTime)],
      ['Error', run.errorMsg],
      ['UUID', run.uid],
      ['Transaction', run.transactionUid],
    ]),
  ];
}

/** The devices of one upgrade run and how each went; nothing when the run names none. */
export function runDevices(devices: readonly RunDevice[] | null | undefined): ViewBlock[] {
  if (!devices?.length) return [];
  return [
    table(
      ['Device', 'Status', 'Error'],
      devices.map((d) => [d.name ?? d.uid, humanEnum(d.status), d.errorMsg]),
      [undefined, undefined, 120],
    ),
  ];
}

export function renderRun(run: SecureClientUpgradeRunDto): View {
  const blocks: ViewBlock[] = [
    ...runHead(
      run,
      runProgress(run.upgradeRunStatus, run.percentageComplete, pipelineOf(run.upgradeRunType)),
      [['Type', humanEnum(run.upgradeRunType)]],
    ),
    ...runDevices(run.devices),
  ];
  return {
    summary: `Upgrade run ${run.name ?? run.uid ?? ''}: ${humanEnum(run.upgradeRunStatus)}`,
    blocks,
    visibility: 'ephemeral',
  };
}

export function renderRunFields(values: SecureClientUpgradeRunAttributeValues): View {
  return runFieldsView(values, {
    what: 'upgrade runs',
    example: 'For example `/fw vpn runs upgradeRunStatus:DONE_WITH_DEVICE_ERRORS`.',
    summary: 'Upgrade run search values',
  });
}

/** The values upgrade runs can be searched by (single-tenant and across tenants alike). */
export function runFieldsView(
  values: Pick<SecureClientUpgradeRunAttributeValues, 'upgradeRunStatuses' | 'upgradeRunTypes' | 'users'>,
  words: { what: string; example: string; summary: string },
): View {
  const line = (items: readonly string[] | null | undefined) => (items?.length ? items.join(', ') : NONE);
  const blocks: ViewBlock[] = [
    { kind: 'text', text: `*Values to search ${words.what} by*` },
    {
      kind: 'text',
      text: [
        `\`upgradeRunStatus\`: ${line(values.upgradeRunStatuses)}`,
        `\`upgradeRunType\`: ${line(values.upgradeRunTypes)}`,
        `\`username\`: ${line(values.users)}`,
      ].join('\n'),
    },
    { kind: 'context', text: words.example },
  ];
  return { summary: words.summary, blocks, visibility: 'ephemeral' };
}
