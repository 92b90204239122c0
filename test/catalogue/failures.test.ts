// Every operation's failure as its user reads it, checked against golden files like its success: the SCC
// calls the operation declares answer 500 (the simulator's fault rules; a change's writes, a read's reads),
// so the sentence is the operation's declared `failure` followed by SCC's answer. Operations that call no SCC (help, audit,
// unwatching) have no such failure.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation } from '../../src/catalogue/operation.js';
import { SccUserError } from '../../src/catalogue/sccErrors.js';
import type { OperationServices, TimedWork } from '../../src/catalogue/services.js';
import { errorView, explainError } from '../../src/dispatch/errors.js';
import { renderText } from '../../src/render/text.js';
import { sccOperations } from '../../src/scc/operationTypes.js';
import { expectGoldenFile } from '../render/golden.js';
import { runnableExample } from '../support/catalogueExamples.js';
import { memoryServices } from '../support/memoryServices.js';
import { ACTOR, catalogue, useSimulator } from './harness.js';

const h = useSimulator();
/**
 * `access list --hits` answers even when SCC fails: each rule whose count could not be read says why on its
 * own line (test/catalogue/run.accessLifecycle.test.ts), so it has no failure of the whole call to show.
 */
const PER_ITEM_FAILURES = new Set(['access.list']);
const calling = catalogue.operations.filter((op) => op.scc.length > 0 && !PER_ITEM_FAILURES.has(op.id));
/**
 * Operations whose target exists only for a while (a running transaction, an ASA presenting a new
 * certificate), or whose write comes only for some targets (`access extend` changes a rule's time-range only
 * when it has one; `access list` sends `show access-list` only with `--hits`): the seeded example cannot
 * reach the write, so every SCC call they make is failed, the first read included.
 */
const TRANSIENT_TARGETS = new Set(['transactions.cancel', 'devices.accept-certificate', 'access.extend']);

/** fwbot's own records an operation reads before SCC: `unshun` finds the shun's waiting end first. */
function servicesFor(id: string): OperationServices {
  const services = memoryServices();
  if (id !== 'unshun') return services;
  const deviceUid = h.sim.deviceUid('asa-hq-01');
  const payload = {
    deviceUid,
    device: 'asa-hq-01',
    address: '203.0.113.66',
    reason: 'test',
    by: ACTOR.userId,
  };
  const item = {
    id: `shun-expiry~default~${deviceUid}:203.0.113.66`,
    kind: 'shun-expiry',
    profile: 'default',
    key: `${deviceUid}:203.0.113.66`,
    what: 'no shun 203.0.113.66 on asa-hq-01',
    owner: ACTOR.userId,
    devices: [{ uid: deviceUid, name: 'asa-hq-01' }],
    state: 'scheduled' as const,
    dueAt: Date.now() + 3_600_000,
    scheduledAt: Date.now(),
    attempts: 0,
    round: 0,
    payload,
  };
  const refused = () => Promise.reject(new Error('not in this test'));
  const timed: TimedWork = {
    schedule: refused,
    cancel: async () => ({ outcome: 'cancelled', item }),
    reschedule: refused,
    speakIn: refused,
    get: refused,
    list: async () => [item],
    history: refused,
  };
  return { ...services, timed };
}

/**
 * The record `access revoke 1` and `access extend 1 30d` name: a rule of asa-hq-01 that SCC has, as if fwbot
 * had created it (with an expiry, which extend needs).
 */
async function keepRecordOne(services: OperationServices): Promise<void> {
  const deviceUid = h.sim.deviceUid('asa-hq-01');
  const rules = await h.client().lookups.accessRules({ q: `entityUid:${deviceUid}`, limit: 1 });
  const ruleUid = rules.items?.[0]?.uid;
  if (!ruleUid) throw new Error('asa-hq-01 has no access rule in the simulator');
  await services.accessRecords?.add({
    profile: 'default',
    deviceUid,
    deviceName: 'asa-hq-01',
    accessGroup: 'outside_access_in',
    ruleUid,
    protocol: 'tcp',
    source: '198.51.100.7',
    destination: '10.1.1.5',
    port: '443',
    requester: ACTOR.userId,
    reason: 'test',
    createdAt: Date.now(),
    expiresAt: Date.now() + 10 * 86_400_000,
  });
}

describe('failure sentences', () => {
  it('covers every operation that calls SCC', () => {
    expect(calling.length).toBeGreaterThan(40);
  });

  it('gives each operation a sentence of its own, not its summary', () => {
    const sentences = catalogue.operations.map((op) => op.failure);
    expect(new Set(sentences).size).toBe(sentences.length);
    for (const op of catalogue.operations) expect(op.failure, op.id).not.toContain(op.summary.toLowerCase());
  });

  it('refuses a declaration whose failure is not a sentence opening', () => {
    const declare = (failure: string) =>
      defineOperation({
        id: 'x',
        words: ['x'],
        area: 'help',
        failure,
        summary: 'X',
        params: [],
        args: z.object({}),
        role: 'viewer',
        approval: 'never',
        scc: [],
        run: async () => undefined,
        render: () => ({ summary: '', blocks: [], visibility: 'ephemeral' }),
      });
    expect(() => declare('Could not list the devices.')).toThrow(/full stop/);
    expect(() => declare('List the devices')).toThrow(/Could not/);
    expect(declare('Could not x').failure).toBe('Could not x');
  });

  it.each(calling.map((op) => op.id))('%s: its declared failure, then what SCC said', async (id) => {
    const op = catalogue.get(id);
    if (!op) throw new Error(`no operation ${id}`);
    // A change fails at its change (the reads before it pass); a read fails at its read.
    const writes = op.scc.filter((sccId) => sccOperations[sccId].method !== 'GET');
    for (const sccId of writes.length > 0 && !TRANSIENT_TARGETS.has(id) ? writes : op.scc) {
      const { method, path } = sccOperations[sccId];
      h.sim.faults.add({ path: path.replace(/\{[^}]+\}/g, '*'), method, status: 500 });
    }
    const example = runnableExample(catalogue, op);
    // Operations on fwbot's own services (vpn watch, alerts) get them in memory: SCC is what fails here.
    const { raw } = catalogue.parse(example);
    const services = servicesFor(id);
    if (id === 'access.revoke' || id === 'access.extend') await keepRecordOne(services);
    const run = op.needs.length > 0 ? op.execute({ ...h.context(), services }, raw) : h.run(example);
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error, example).toBeInstanceOf(SccUserError);
    const shown = explainError(error, {
      requestId: 'req-test',
      actor: ACTOR,
      log: pino({ level: 'silent' }),
    });
    expect(shown.text.startsWith(`${op.failure}. SCC could not handle the request (500`), shown.text).toBe(
      true,
    );
    expect(shown.text).not.toMatch(/\.\.|\.;|, with their|: by /);
    expectGoldenFile(`${id}.failure.txt`, `/fw ${example}\n${renderText(errorView(shown))}`);
  });
});
