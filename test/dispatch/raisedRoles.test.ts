// The role an operation needs, raised by the profiles file (`policy.operations.<id>`): read from the file,
// applied by the catalogue so that help, the dispatcher and every later check see it, refused at start-up
// when it names no operation or would lower a declared role.
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { sccClientsFrom } from '../../src/app/sccClients.js';
import { createCatalogue } from '../../src/catalogue/index.js';
import { ConfigError } from '../../src/config/issues.js';
import { loadConfig } from '../../src/config.js';
import { Dispatcher } from '../../src/dispatch/dispatcher.js';
import { governanceOf } from '../../src/dispatch/governance.js';
import { MemoryRevealGrants } from '../../src/dispatch/reveals.js';
import { PermissionError } from '../../src/model/errors.js';
import { AccessControl } from '../../src/policy/access.js';
import { renderText } from '../../src/render/text.js';
import { issuesOf, ProfilesFiles } from '../config/support.js';
import { RecordingGate } from '../slack/support/harness.js';

const files = new ProfilesFiles();
afterAll(() => files.cleanup());

const VIEWER = 'U0VIEWER01';
const OPERATOR = 'U0OPERATR1';
const CHANNEL = 'C0NETOPS01';

describe('roles raised by the policy file', () => {
  it('reads policy.operations from the profiles file', async () => {
    const path = await files.write(
      'policy:\n  workspace: { viewer: ["*"] }\n  operations: { changelog: operator }\n',
    );
    const config = loadConfig({ SCC_API_TOKEN: 'scc-token-for-tests', FWBOT_PROFILES: path });
    expect(config.operationRoles).toEqual({ changelog: 'operator' });
  });

  it('refuses a role that is not one of the four, naming the key', async () => {
    const path = await files.write('policy:\n  operations: { changelog: superuser }\n');
    const issues = issuesOf({ SCC_API_TOKEN: 'scc-token-for-tests', FWBOT_PROFILES: path });
    expect(issues.map((issue) => issue.key)).toContain('policy.operations.changelog');
  });

  it('raises the role the catalogue, help and the dispatcher see', async () => {
    const catalogue = createCatalogue({ roles: { changelog: 'operator' } });
    expect(catalogue.get('changelog')?.role).toBe('operator');
    expect(createCatalogue().get('changelog')?.role).toBe('viewer');
    expect(renderText(catalogue.help('changelog'))).toContain('operator');
    expect(renderText(createCatalogue().help('changelog'))).not.toContain('operator');

    const access = new AccessControl({
      policy: {
        workspace: { viewer: ['*'], operator: [OPERATOR], approver: [], admin: [] },
        channels: new Map(),
      },
      channels: new Map(),
      profiles: ['default'],
    });
    const dispatcher = new Dispatcher({
      access,
      scc: sccClientsFrom(new Map()),
      lookup: (id) => catalogue.get(id),
      governance: governanceOf(catalogue.operations, {}),
      approvals: new RecordingGate(),
      reveals: new MemoryRevealGrants(),
      log: pino({ level: 'silent' }),
    });
    const op = catalogue.get('changelog');
    if (!op) throw new Error('changelog is declared');
    const request = (userId: string) => ({
      requestId: 'r1',
      actor: { userId, channelId: CHANNEL },
      log: pino({ level: 'silent' }),
    });
    await expect(
      dispatcher.authorize(request(VIEWER), op),
      'a viewer no longer runs it',
    ).rejects.toBeInstanceOf(PermissionError);
    await expect(dispatcher.authorize(request(OPERATOR), op)).resolves.toBeDefined();
  });

  it('refuses an unknown operation and a lowered role, naming each key', () => {
    const attempt = () => createCatalogue({ roles: { 'no.such': 'admin', 'alerts.subscribe': 'viewer' } });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const text = String((error as Error).message);
      expect(text).toContain('policy.operations.no.such');
      expect(text).toContain('policy.operations.alerts.subscribe');
      expect(text).toMatch(/never lower/);
    }
  });
});
