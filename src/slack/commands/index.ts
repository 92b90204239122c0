// Slash-command surfaces: /fw.

import type { SurfaceDeps } from '../deps.js';
import type { Listeners } from '../router.js';
import { registerFwCommand } from './fw.js';

export function register(app: Listeners, deps: SurfaceDeps): void {
  registerFwCommand(app, deps);
}
