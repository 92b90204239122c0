// Button surfaces: paging, sharing, revealing a generated token, command buttons, and link buttons (report downloads),
// which Slack reports as clicks too and which only need an ack.
import type { AckFn } from '@slack/bolt';
import type { SurfaceDeps } from '../deps.js';
import type { Listeners } from '../router.js';
import { registerCommandButtons } from './command.js';
import { actionPattern } from './interaction.js';
import { registerPaging } from './paging.js';
import { registerReveal } from './reveal.js';
import { registerShare } from './share.js';

export const LINK_ACTION = 'fw.url';

export function register(app: Listeners, deps: SurfaceDeps): void {
  registerPaging(app, deps);
  registerShare(app, deps);
  registerReveal(app, deps);
  registerCommandButtons(app, deps);
  app.action(actionPattern(LINK_ACTION), async ({ ack }) => {
    await (ack as AckFn<void>)();
  });
}
