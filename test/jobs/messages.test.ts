import { describe, expect, it } from 'vitest';
import {
  cannotFollowOutcome as cdfmcCannotFollow,
  secondLegNote as cdfmcSecondLegNote,
  onTenant,
} from '../../src/follow/cdfmc.js';
import { ANSWER_LIMIT, codeBlock, gatewayOutcome } from '../../src/follow/gateway.js';
import { upgradeOutcome, upgradeRunGoneOutcome } from '../../src/follow/upgradeRun.js';
import { upgradeProgress, watchAnnouncement } from '../../src/follow/upgradeWords.js';
import {
  deadlineOutcome,
  duration,
  expiredOutcome,
  gaveUpOutcome,
  refusedOutcome,
  statusLine,
  transactionOutcome,
} from '../../src/follow/words.js';
import { finalReply, outcomeButton, queuedCallEnded, queuedNote } from '../../src/jobs/messages.js';
import type { SecureClientUpgradeRunDto } from '../../src/scc/generated/models.js';

const subscriber = {
  thread: { channelId: 'C0MSGS0001', threadTs: '1.1', requesterId: 'U0ALICE', profile: 'default' },
  label: 'create tenant acme',
};

describe('what fwbot says in a thread', () => {
  it('mentions the requester and names the work the way the thread did', () => {
    const outcome = transactionOutcome('tx-1', {
      cdoTransactionStatus: 'DONE',
      transactionType: 'MSP_CREATE_TENANT',
    });
    expect(outcome && finalReply(subscriber, outcome)).toBe(
      '<@U0ALICE> *create tenant acme*: done. SCC finished transaction `tx-1` (MSP_CREATE_TENANT).',
    );
  });

  it("quotes SCC's error message and details", () => {
    const outcome = transactionOutcome('tx-2', {
      cdoTransactionStatus: 'ERROR',
      errorMessage: 'Provisioning failed',
      errorDetails: { tenantName: 'acme' },
    });
    expect(outcome?.status).toBe('failed');
    expect(outcome?.text).toBe(
      'failed. SCC reports an error for transaction `tx-2`: Provisioning failed. Details: tenantName: acme.',
    );
  });

  it('has nothing to say while a transaction is still running', () => {
    expect(transactionOutcome('tx-3', { cdoTransactionStatus: 'IN_PROGRESS' })).toBeUndefined();
    expect(gatewayOutcome('r-1', { status: 'pending' })).toBeUndefined();
    expect(gatewayOutcome('r-1', { status: 'timeout' })).toBeUndefined();
  });

  it('cuts a long device answer and says how much was left out and where the rest is', () => {
    const long = JSON.stringify({
      rows: Array.from({ length: 400 }, (_, i) => ({ i, name: `object-${i}` })),
    });
    const outcome = gatewayOutcome('r-2', {
      status: 'responded',
      data: { responseBody: long, responseStatus: 'SUCCESS' },
    });
    const text = outcome?.text ?? '';

    expect(text.startsWith('the device answered (SUCCESS):\n```\n{\n  "rows": [')).toBe(true);
    expect(text.length).toBeLessThan(ANSWER_LIMIT + 400);
    expect(text).toMatch(/_The answer is [\d,]+ characters long; only the first 2,800 are shown\. /);
    expect(text).toContain('gateway request `r-2`');
  });

  it('keeps a device answer from closing its code block early', () => {
    expect(codeBlock('a ``` b', 100, '')).toBe('```\na `\u200b`` b\n```');
  });

  it('lists every device of an upgrade run with its result', () => {
    const outcome = upgradeOutcome({
      uid: 'run-1',
      name: 'spring',
      secureClientVersion: '5.1.8.105',
      upgradeRunStatus: 'DONE_WITH_DEVICE_ERRORS',
      percentageComplete: 1,
      devices: [
        { name: 'asa-1', status: 'SUCCESS' },
        { name: 'asa-2', status: 'FAILED', errorMsg: 'No CLI result' },
      ],
    });
    expect(outcome?.status).toBe('failed');
    expect(outcome?.text).toBe(
      'upgrade *spring* to Secure Client 5.1.8.105 finished with errors on some devices (DONE_WITH_DEVICE_ERRORS).\n' +
        '• asa-1: SUCCESS\n• asa-2: FAILED — No CLI result',
    );
    expect(outcome?.progressText).toBe(
      'upgrade *spring* to Secure Client 5.1.8.105: done with device errors, overall 100%, 2 devices.',
    );
  });

  it('announces a watched run with who started it', () => {
    expect(
      watchAnnouncement('eu', {
        name: 'n',
        upgradeRunStatus: 'ERROR',
        username: 'ops@acme',
        errorMsg: 'boom',
      }),
    ).toBe(
      'A VPN client upgrade run ended (profile `eu`, started by ops@acme): *n* failed (ERROR). SCC says: boom.',
    );
  });

  it('writes durations the way people read them', () => {
    expect([duration(450), duration(90_000), duration(45 * 60_000), duration(6 * 3_600_000)]).toEqual([
      '450 ms',
      '90 s',
      '45 min',
      '6 h',
    ]);
  });
});

/** Hostile text as SCC or a person might send it: mentions, a broadcast, a user group, a link. */
const HOSTILE = '<@U0ATTACK> <!channel> <#C0SECRET> <!subteam^S0ALL> <https://evil.example|docs> & co';
const ESCAPED =
  '&lt;@U0ATTACK&gt; &lt;!channel&gt; &lt;#C0SECRET&gt; &lt;!subteam^S0ALL&gt; &lt;https://evil.example|docs&gt; &amp; co';

/** Every piece of live Slack markup in a message: only the requester's mention may be there. */
function live(text: string): string[] {
  return [...text.matchAll(/<[^<>]*>/g)].map((m) => m[0]);
}

describe('what fwbot says in a thread, when SCC or a person wrote part of it', () => {
  it("escapes SCC's error message, details and transaction type, and keeps the requester's mention live", () => {
    const outcome = transactionOutcome('tx-<9>', {
      cdoTransactionStatus: 'ERROR',
      transactionType: '<!here>',
      errorMessage: HOSTILE,
      errorDetails: { '<@U0KEY>': HOSTILE },
    });
    const reply = outcome ? finalReply({ ...subscriber, label: `create tenant ${HOSTILE}` }, outcome) : '';
    expect(live(reply)).toEqual(['<@U0ALICE>']);
    expect(reply).toBe(
      `<@U0ALICE> *create tenant ${ESCAPED}*: failed. SCC reports an error for transaction \`tx-&lt;9&gt;\` ` +
        `(&lt;!here&gt;): ${ESCAPED}. Details: &lt;@U0KEY&gt;: ${ESCAPED}.`,
    );
  });

  it('never makes a live mention out of a malformed requester id', () => {
    const outcome = transactionOutcome('tx-1', { cdoTransactionStatus: 'DONE' });
    const reply = outcome
      ? finalReply({ ...subscriber, thread: { ...subscriber.thread, requesterId: '<!channel>' } }, outcome)
      : '';
    expect(live(reply)).toEqual([]);
    expect(reply.startsWith('&lt;!channel&gt; *create tenant acme*')).toBe(true);
  });

  it('escapes every string of the other outcomes and notes', () => {
    const texts = [
      expiredOutcome(HOSTILE).text,
      deadlineOutcome(HOSTILE, 5_000, HOSTILE).text,
      refusedOutcome(HOSTILE, HOSTILE).text,
      gaveUpOutcome(HOSTILE, 3, HOSTILE).text,
      cdfmcSecondLegNote(HOSTILE, HOSTILE, HOSTILE),
      cdfmcCannotFollow(HOSTILE, HOSTILE, HOSTILE).text,
      onTenant(HOSTILE, { status: 'succeeded', text: 'done.' }).text,
      upgradeRunGoneOutcome(HOSTILE).text,
      statusLine(HOSTILE, 'waiting.'),
      queuedNote(
        { call: `the creation of tenant *${HOSTILE}*`, pace: HOSTILE, check: HOSTILE },
        2,
        new Date(0),
      ),
      gatewayOutcome(HOSTILE, { status: 'failed', message: HOSTILE, data: { responseStatus: HOSTILE } })
        ?.text ?? '',
    ];
    for (const text of texts) {
      expect(live(text), text).toEqual([]);
      expect(text, text).toContain(ESCAPED);
    }
  });

  it('escapes a device answer inside its code block, cutting before escaping', () => {
    const outcome = gatewayOutcome('r-3', {
      status: 'responded',
      data: { responseBody: '<!channel> & <@U0X>' },
    });
    expect(live(outcome?.text ?? '')).toEqual([]);
    expect(outcome?.text).toContain('```\n&lt;!channel&gt; &amp; &lt;@U0X&gt;\n```');
    const cut = codeBlock('<'.repeat(10), 4, 'Rest in SCC.');
    expect(cut.startsWith('```\n&lt;&lt;&lt;&lt;\n```')).toBe(true);
  });

  it("escapes an upgrade run's names, statuses and device errors", () => {
    const run: SecureClientUpgradeRunDto = {
      uid: 'run-1',
      name: HOSTILE,
      secureClientVersion: '<!here>',
      upgradeRunStatus: 'DONE_WITH_DEVICE_ERRORS',
      username: '<@U0OPS>',
      errorMsg: HOSTILE,
      devices: [{ name: '<#C0DEV>', status: '<!everyone>', errorMsg: HOSTILE }],
    };
    for (const text of [
      upgradeOutcome(run)?.text ?? '',
      upgradeProgress(run),
      watchAnnouncement('<!channel>', run),
    ]) {
      expect(live(text), text).toEqual([]);
    }
    expect(watchAnnouncement('eu', run)).toContain('started by &lt;@U0OPS&gt;');
    expect(upgradeOutcome(run)?.text).toContain(`• &lt;#C0DEV&gt;: &lt;!everyone&gt; — ${ESCAPED}`);
  });

  it("keeps the requester's mention live when SCC refuses a queued call, and escapes the rest", () => {
    const call = 'the creation of tenant *<!channel>*';
    const text = queuedCallEnded('U0ALICE', call, 'not done', `SCC refused the request: ${HOSTILE}`);
    expect(live(text)).toEqual(['<@U0ALICE>']);
    expect(text).toBe(
      `<@U0ALICE> The creation of tenant *&lt;!channel&gt;*: not done. SCC refused the request: ${ESCAPED}`,
    );
  });

  it('tells a queued call its place and when it should start, in the words its queue declares', () => {
    const words = {
      call: 'the creation of tenant *alpha-three*',
      pace: 'SCC creates at most one tenant every 30 seconds',
      check: 'Check `/fw tenants list`',
    };
    expect(queuedNote(words, 3, new Date('2026-01-01T10:00:30Z'))).toBe(
      'The creation of tenant *alpha-three* is queued: place 3 (2 ahead of it). SCC creates at most one ' +
        'tenant every 30 seconds, so it should start around 10:00:30 UTC.',
    );
    expect(queuedNote(words, 1, new Date(0))).toContain('place 1 (none ahead of it)');
  });

  it('offers an outcome’s button in its own message, the command carrying the thread’s ticket', () => {
    const button = { label: 'Remove the rule…', command: 'rules remove asa-uid rule-uid' };
    const ticketed = { ...subscriber, thread: { ...subscriber.thread, ticket: 'CHG0012345' } };
    const offered = outcomeButton(ticketed, button);
    expect(offered?.view.blocks).toEqual([
      {
        kind: 'text',
        text: 'Remove the rule: `/fw rules remove asa-uid rule-uid` asks for it like any change of a rule (a second person approves).',
      },
      {
        kind: 'actions',
        buttons: [
          expect.objectContaining({
            label: 'Remove the rule…',
            style: 'danger',
            action: expect.objectContaining({ value: 'rules remove asa-uid rule-uid --ticket CHG0012345' }),
          }),
        ],
      },
    ]);
    expect(outcomeButton(subscriber, button)?.view.blocks[1]).toMatchObject({
      buttons: [{ action: { value: 'rules remove asa-uid rule-uid' } }],
    });
  });
});
