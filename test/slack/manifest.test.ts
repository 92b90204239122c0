// manifest.yml is what people paste into "Create an app from a manifest": it must declare the /fw
// command the code registers, interactivity, Socket Mode, and exactly the bot scopes the code needs —
// derived here from the code itself: the method table of fwbot's one Slack Web API module (src/slackApi/)
// plus a scan of src/ for Web API calls made around it, each mapped to its scopes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FW_COMMAND } from '../../src/slack/commands/fw.js';
import { EVENTS_LISTENED } from '../../src/slack/events/index.js';
import { BOT_SCOPES, REDIRECT_PATH } from '../../src/slack/install.js';
import { extraScopes, slackMethodsUsed } from '../../src/slackApi/slackApi.js';

/** Bot scopes of the Web API methods fwbot may call (docs.slack.dev method reference). */
const METHOD_SCOPES: Record<string, readonly string[]> = {
  'auth.test': [],
  'chat.postMessage': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'chat.update': ['chat:write'],
  'chat.delete': ['chat:write'],
  'views.open': [],
  'views.update': [],
  'views.push': [],
  'usergroups.users.list': ['usergroups:read'],
  'conversations.open': ['im:write'],
  // History is read in whatever conversation fwbot answers in: public, private, direct and group DMs.
  'conversations.history': ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
  'conversations.replies': ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
  'files.getUploadURLExternal': ['files:write'],
  'files.completeUploadExternal': ['files:write'],
  'users.info': ['users:read'],
  'views.publish': [],
  'users.conversations': ['channels:read', 'groups:read'],
  'conversations.info': ['channels:read', 'groups:read'],
};

/** Web API families; `.users.` and friends also name arrays in the code, so only real methods count. */
const FAMILIES = [
  'chat',
  'views',
  'conversations',
  'usergroups',
  'users',
  'files',
  'auth',
  'reactions',
  'pins',
];
const USERS_METHODS = new Set(['info', 'list', 'lookupByEmail', 'conversations', 'getPresence', 'identity']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `x.chat.postMessage(` and the like anywhere in src/: Web API calls made outside the surface's table. */
function scannedMethods(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const call = new RegExp(`\\.(${FAMILIES.join('|')})\\.([a-zA-Z]+(?:\\.[a-zA-Z]+)?)\\(`, 'g');
  for (const file of sourceFiles('src')) {
    for (const match of readFileSync(file, 'utf8').matchAll(call)) {
      const [, family, method] = match;
      if (family === 'users' && !USERS_METHODS.has(method ?? '')) continue;
      const name = `${family}.${method}`;
      found.set(name, [...(found.get(name) ?? []), file]);
    }
  }
  return found;
}

/** `.event('name'` anywhere in src/: the Events API events some listener is registered for. */
function scannedEvents(): Set<string> {
  const found = new Set<string>();
  for (const file of sourceFiles('src')) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\.event\(\s*['"]([a-z_.]+)['"]/g))
      if (match[1]) found.add(match[1]);
  }
  return found;
}

const manifest = parse(readFileSync('manifest.yml', 'utf8')) as {
  display_information: { name: string; description: string };
  features: {
    app_home?: {
      home_tab_enabled?: boolean;
      messages_tab_enabled?: boolean;
      messages_tab_read_only_enabled?: boolean;
    };
    bot_user: { display_name: string; always_online: boolean };
    slash_commands: { command: string; description: string; usage_hint: string; should_escape: boolean }[];
  };
  oauth_config: { redirect_urls?: string[]; scopes: { bot: string[] } };
  settings: {
    interactivity: { is_enabled: boolean };
    socket_mode_enabled: boolean;
    event_subscriptions?: { bot_events?: string[] };
  };
};

describe('manifest.yml', () => {
  it('declares the /fw command the code registers, within Slack’s limits', () => {
    expect(manifest.features.slash_commands).toHaveLength(1);
    const [command] = manifest.features.slash_commands;
    expect(command?.command).toBe(FW_COMMAND);
    expect(command?.command.length).toBeLessThanOrEqual(32);
    expect(command?.description.length).toBeGreaterThan(0);
    expect(command?.usage_hint.length).toBeLessThanOrEqual(1000);
    expect(command?.usage_hint).toContain('help');
  });

  it('has a bot user, interactivity and Socket Mode', () => {
    expect(manifest.display_information.name.length).toBeLessThanOrEqual(35);
    expect(manifest.features.bot_user.display_name).toMatch(/^[a-z0-9._-]{1,80}$/);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings.socket_mode_enabled).toBe(true);
  });

  it('asks for exactly the scopes of the Web API methods the code calls', () => {
    const scanned = scannedMethods();
    const methods = new Set([...Object.keys(slackMethodsUsed), ...scanned.keys()]);
    const unknown = [...methods].filter((method) => !(method in METHOD_SCOPES));
    expect(unknown, 'methods called in src/ without a scope entry in this test').toEqual([]);
    const needed = new Set<string>(extraScopes);
    for (const method of methods) for (const scope of METHOD_SCOPES[method] ?? []) needed.add(scope);
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...needed].sort());
  });

  it('agrees with the surface’s own table of methods and scopes', () => {
    for (const [method, scopes] of Object.entries(slackMethodsUsed))
      expect(METHOD_SCOPES[method]).toEqual(scopes);
  });

  it('subscribes to exactly the events the code listens to, and no others', () => {
    const listened = scannedEvents();
    // The table the app registers from names each listener's event; the scan finds them in the code.
    expect([...listened].sort()).toEqual([...EVENTS_LISTENED].sort());
    const subscribed = manifest.settings.event_subscriptions?.bot_events ?? [];
    expect(new Set(subscribed).size, 'an event subscribed twice').toBe(subscribed.length);
    expect([...subscribed].sort(), 'manifest bot_events against the listeners in src/').toEqual(
      [...listened].sort(),
    );
  });

  it('carries what installing in many workspaces needs (OAuth mode): the redirect URL, the uninstall events, the scopes the install asks for', () => {
    const [redirect] = manifest.oauth_config.redirect_urls ?? [];
    expect(redirect).toBeDefined();
    expect(new URL(redirect ?? '').protocol).toBe('https:');
    expect(new URL(redirect ?? '').pathname).toBe(REDIRECT_PATH);
    expect(manifest.settings.event_subscriptions?.bot_events).toEqual(
      expect.arrayContaining(['app_uninstalled', 'tokens_revoked']),
    );
    expect([...BOT_SCOPES].sort()).toEqual([...manifest.oauth_config.scopes.bot].sort());
  });

  it('enables the Home tab the app_home_opened listener publishes', () => {
    expect(manifest.settings.event_subscriptions?.bot_events).toContain('app_home_opened');
    expect(manifest.features.app_home?.home_tab_enabled).toBe(true);
  });

  it('makes every Slack Web API call through src/slackApi/', () => {
    const direct = [...scannedMethods()].flatMap(([method, files]) =>
      files.filter((file) => !file.startsWith(join('src', 'slackApi'))).map((file) => `${file}: ${method}`),
    );
    expect(direct).toEqual([]);
  });
});
