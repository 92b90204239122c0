// Modal surfaces: /fw forms being submitted. (Forms are opened from commands/, and the token reveal
// modal from actions/.)

import type { SurfaceDeps } from '../deps.js';
import type { Listeners } from '../router.js';
import { registerModalSubmissions } from './submit.js';

export function register(app: Listeners, deps: SurfaceDeps): void {
  registerModalSubmissions(app, deps);
}
