// Parameters and argument rules that several areas declare alike: the device / tenant / interface
// arguments, the search query, the hidden paging offset, and the page request sent to SCC.
import { PAGE_SIZE } from '../render/paging.js';
import type { CdoTransaction } from '../scc/generated/models.js';
import { toLucene } from '../scc/lucene.js';
import { offset, optionalText } from './args.js';
import type { Param, TrackRequest } from './operation.js';

export const DEVICE: Param = { name: 'device', kind: 'device', description: 'device name or UUID' };
export const TENANT: Param = {
  name: 'tenant',
  kind: 'tenant',
  description: 'tenant name, display name or UUID',
};
export const INTERFACE: Param = {
  name: 'interface',
  kind: 'interface',
  description: 'interface name, hardware name (GigabitEthernet1/2) or UUID',
};

export function queryParam(what: string): Param {
  return {
    name: 'query',
    kind: 'query',
    optional: true,
    description: `text in the ${what} name, or a Lucene query with field:value`,
  };
}

/** Set by the paging buttons (and accepted as `--offset N`); not worth a place in usage lines. */
export const OFFSET: Param = {
  name: 'offset',
  kind: 'int',
  flag: true,
  optional: true,
  hidden: true,
  description: 'how many items to skip',
};

export const listArgs = { query: optionalText(), offset: offset() };

export interface ListArgs {
  query?: string | undefined;
  offset: number;
}

/** The `limit`/`offset`/`q` of one page, as SCC's list operations take them. */
export function pageQuery(
  args: ListArgs,
  field: string | readonly string[] = 'name',
  limit: number = PAGE_SIZE,
) {
  return { q: toLucene(args.query, field), limit, offset: args.offset };
}

/**
 * A change staged on an ASA at `stagedAt` (the operation's clock), followed until it is deployed (one
 * reminder if it is not). `counted`: its own message already said what is staged on the device, so the
 * thread need not count the commands again.
 */
export function stagedTrack(
  device: { uid: string; name: string },
  label: string,
  stagedAt: number,
  counted = false,
): TrackRequest[] {
  return [
    {
      kind: 'staged',
      deviceUid: device.uid,
      deviceName: device.name,
      stagedAt,
      label,
      ...(counted ? { counted } : {}),
    },
  ];
}

/** A 202 answer to follow on the tracking queue (none when SCC sent no transaction UID). */
export function transactionTrack(transaction: CdoTransaction, label: string): TrackRequest[] {
  const uid = transaction.transactionUid;
  return uid ? [{ kind: 'transaction', transactionUid: uid, label }] : [];
}
