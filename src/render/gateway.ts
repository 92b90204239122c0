// Views of the FMC command gateway: the supported endpoint patterns, an FMC's domain (the UUID its
// configuration paths need), and a device's answer, its body pretty-printed as JSON (the Block Kit
// renderer uploads it as a file when it is too long for a message).
import type { RenderMeta } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import type { CommandResponse } from '../scc/generated/models.js';
import { mention } from './announce.js';
import { code, fieldBlocks, show } from './format.js';

/** JSON text pretty-printed; anything else as it came. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The supported patterns, one per line (the reference does not fix the shape of this answer). */
export function renderCommandPatterns(response: CommandResponse): View {
  const data = record(response.data);
  // The longest list in the answer is the patterns (the simulator also lists device types beside them).
  const lists = Object.values(data ?? {}).filter((value): value is unknown[] => Array.isArray(value));
  const list = lists.sort((a, b) => b.length - a.length)[0];
  const blocks: ViewBlock[] = [{ kind: 'text', text: '*Gateway: supported device requests*' }];
  const items = Array.isArray(list) ? list : [];
  const objects = items.map(record).filter((item) => item !== undefined);
  if (objects.length === items.length && objects.length > 0) {
    const columns = [...new Set(objects.flatMap((item) => Object.keys(item)))].slice(0, 3);
    const cells = objects.map((item) => columns.map((c) => show(item[c])));
    const widths = columns.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
    // Patterns are long paths: they are shown whole, as code, not cut to fit a table cell.
    const lines = cells.map((row) =>
      row
        .map((text, i) => text.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    );
    blocks.push({ kind: 'code', text: lines.join('\n') });
  } else if (items.length > 0) {
    blocks.push({ kind: 'code', text: items.map(show).join('\n') });
  } else {
    blocks.push({ kind: 'code', text: JSON.stringify(response.data ?? null, null, 2) });
  }
  const types = data?.deviceTypes === undefined ? '' : `For ${show(data.deviceTypes)} devices. `;
  blocks.push({
    kind: 'context',
    text: `${types}\`/fw gateway run <fmc-device> <METHOD> <link> [json-body]\` sends one.`,
  });
  return { summary: 'Gateway: supported device requests', blocks, visibility: 'ephemeral' };
}

export interface GatewayRequestLabel {
  method: string;
  link: string;
  deviceName: string;
}

function statusLine(response: CommandResponse): string {
  switch (response.status) {
    case 'responded':
      return 'The device answered.';
    case 'pending':
      return 'The device has not answered yet; fwbot keeps asking and posts the answer here.';
    case 'timeout':
      return 'The device did not answer within 70 seconds; fwbot keeps asking and posts the answer here.';
    case 'failed':
      return `The request failed: ${response.message ?? 'SCC gave no reason'}.`;
    default:
      return `Status: ${show(response.status)}.`;
  }
}

export function renderCommandResponse(
  response: CommandResponse,
  request: GatewayRequestLabel | undefined,
  meta: RenderMeta,
): View {
  const data = record(response.data);
  const title = request
    ? `${request.method} ${request.link} on ${request.deviceName}`
    : `Gateway request ${response.requestId ?? ''}`;
  const changes = request !== undefined && request.method !== 'GET';
  const heading = changes
    ? `${mention(meta)} sent ${code(`${request.method} ${request.link}`)} to ${request.deviceName}.`
    : `*${title}*`;
  const blocks: ViewBlock[] = [
    { kind: 'text', text: `${heading}\n${statusLine(response)}` },
    ...fieldBlocks([
      ['Request ID', response.requestId],
      ['Origin', response.responseOrigin],
      ['Device status', data?.responseStatus],
    ]),
  ];
  const body = data?.responseBody;
  if (typeof body === 'string' && body !== '') {
    blocks.push({
      kind: 'code',
      text: prettyJson(body),
      filename: `gateway-${response.requestId ?? 'answer'}.json`,
    });
  }
  if (response.status === 'pending' || response.status === 'timeout') {
    blocks.push({
      kind: 'context',
      text: `\`/fw gateway result ${response.requestId ?? '<request-id>'}\` asks again.`,
    });
  }
  // A request that may change the FMC is announced where it was asked; reads stay private.
  return {
    summary: `${title}: ${show(response.status)}`,
    blocks,
    visibility: changes ? 'in_channel' : 'ephemeral',
  };
}

export interface FmcDomain {
  deviceName: string;
  deviceUid: string;
  /** SCC's `fmcDomainUid` of the FMC's device record; absent when SCC does not know it (yet). */
  domainUid: string | undefined;
}

/** The domain UUID of an FMC and a link that uses it, ready to copy into `gateway run`. */
export function renderFmcDomain(domain: FmcDomain): View {
  const title = `Domain of the FMC ${domain.deviceName}`;
  if (domain.domainUid === undefined) {
    return {
      summary: `${title}: not known`,
      blocks: [
        {
          kind: 'text',
          text: `*${title}*\nSCC's record of ${domain.deviceName} names no FMC domain (\`fmcDomainUid\`), so fwbot cannot tell it. It may not be provisioned yet: \`/fw devices ${domain.deviceName}\` shows its state.`,
        },
      ],
      visibility: 'ephemeral',
    };
  }
  const link = `/api/fmc_config/v1/domain/${domain.domainUid}/object/networks`;
  return {
    summary: `${title}: ${domain.domainUid}`,
    blocks: [
      { kind: 'text', text: `*${title}*` },
      ...fieldBlocks([
        ['Domain UUID', domain.domainUid],
        ['FMC', `${domain.deviceName} (${domain.deviceUid})`],
      ]),
      { kind: 'code', text: domain.domainUid },
      {
        kind: 'context',
        text: `Configuration paths take it after \`/domain/\`: \`/fw gateway run ${domain.deviceName} GET ${link}\``,
      },
    ],
    visibility: 'ephemeral',
  };
}
