// Announcements of changes, posted in the channel: who asked for what, and the SCC transaction that
// follows it. Tracking the transaction to its end is the tracking queue's job; this says where it starts.
import type { RenderMeta } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import type { CdoTransaction } from '../scc/generated/models.js';
import { fieldBlocks, humanEnum } from './format.js';
import { userMention } from './mrkdwn.js';

export function mention(meta: RenderMeta): string {
  return userMention(meta.actor.userId);
}

export interface AnnouncementSpec {
  /** Completes "<@U…> asked to …" / "<@U…> …", e.g. `create tenant *acme-eu*`. */
  sentence: string;
  /** `asked` for work SCC carries on with (202), `done` for changes SCC made at once. */
  tense: 'asked' | 'done';
  transaction?: CdoTransaction | undefined;
  details?: [label: string, value: unknown][];
  /** What happens next, e.g. "fwbot reports in this thread when SCC is done." */
  next?: string;
}

export function transactionFields(transaction: CdoTransaction): [string, unknown][] {
  return [
    ['Transaction', transaction.transactionUid],
    ['Status', humanEnum(transaction.cdoTransactionStatus)],
  ];
}

export function announcement(spec: AnnouncementSpec, meta: RenderMeta): View {
  const who = mention(meta);
  const line = spec.tense === 'asked' ? `${who} asked to ${spec.sentence}.` : `${who} ${spec.sentence}.`;
  const details: [string, unknown][] = [
    ...(spec.details ?? []),
    ...(spec.transaction ? transactionFields(spec.transaction) : []),
  ];
  const blocks: ViewBlock[] = [{ kind: 'text', text: line }];
  if (details.length > 0) blocks.push(...fieldBlocks(details));
  const next =
    spec.next ??
    (spec.transaction ? 'fwbot follows the transaction and reports here when SCC is done.' : undefined);
  if (next) blocks.push({ kind: 'context', text: next });
  return { summary: line.replace(/\*/g, ''), blocks, visibility: 'in_channel' };
}
