// Slack Connect (issue 29): external people are let in for channels that admit them only, when Slack says
// the channel is shared; a forged team id, a channel that admits nobody external and a request that does not
// say it is shared are refused before any listener, and audited. Signatures are Bolt's (test/slack/); here
// the workspace binding itself is driven, as Bolt hands it a verified request.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/dispatch/ports.js';
import { originIn, workspaceBinding } from '../../src/slack/workspaceBinding.js';

const HOME = 'T0MSPHOME01';
const CUSTOMER_TEAM = 'T0CUSTOMR1';
const CUSTOMER_CHANNEL = 'C0CONTOSO1';
const MSP_ONLY = 'C0MSPOPS01';
const CUSTOMER = 'U0CUST0001';

function binding(records: AuditEntry[]) {
  return workspaceBinding({
    whoAmI: async () => ({ teamId: HOME }),
    configured: {},
    admitsExternal: (channelId) => channelId === CUSTOMER_CHANNEL,
    log: pino({ level: 'silent' }),
    audit: { record: async (entry) => void records.push(entry) },
  });
}

/** A button click as Slack delivers it from a person of `team` (their own team in user.team_id). */
function click(overrides: { team: string; userTeam?: string; channel: string; shared?: boolean }) {
  return {
    type: 'block_actions',
    api_app_id: 'A0FWBOT001',
    team: { id: overrides.team },
    user: { id: CUSTOMER, team_id: overrides.userTeam ?? overrides.team },
    channel: { id: overrides.channel },
    ...(overrides.shared === false ? {} : { is_ext_shared_channel: true }),
    actions: [{ action_id: 'fw_approve', type: 'button', value: '{}' }],
  };
}

async function deliver(records: AuditEntry[], body: Record<string, unknown>) {
  const context: Record<string, unknown> = {};
  let ran = false;
  let acked = 0;
  await binding(records).middleware({
    body,
    context,
    ack: async () => {
      acked += 1;
    },
    next: async () => {
      ran = true;
    },
  } as unknown as Parameters<ReturnType<typeof binding>['middleware']>[0]);
  return { ran, acked, origin: originIn(context as never) };
}

describe('external people at the workspace binding', () => {
  it('lets a customer in from their own workspace in a shared customer channel, as an external person of the home workspace', async () => {
    const records: AuditEntry[] = [];
    const answer = await deliver(records, click({ team: CUSTOMER_TEAM, channel: CUSTOMER_CHANNEL }));
    expect(answer).toMatchObject({ ran: true, acked: 0 });
    expect(answer.origin).toEqual({ teamId: HOME, userTeamId: CUSTOMER_TEAM, external: true });
    expect(records).toEqual([]);
  });

  it('marks a person of another organization external when Slack delivers their click for the home workspace', async () => {
    const answer = await deliver(
      [],
      click({ team: HOME, userTeam: CUSTOMER_TEAM, channel: CUSTOMER_CHANNEL }),
    );
    expect(answer.origin).toMatchObject({ teamId: HOME, userTeamId: CUSTOMER_TEAM, external: true });
  });

  it('keeps the home workspace’s own people internal', async () => {
    const answer = await deliver([], click({ team: HOME, channel: MSP_ONLY, shared: false }));
    expect(answer).toMatchObject({ ran: true, origin: { teamId: HOME, external: false } });
  });

  it('refuses and audits a forged team id: another workspace’s request naming a home person', async () => {
    const records: AuditEntry[] = [];
    const answer = await deliver(
      records,
      click({ team: CUSTOMER_TEAM, userTeam: HOME, channel: CUSTOMER_CHANNEL }),
    );
    expect(answer).toMatchObject({ ran: false, acked: 1 });
    expect(records).toEqual([
      expect.objectContaining({
        action: 'refused',
        actor: CUSTOMER,
        outcome: expect.stringContaining(
          'another workspace’s request naming a person of the workspace fwbot serves',
        ),
      }),
    ]);
  });

  it('refuses and audits an external person in a channel that admits none, and a request that does not say it is shared', async () => {
    const records: AuditEntry[] = [];
    expect(await deliver(records, click({ team: CUSTOMER_TEAM, channel: MSP_ONLY }))).toMatchObject({
      ran: false,
    });
    expect(
      await deliver(
        records,
        click({ team: HOME, userTeam: CUSTOMER_TEAM, channel: CUSTOMER_CHANNEL, shared: false }),
      ),
    ).toMatchObject({ ran: false });
    expect(records.map((record) => record.outcome)).toEqual([
      `refused: external person: channel ${MSP_ONLY} admits no external people`,
      'refused: external person: the request does not say the channel is shared',
    ]);
  });

  it('refuses another workspace’s request that does not claim a shared channel, as before', async () => {
    const records: AuditEntry[] = [];
    await deliver(records, click({ team: CUSTOMER_TEAM, channel: CUSTOMER_CHANNEL, shared: false }));
    expect(records.map((record) => record.outcome)).toEqual([
      'refused: team_id not the workspace fwbot serves',
    ]);
  });
});
