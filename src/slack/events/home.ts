// `app_home_opened`: the person looks at fwbot's Home tab, so it is published for them now, and from now on
// changes that concern them update it (src/home/). The Messages tab fires the same event: ignored. The Home
// is the person's in the workspace the event came from (the workspace binding's settled origin: the
// envelope's team, which Bolt authorized), so it is published and role-checked there.
import type { App } from '@slack/bolt';
import { z } from 'zod';
import { workspaceOf } from '../../model/workspace.js';
import type { SurfaceDeps } from '../deps.js';
import { originIn } from '../workspaceBinding.js';

const HomeOpened = z.object({
  type: z.literal('app_home_opened'),
  user: z.string().regex(/^[UW][A-Z0-9]{2,20}$/),
  tab: z.string().optional(),
});

export function registerHomeOpened(app: App, deps: SurfaceDeps): void {
  app.event('app_home_opened', async ({ event, body, context }) => {
    const home = deps.home;
    if (!home) return;
    // Slack delivers an event again when its ack was late (HTTP retries, Socket Mode redeliveries).
    const eventId = (body as { event_id?: unknown }).event_id;
    if (typeof eventId === 'string' && !(await deps.dedupe.firstSight(`event:${eventId}`))) return;
    const opened = HomeOpened.safeParse(event);
    if (!opened.success) {
      deps.log.warn('an app_home_opened event fwbot cannot read; ignored');
      return;
    }
    if (opened.data.tab !== undefined && opened.data.tab !== 'home') return;
    // Bound apps always settle an origin; without one (tests of the listener alone), Bolt's own word.
    const origin = originIn(context) ?? { teamId: context.teamId, enterpriseId: context.enterpriseId };
    try {
      await home.opened(opened.data.user, workspaceOf(origin));
    } catch (error) {
      deps.log.error({ err: error }, 'could not publish a Home that was opened');
    }
  });
}
