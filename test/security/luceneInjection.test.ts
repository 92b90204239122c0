// Typed text reaches SCC's `q` only as escaped terms, never as syntax of its own (issue 34, outside test,
// attack 4). `/fw rules <asa> <query>` joined the typed query into `entityUid:<asa> AND (…)` as typed, so
// `… ) OR ( …` closed the device filter and listed other devices' rules under the asked device's title.
// Every place a typed value enters a `q` is fed hostile values (every Lucene special character, AND / OR /
// NOT, parentheses, quotes, `*`, `:`, a backslash) through Slack, and the `q` SCC received is read from the
// simulator's request log and parsed as SCC reads it: it always parses, a fixed filter (the asked device,
// a form's device kinds, the ASAs of a cross-tenant selection) is still a top-level AND of it, and text
// typed without a colon stays one search term. What fwbot cannot read as Lucene is refused in a sentence.
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationServices } from '../../src/catalogue/operation.js';
import { startWorkers, type Workers } from '../../src/jobs/workers.js';
import type { SccClient } from '../../src/scc/client.js';
import { type LuceneQuery, parseLucene } from '../../src/scc/luceneSyntax.js';
import { slackChatOf } from '../../src/slack/chat.js';
import { createWorkerSlackClient } from '../../src/slackApi/clients.js';
import { quietLog, TEST_SCHEDULE } from '../jobs/support/harness.js';
import { blocksText, CHANNEL, type Harness, startHarness, USERS } from '../slack/support/harness.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';

function clientOf(h: Harness, name: string): SccClient {
  const client = h.clients.get(name);
  if (!client) throw new Error(`no profile ${name}`);
  return client;
}

/** Values an attacker types: every special character, the operators, unbalanced and balanced groups. */
const HOSTILE = [
  'ruleAction:PERMIT) OR (ruleAction:DENY',
  'ruleAction:DENY OR entityUid:*',
  'x) OR (name:*',
  'name:*) OR NOT (name:x',
  'a+b-c&&d||e!f(g)h{i}j[k]l^m"n~o*p?q:r\\s/t',
  '+ - && || ! ( ) { } [ ] ^ " ~ * ? : \\ /',
  'OR',
  'AND',
  'NOT name:x',
  '"quoted) OR (x"',
  'name:"a\\" OR entityUid:*"',
  '*',
  ':',
  '\\',
  'name:\\) OR entityUid:*',
  'name:[a TO z] OR entityUid:*',
  'entityUid:(a OR b)) OR (name:*',
];

/** The device filter's clause as SCC reads it. */
const term = (field: string, text: string): LuceneQuery => ({
  kind: 'term',
  field,
  value: { kind: 'exact', text, quoted: false },
});

function conjuncts(query: LuceneQuery): LuceneQuery[] {
  return query.kind === 'and' ? [...conjuncts(query.left), ...conjuncts(query.right)] : [query];
}

/** Text typed without a colon: one term (one per field searched), its value the typed text. */
function plainSearch(query: LuceneQuery): boolean {
  if (query.kind === 'or') return plainSearch(query.left) && plainSearch(query.right);
  return query.kind === 'term';
}

interface Surface {
  name: string;
  /** The /fw command carrying the value. */
  command: (value: string) => string;
  operationId: string;
  /** A clause every `q` of the call must keep as a top-level AND. */
  fixed?: (h: Harness) => LuceneQuery;
  /** Which of the operation's requests are the command's (others may run meanwhile). */
  only?: (params: URLSearchParams) => boolean;
}

const SURFACES: Surface[] = [
  {
    name: 'the rules of an ASA',
    command: (value) => `rules asa-hq-01 ${value}`,
    operationId: 'listAccessRules',
    fixed: (h) => term('entityUid', h.sim.deviceUid('asa-hq-01')),
  },
  {
    name: 'the change log of a device',
    command: (value) => `changelog asa-hq-01 ${value}`,
    operationId: 'getChangelogs',
    fixed: (h) => term('entityUid', h.sim.deviceUid('asa-hq-01')),
  },
  {
    name: 'the ASAs of a cross-tenant selection',
    command: (value) => `msp vpn versions ${value.replace(/\s+/g, '')}`,
    operationId: 'getMspManagedDevices',
  },
  { name: 'the device list', command: (value) => `devices ${value}`, operationId: 'getDevices' },
  { name: 'objects', command: (value) => `objects ${value}`, operationId: 'getObjects' },
  { name: 'the audit log', command: (value) => `audit-log ${value}`, operationId: 'getAuditLogs' },
  {
    name: 'change requests',
    command: (value) => `change-requests ${value}`,
    operationId: 'getChangeRequests',
  },
  {
    name: 'a device named',
    command: (value) => `rules ${value.replace(/\s+/g, '')}`,
    operationId: 'getDevices',
  },
  // Last: a subscription made here starts the alert scan, whose own reads of the inventory would mix in.
  {
    name: 'an alert subscription’s devices',
    command: (value) => `alerts subscribe connectivity --devices '${value.replace(/'/g, '')}'`,
    operationId: 'getDevices',
    // Subscribing checks the query with one device; the alert scan it starts reads whole pages.
    only: (params) => params.get('limit') === '1',
  },
];

describe('typed text in SCC’s q', () => {
  let h: Harness;
  let workers: Workers;
  // The alert services, once the workers run: `alerts subscribe` checks its device query with SCC.
  const services: OperationServices = {};
  beforeAll(async () => {
    h = await startHarness({ optionsDeadlineMs: 2000, services });
    workers = await startWorkers({
      redisUrl: redisUrl(),
      prefix: uniquePrefix('lucene-injection'),
      clients: { names: () => [...h.clients.keys()], get: (name) => clientOf(h, name) },
      chat: slackChatOf(createWorkerSlackClient('xoxb-test', h.slack.apiUrl), quietLog),
      schedule: TEST_SCHEDULE,
      logger: quietLog,
    });
    services.alerts = workers.jobs.alerts;
  });
  afterAll(async () => {
    await workers.close();
    await h.stop();
  });

  /** The `q` of every call of `operationId` SCC received since the log was cleared. */
  const received = (operationId: string, only: Surface['only'] = () => true): string[] =>
    h.sim.requestLog
      .list({ operationId })
      .map((entry) => new URLSearchParams(entry.query))
      .filter(only)
      .map((params) => params.get('q'))
      .filter((q): q is string => q !== null);

  /** Each q parses as SCC reads it, keeps the fixed clause, and plain text stays a search term. */
  function check(surface: Surface, value: string, qs: readonly string[]): void {
    for (const q of qs) {
      let parsed: LuceneQuery;
      try {
        parsed = parseLucene(q);
      } catch (error) {
        throw new Error(`${surface.name} with ${JSON.stringify(value)} sent SCC q=${q}: ${String(error)}`);
      }
      const fixed = surface.fixed?.(h);
      const clauses = conjuncts(parsed);
      const said = `${surface.name} with ${JSON.stringify(value)}: q=${q}`;
      if (fixed)
        expect(
          clauses.some((clause) => isDeepStrictEqual(clause, fixed)),
          said,
        ).toBe(true);
      // Text without a colon is a search for that text: terms only, no operator of its own.
      if (!value.includes(':'))
        for (const clause of clauses.filter((c) => !isDeepStrictEqual(c, fixed)))
          expect(plainSearch(clause), said).toBe(true);
    }
  }

  it('refuses the attack on the rules of an ASA, and lists none of another device’s rules', async () => {
    h.sim.requestLog.clear();
    const { responseUrl } = await h.command('rules asa-hq-01 ruleAction:PERMIT) OR (ruleAction:DENY', {
      userId: USERS.admin,
    });
    expect(blocksText((await h.reply(responseUrl)).args)).toContain(
      'fwbot reads a query with a colon as Lucene and cannot read',
    );
    expect(received('listAccessRules')).toEqual([]);

    const uid = h.sim.deviceUid('asa-hq-01');
    h.sim.requestLog.clear();
    await h.reply(
      (await h.command('rules asa-hq-01 ruleAction:DENY OR entityUid:*', { userId: USERS.admin }))
        .responseUrl,
    );
    expect(received('listAccessRules')).toEqual([`entityUid:${uid} AND (ruleAction:DENY OR entityUid:*)`]);
    h.sim.requestLog.clear();
    await h.reply((await h.command('rules asa-hq-01 x) OR (y', { userId: USERS.admin })).responseUrl);
    expect(received('listAccessRules')).toEqual([
      `entityUid:${uid} AND ruleConfigurationText:*x\\)\\ OR\\ \\(y*`,
    ]);
  });

  it('keeps a form’s device kinds around what is typed in its device lookup', async () => {
    const fixed = parseLucene('deviceType:ASA OR deviceType:*FTD');
    for (const value of HOSTILE) {
      h.sim.requestLog.clear();
      const http = await h.interact({
        type: 'block_suggestion',
        user: { id: USERS.operator },
        team: { id: 'T0FAKE' },
        action_id: 'fw.select.device',
        block_id: 'f.device',
        value,
        view: {
          id: 'V0VPNFORM1',
          private_metadata: JSON.stringify({ v: 1, o: 'vpn.upgrade', c: CHANNEL, r: {} }),
          state: { values: {} },
        },
      });
      expect(http.status).toBe(200);
      for (const q of received('getDevices')) {
        const parsed = parseLucene(q);
        expect(
          conjuncts(parsed).some((clause) => isDeepStrictEqual(clause, fixed)),
          `${JSON.stringify(value)}: q=${q}`,
        ).toBe(true);
        if (!value.includes(':')) expect(plainSearch(conjuncts(parsed)[1] ?? parsed)).toBe(true);
      }
    }
  });

  for (const surface of SURFACES) {
    it(`keeps what is typed for ${surface.name} inside its place`, async () => {
      let calls = 0;
      for (const value of HOSTILE) {
        h.sim.requestLog.clear();
        const before = h.slack.calls.length;
        await h.command(surface.command(value), { userId: USERS.admin });
        // Answered (privately, or in the channel: a subscription) before the calls are read.
        await h.slack.waitFor(
          (call) =>
            (call.method === 'response_url' || call.method === 'chat.postMessage') &&
            h.slack.calls.indexOf(call) >= before,
          10_000,
        );
        const qs = received(surface.operationId, surface.only);
        calls += qs.length;
        check(surface, value, qs);
      }
      // Not vacuous: values reached SCC (plain text may go elsewhere, e.g. the logs' searchText).
      expect(calls).toBeGreaterThanOrEqual(4);
    });
  }
});
