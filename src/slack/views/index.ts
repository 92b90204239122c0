// Modal surfaces: /fw forms being submitted. (Forms are opened from commands/, and the token reveal
// modal from actions/.)
import type { App } from '@slack/bolt';
import type { SurfaceDeps } from '../deps.js';
import { registerModalSubmissions } from './submit.js';

export function register(app: App, deps: SurfaceDeps): void {
  registerModalSubmissions(app, deps);
}
