// What a user sees when SCC refuses or fails: one case per status, from real conditions in the simulator
// where it has them (a duplicate tenant name, an unknown run, a read-only token) and from its fault
// injection otherwise (429, 500). Internal failures show a reference that finds the log line.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, type Harness, startHarness, USERS } from './support/harness.js';

const BROKEN_CHANNEL = 'C0BROKEN001';

describe('SCC errors as users see them', () => {
  let h: Harness;
  beforeAll(async () => {
    // Port 1 (tcpmux) is closed on any ordinary machine: connections are refused at once.
    const nowhere = 'http://127.0.0.1:1';
    h = await startHarness({
      tokens: { readonly: 'sim-read-only', broken: 'sim-super-admin' },
      baseUrls: { broken: nowhere },
      channelProfiles: { [BROKEN_CHANNEL]: 'broken' },
    });
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  async function ask(text: string, options: { userId?: string; channelId?: string } = {}): Promise<string> {
    const { responseUrl } = await h.command(text, { userId: options.userId ?? USERS.admin, ...options });
    return blocksText((await h.reply(responseUrl)).args);
  }

  it('400: a search on a field SCC cannot search', async () => {
    const text = await ask('devices nosuchfield:x');
    expect(text).toMatch(
      /^Could not list the devices\. SCC refused the request \(400 INVALID_INPUT\): Field 'nosuchfield' is not searchable\. Searchable fields: uid, name, /,
    );
  });

  it('403: a change with a read-only token', async () => {
    const text = await ask('tenants mcd enable globex-apj --profile readonly');
    expect(text).toBe(
      'Could not enable Multicloud Defense. SCC refused the request (403 FORBIDDEN): User ' +
        'auditor@acme-msp.example has a read-only role and cannot make changes',
    );
  });

  it('404: an upgrade run that does not exist', async () => {
    const text = await ask('vpn run 3fa85f64-5717-4562-b3fc-2c963f66afa6');
    expect(text).toMatch(
      /SCC refused the request \(404 NOT_FOUND\): Secure Client upgrade run 3fa85f64-5717-4562-b3fc-2c963f66afa6 not found$/,
    );
  });

  it('a tenant name that is taken: refused before SCC is asked (not a 409 later)', async () => {
    const text = await ask('tenants create Contoso-EU');
    expect(text).toBe(
      'A tenant named `Contoso-EU` already exists in the MSP portal as `contoso-eu` (SCC compares names without regard to case). Choose another name.',
    );
    expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(0);
  });

  it('429: SCC limiting the rate, with when to try again', async () => {
    h.sim.faults.add({ path: '^/v1/inventory/', status: 429, retryAfterSeconds: 30 });
    const text = await ask('devices');
    expect(text).toMatch(
      /SCC is limiting the rate of requests \(429 TOO_MANY_REQUESTS\): .*\. Try again in 30 s\.$/,
    );
  });

  it('500: SCC failing', async () => {
    h.sim.faults.add({ path: '^/v1/inventory/', status: 500 });
    const text = await ask('devices');
    expect(text).toMatch(/SCC could not handle the request \(500 SERVER_ERROR\): Internal server error/);
  });

  it('internal failures show a short reference that is on the log line with the request id', async () => {
    const text = await ask('devices', { channelId: BROKEN_CHANNEL });
    const ref = /\(ref ([0-9a-f]{6})\)/.exec(text)?.[1];
    expect(text).toMatch(/^SCC could not be reached\. \(ref [0-9a-f]{6}\)$/);
    const line = JSON.parse(await h.waitForLog(`"ref":"${ref}"`)) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 50, ref, msg: 'internal error' });
    expect(line.requestId).toMatch(/^[0-9a-f]{12}$/);
  });
});
