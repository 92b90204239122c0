// Which Bolt mode createFwbotApp builds: Socket Mode with an app-level token, otherwise HTTP with
// signature verification — and never HTTP without a signing secret.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { sccClientsFrom } from '../../src/app/sccClients.js';
import { createCatalogue } from '../../src/catalogue/index.js';
import { Dispatcher } from '../../src/dispatch/dispatcher.js';
import { governanceOf } from '../../src/dispatch/governance.js';
import { MemoryRevealGrants } from '../../src/dispatch/reveals.js';
import { AccessControl } from '../../src/policy/access.js';
import { MemoryDeduper } from '../../src/redis/dedupe.js';
import { createFwbotApp } from '../../src/slack/app.js';
import type { FwbotDeps } from '../../src/slack/deps.js';
import { RecordingGate, RecordingTracker } from './support/harness.js';

function deps(): FwbotDeps {
  const catalogue = createCatalogue();
  const access = new AccessControl({ policy: null, channels: new Map(), profiles: [] });
  const scc = sccClientsFrom(new Map());
  const log = pino({ level: 'silent' });
  return {
    catalogue,
    scc,
    access,
    tracker: new RecordingTracker(),
    dispatcher: new Dispatcher({
      access,
      scc,
      lookup: (id) => catalogue.get(id),
      governance: governanceOf(catalogue.operations, {}),
      approvals: new RecordingGate(),
      reveals: new MemoryRevealGrants(),
      log,
    }),
    dedupe: new MemoryDeduper(),
    log: pino({ level: 'silent' }),
  };
}

describe('createFwbotApp', () => {
  it('uses Socket Mode when an app-level token is given', () => {
    const app = createFwbotApp(deps(), { botToken: 'xoxb-1', appToken: 'xapp-1-abc' });
    expect(app.mode).toBe('socket');
  });

  it('uses HTTP mode otherwise, and refuses to run it without a signing secret', () => {
    expect(createFwbotApp(deps(), { botToken: 'xoxb-1', signingSecret: 's3cret' }).mode).toBe('http');
    expect(() => createFwbotApp(deps(), { botToken: 'xoxb-1' })).toThrow(
      'HTTP mode needs the Slack signing secret',
    );
    expect(() => createFwbotApp(deps(), { botToken: 'xoxb-1', signingSecret: '' })).toThrow('signing secret');
  });
});
