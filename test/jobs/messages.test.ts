import { describe, expect, it } from 'vitest';
import {
  ANSWER_LIMIT,
  codeBlock,
  duration,
  finalReply,
  gatewayOutcome,
  transactionOutcome,
  upgradeOutcome,
  watchAnnouncement,
} from '../../src/jobs/messages.js';

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
      'upgrade *spring* to Secure Client 5.1.8.105: 100%, done with device errors, 2 devices.',
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
