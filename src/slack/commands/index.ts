// Slash-command surfaces: /fw.
import type { App } from '@slack/bolt';
import type { SurfaceDeps } from '../deps.js';
import { registerFwCommand } from './fw.js';

export function register(app: App, deps: SurfaceDeps): void {
  registerFwCommand(app, deps);
}
