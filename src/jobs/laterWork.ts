// Timed work a followed kind declares for after its end (FollowKind.later: a software upgrade's proof),
// scheduled by the tracking worker right before the end is recorded. One item per thing (the timed store's
// id), so a step repeated after a crash schedules nothing twice. It speaks in the first thread that follows
// the work (the card's), on behalf of whoever asked there.
import type { Logger } from 'pino';
import type { TimedWork } from '../catalogue/operation.js';
import type { AnyTimedKind } from '../catalogue/timed/index.js';
import { kindOf, type Outcome, type TrackJob } from '../follow/index.js';
import type { Subscriber } from './payloads.js';

export interface LaterWorkDeps {
  timed: TimedWork;
  kinds: ReadonlyMap<string, AnyTimedKind>;
  now: () => number;
  log: Logger;
}

export async function scheduleLaterWork(
  deps: LaterWorkDeps,
  trackId: string,
  job: TrackJob,
  outcome: Outcome,
  subscribers: readonly Subscriber[],
): Promise<void> {
  const later = kindOf(job.request.kind).later?.(job.request as never, outcome) ?? [];
  const [first] = subscribers;
  for (const work of later) {
    const kind = deps.kinds.get(work.kind);
    // A kind this deployment does not run is a programming error: said in the log, the end still told.
    if (!kind) {
      deps.log.error({ trackId, kind: work.kind }, 'followed work names a timed kind that does not exist');
      continue;
    }
    const thread = first?.thread;
    await deps.timed.schedule(kind, {
      profile: job.profile,
      at: deps.now() + work.delayMs,
      owner: thread?.requesterId ?? 'fwbot',
      ...(thread
        ? {
            thread: {
              channelId: thread.channelId,
              threadTs: thread.threadTs,
              requesterId: thread.requesterId,
              profile: thread.profile,
              ...(thread.teamId ? { teamId: thread.teamId } : {}),
              ...(thread.enterpriseId ? { enterpriseId: thread.enterpriseId } : {}),
            },
          }
        : {}),
      payload: work.payload,
    });
  }
}
