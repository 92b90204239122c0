// Events API events fwbot listens to, by name. Each name here must be in manifest.yml's
// `settings.event_subscriptions.bot_events` and the reverse (test/slack/manifest.test.ts checks both).
// Bolt acknowledges events itself before any listener runs.
import type { App } from '@slack/bolt';
import type { SurfaceDeps } from '../deps.js';
import { registerHomeOpened } from './home.js';

// app_uninstalled and tokens_revoked are registered beside the surface's listeners (uninstall.ts, in app.ts).
export const EVENTS_LISTENED = ['app_home_opened', 'app_uninstalled', 'tokens_revoked'] as const;

export function register(app: App, deps: SurfaceDeps): void {
  registerHomeOpened(app, deps);
}
