// Tenant creation behind SCC's limit of one every 30 seconds. When the tracking queue offers it
// (deps.tenantCreation), `/fw tenants create` is announced in the channel and queued with that
// announcement as its thread; the queue says the place and expected start there, creates the tenant
// when its turn comes and follows the transaction. Without the queue the operation runs directly.
import type { Operation, RawArgs } from '../catalogue/operation.js';
import type { View } from '../render/view.js';
import type { Delivery } from './delivery.js';
import type { SurfaceDeps } from './deps.js';
import type { RequestContext } from '../dispatch/request.js';

/** The operation that creates tenants is the one that calls SCC's createTenant. */
export function createsTenant(op: Operation): boolean {
  return op.scc.includes('createTenant');
}

function text(raw: RawArgs, name: string): string | undefined {
  const value = raw[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Announces and queues a validated `tenants create`; the raw names are that operation's params. */
export async function queueTenantCreation(
  deps: SurfaceDeps,
  request: RequestContext,
  delivery: Delivery,
  raw: RawArgs,
  profile: string,
): Promise<void> {
  const queue = deps.tenantCreation;
  const tenantName = text(raw, 'name');
  if (!queue || tenantName === undefined) throw new Error('tenant creation queued without a queue or a name');
  const { userId, channelId } = request.actor;
  const line = `<@${userId}> asked to create tenant *${tenantName}*.`;
  const announcement: View = {
    summary: line.replace(/\*/g, ''),
    blocks: [
      { kind: 'text', text: line },
      {
        kind: 'context',
        text: 'SCC creates at most one tenant every 30 seconds, so the creation is queued; fwbot reports here when it starts and when SCC is done.',
      },
    ],
    visibility: 'in_channel',
  };
  const ts = await delivery.post(announcement);
  if (ts === undefined) {
    const note =
      'fwbot is not a member of this channel, so it has no thread to report the queued creation in. ' +
      'Invite it (`/invite @fwbot`) and ask again; nothing was created.';
    await delivery.privately({
      summary: note,
      blocks: [{ kind: 'text', text: note }],
      visibility: 'ephemeral',
    });
    return;
  }
  const queued = await queue.enqueue({
    tenantName,
    displayName: text(raw, 'display-name'),
    salesOrderNumber: text(raw, 'sales-order'),
    thread: { channelId, threadTs: ts, requesterId: userId, profile },
  });
  request.log.info({ ts, place: queued.place }, 'tenant creation queued');
}
