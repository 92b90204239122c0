// Events API events fwbot listens to, by name. Each name here must be in manifest.yml's
// `settings.event_subscriptions.bot_events` and the reverse (test/slack/manifest.test.ts checks both).
// Bolt acknowledges events itself before any listener runs.
import type { App } from '@slack/bolt';
import type { SurfaceDeps } from '../deps.js';
import { registerHomeOpened } from './home.js';

export const EVENTS_LISTENED = ['app_home_opened'] as const;

export function register(app: App, deps: SurfaceDeps): void {
  registerHomeOpened(app, deps);
}
