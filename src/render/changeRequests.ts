// SCC's change requests as fwbot shows them: the tenant's list, and one request with the changes SCC's change
// log ties to it (what was changed under a ticket, by whom, when).
import type { RenderMeta } from '../model/types.js';
import type { View } from '../model/view.js';
import type { Changelog, ChangeRequest } from '../scc/generated/models.js';
import { code, fieldBlocks, NONE } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';
import { untrusted } from './untrusted.js';

export const CHANGE_REQUEST_PAGE_SIZE = 25;

export function renderChangeRequests(
  items: readonly ChangeRequest[],
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  return listView(
    {
      title: 'Change requests',
      page,
      query,
      columns: ['Name', 'Description', 'UUID'],
      rows: items.map((item) => [item.name, item.description, item.uid]),
      widths: [30, 60],
      hint: '`/fw change-requests show <name>` shows one, with the changes SCC’s change log ties to it.',
      empty: 'no change requests (SCC keeps them only where the tenant tracks change requests).',
    },
    meta,
  );
}

/** One change request, and each change-log event SCC tied to it, newest entity first as SCC lists them. */
export function renderChangeRequest(request: ChangeRequest, logs: readonly Changelog[]): View {
  const events = logs.flatMap((log) =>
    (log.events ?? [])
      .filter((event) => event.changeRequestUid === request.uid || event.changeRequestName === request.name)
      .map((event) => ({ entity: log.entityName ?? log.entityUid ?? 'an entity', event })),
  );
  const lines = events.map(
    ({ entity, event }) =>
      `• ${untrusted(event.date ?? 'undated')} · ${untrusted(entity)} · ${untrusted(event.action ?? 'change')} by ${untrusted(event.username ?? 'someone')}${event.description ? `: ${untrusted(event.description)}` : ''}`,
  );
  return {
    visibility: 'ephemeral',
    summary: `Change request ${request.name}`,
    blocks: [
      { kind: 'header', text: `Change request ${request.name}` },
      ...fieldBlocks([
        ['Description', request.description ?? NONE],
        ['UUID', code(request.uid)],
      ]),
      {
        kind: 'text',
        text:
          lines.length > 0
            ? `*Changes tied to it in SCC’s change log (${lines.length}):*\n${lines.slice(0, 40).join('\n')}${lines.length > 40 ? `\n…and ${lines.length - 40} more: \`/fw changelog tenant events.changeRequestName:${request.name}\`` : ''}`
            : 'SCC’s change log ties no change to it yet.',
      },
    ],
  };
}
