// The demo's embedded defaults: the console's people and the role policy that lets them show every flow
// (alice asks, bob approves, carol only reads, admin does anything), the console's channel, and the
// simulator profile used when no SCC profile is configured. Nothing here is used by `npm start`.
// The embedded policy grants roles to everyone ('*'); that is safe only on the built-in simulator, so with
// a configured SCC profile the demo takes its policy from the profiles file or does not start.

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

export type DemoPolicyChoice = { ok: true; policy: RolePolicy } | { ok: false; problem: string };

/**
 * The policy the demo runs with: the profiles file's when it has one; otherwise the embedded one, but
 * only when no SCC profile is configured (the demo then runs on its built-in simulator). A configured
 * profile is a real SCC (or one the demo did not start), where letting everyone operate is not a demo.
 */
export function chooseDemoPolicy(options: {
  configuredProfiles: readonly string[];
  filePolicy: RolePolicy | null;
  slackEveryone: boolean;
}): DemoPolicyChoice {
  if (options.filePolicy !== null) return { ok: true, policy: options.filePolicy };
  if (options.configuredProfiles.length === 0) {
    return { ok: true, policy: demoPolicy({ slackEveryone: options.slackEveryone }) };
  }
  const names = options.configuredProfiles.map((name) => `\`${name}\``).join(', ');
  const which = options.configuredProfiles.length === 1 ? `profile ${names} is` : `profiles ${names} are`;
  return {
    ok: false,
    problem:
      `The demo lets everyone in only on its built-in simulator, and SCC ${which} configured, so it needs ` +
      'a role policy: add a `policy` section to the profiles file named by FWBOT_PROFILES (see ' +
      'docs/operating/configuration.md), or unset SCC_API_TOKEN and FWBOT_PROFILES to use the simulator.',
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
