// A world kept in a file (the demo's ./.fwbot): restored at start with everything made before the stop,
// ids minted after the restart never repeating earlier ones, work that was in flight ended in ERROR, and a
// file of another seed or shape replaced by the seed, saying why.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_START_TIME, type StartSimulatorOptions, startSimulator } from '../../src/simulator/index.js';
import { INTERRUPTED } from '../../src/simulator/state/saved.js';
import { call, eventsOf, items, obj, str } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'fwbot-sim-world-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOUR = 3_600_000;

/** A simulator on `file`, its clock `hours` after the default start (each restart later than the last). */
async function simulatorOn(file: string, hours: number, options: StartSimulatorOptions = {}) {
  const sim = await startSimulator({
    worldFile: file,
    startTime: DEFAULT_START_TIME + hours * HOUR,
    ...options,
  });
  const api = (method: string, path: string, body?: unknown) =>
    call(sim.url, method, path, body === undefined ? {} : { body });
  return { sim, api };
}

const tenantNames = async (api: Awaited<ReturnType<typeof simulatorOn>>['api']) =>
  items(await api('GET', '/v1/msp/tenants')).map((t) => t.name);

describe('a world kept in a file', () => {
  it('comes back after a restart with what was made, and mints ids it never minted before', async () => {
    const file = join(dir, 'kept.v8');
    const first = await simulatorOn(file, 0);
    expect(first.sim.world).toEqual({ kind: 'seeded', file });
    const created = obj(await first.api('POST', '/v1/msp/tenants/create', { tenantName: 'kept-tenant' }));
    first.sim.clock.advance(60_000);
    await first.sim.stop();

    const second = await simulatorOn(file, 1);
    try {
      expect(second.sim.world).toMatchObject({ kind: 'restored', file, interrupted: 0 });
      expect(await tenantNames(second.api)).toContain('kept-tenant');
      const tx = obj(await second.api('GET', `/v1/transactions/${str(created.transactionUid)}`));
      expect(tx.cdoTransactionStatus).toBe('DONE');
      const next = obj(await second.api('POST', '/v1/msp/tenants/create', { tenantName: 'after-restart' }));
      const known = new Set([...second.sim.state.tenants.keys(), str(created.transactionUid)]);
      expect(known.has(str(next.transactionUid))).toBe(false);
      expect(next.transactionUid).not.toBe(created.transactionUid);
    } finally {
      await second.sim.stop();
    }
  });

  it('keeps the change log and the audit log, with an open change log still open', async () => {
    const file = join(dir, 'logs.v8');
    const first = await simulatorOn(file, 0);
    await first.api('POST', '/_sim/devices/asa-hq-01/stage', { username: 'kept@customer.example' });
    await first.api('POST', '/_sim/tenants/acme-msp/logins', { username: 'ops.admin@acme-msp.example' });
    const before = items(await first.api('GET', '/v1/changelogs'));
    await first.sim.stop();

    const second = await simulatorOn(file, 1);
    try {
      expect(items(await second.api('GET', '/v1/changelogs'))).toEqual(before);
      const audit = items(
        await call(second.sim.url, 'GET', '/v1/auditlogs', { query: { q: 'username:ops.admin*' } }),
      );
      expect(audit.map((e) => e.eventType)).toEqual(['USER_LOGGED_IN']);
      // The next change joins the change log that was open.
      await second.api('POST', '/_sim/devices/asa-hq-01/stage', { description: 'again' });
      const [log] = items(await second.api('GET', '/v1/changelogs'));
      expect(log).toMatchObject({ uid: before[0]?.uid, status: 'ACTIVE' });
      expect(eventsOf(log).length).toBe(2);
    } finally {
      await second.sim.stop();
    }
  });

  it('ends in ERROR the work that was in flight when it stopped, and frees the names it held', async () => {
    const file = join(dir, 'in-flight.v8');
    const first = await simulatorOn(file, 0);
    const created = obj(await first.api('POST', '/v1/msp/tenants/create', { tenantName: 'half-made' }));
    await first.sim.stop();

    const second = await simulatorOn(file, 1);
    try {
      expect(second.sim.world).toMatchObject({ kind: 'restored', interrupted: 1 });
      const tx = obj(await second.api('GET', `/v1/transactions/${str(created.transactionUid)}`));
      expect(tx).toMatchObject({ cdoTransactionStatus: 'ERROR', errorMessage: INTERRUPTED });
      expect(await tenantNames(second.api)).not.toContain('half-made');
      expect((await second.api('POST', '/v1/msp/tenants/create', { tenantName: 'half-made' })).status).toBe(
        202,
      );
    } finally {
      await second.sim.stop();
    }
  });

  it('is replaced by the seed when it is of another seed or not a world, saying why', async () => {
    const file = join(dir, 'other.v8');
    const first = await simulatorOn(file, 0, { seed: 'other' });
    await first.sim.stop();
    const second = await simulatorOn(file, 1);
    expect(second.sim.world).toEqual({
      kind: 'seeded',
      file,
      discarded: 'it was of seed "other", not "default"',
    });
    await second.sim.stop();

    writeFileSync(file, 'not a world');
    const third = await simulatorOn(file, 2);
    try {
      expect(third.sim.world).toMatchObject({ kind: 'seeded', discarded: expect.any(String) });
      expect(third.sim.state.seed).toBe('default');
    } finally {
      await third.sim.stop();
    }
  });
});
