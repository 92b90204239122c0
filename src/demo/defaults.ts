// The demo's embedded defaults: the console's people and the role policy that lets them show every flow
// (alice asks, bob approves, carol only reads, admin does anything), the console's channel, and the
// simulator profile used when no SCC profile is configured. Nothing here is used by `npm start`.

import type { SccProfile } from '../config/endpoints.js';
import { Secret } from '../config/secret.js';
import { EVERYONE, type RolePolicy } from '../config.js';
import type { ConsoleUser } from '../console/output.js';
import { DEMO_TOKENS } from '../simulator/index.js';

export const CONSOLE_CHANNEL = 'C0DEMOCONSOLE';

export const DEMO_USERS: readonly ConsoleUser[] = [
  { name: 'alice', id: 'U0DEMOALICE', roles: 'operator: runs changes, asks for deletes' },
  { name: 'bob', id: 'U0DEMOBOB01', roles: 'approver: approves or rejects others’ requests' },
  { name: 'carol', id: 'U0DEMOCAROL', roles: 'viewer: reads only' },
  { name: 'admin', id: 'U0DEMOADMIN', roles: 'admin: everything, --profile too' },
];

function idOf(name: string): string {
  const user = DEMO_USERS.find((u) => u.name === name);
  if (!user) throw new Error(`no demo user ${name}`);
  return user.id;
}

/**
 * The demo's policy. With Slack connected, everyone in the workspace may also operate and approve (the
 * simulator is a sandbox; the four-eyes rule still refuses approving one's own request).
 */
export function demoPolicy(options: { slackEveryone: boolean }): RolePolicy {
  const everyone = options.slackEveryone ? [EVERYONE] : [];
  return {
    workspace: {
      viewer: [EVERYONE],
      operator: [idOf('alice'), idOf('admin'), ...everyone],
      approver: [idOf('bob'), idOf('admin'), ...everyone],
      admin: [idOf('admin')],
    },
    channels: new Map(),
  };
}

/** The `default` profile on the in-process simulator, as the super-admin of its MSP portal. */
export function simulatorProfile(baseUrl: string): SccProfile {
  return {
    name: 'default',
    baseUrl,
    token: new Secret(DEMO_TOKENS.superAdmin),
    tokenVariable: 'SCC_API_TOKEN',
    source: 'env',
  };
}
