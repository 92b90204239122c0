// Slack Connect (issue 29): external people are let in for channels that admit them only, when Slack says
// the channel is shared (the payload, or conversations.info when the payload does not say); a forged team
// id, a channel that admits nobody external, a channel Slack says is not shared and one it cannot answer
// for are refused before any listener, and audited. Signatures are Bolt's (test/slack/); here
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

function binding(records: AuditEntry[], now?: () => number) {
  return workspaceBinding({
    whoAmI: async () => ({ teamId: HOME }),
    configured: {},
    admitsExternal: (channelId) => channelId === CUSTOMER_CHANNEL,
    log: pino({ level: 'silent' }),
    audit: { record: async (entry) => void records.push(entry) },
    ...(now ? { now } : {}),
  });
}

/**
 * A button click as Slack delivers it from a person of `team` (their own team in user.team_id); `shared`
 * 'unsaid' leaves is_ext_shared_channel out, as Slack may.
 */
function click(overrides: { team: string; userTeam?: string; channel: string; shared?: boolean | 'unsaid' }) {
  return {
    type: 'block_actions',
    api_app_id: 'A0FWBOT001',
    team: { id: overrides.team },
    user: { id: CUSTOMER, team_id: overrides.userTeam ?? overrides.team },
    channel: { id: overrides.channel },
    ...(overrides.shared === 'unsaid' ? {} : { is_ext_shared_channel: overrides.shared ?? true }),
    actions: [{ action_id: 'fw_approve', type: 'button', value: '{}' }],
  };
}

/** Bolt's per-request client, as far as the binding uses it: conversations.info answering `answer`. */
function slackSaying(answer: () => Promise<unknown>) {
  const asked: string[] = [];
  return {
    asked,
    apiCall: async (method: string, args?: Record<string, unknown>) => {
      if (method !== 'conversations.info') throw new Error(`unexpected ${method}`);
      asked.push(String(args?.channel));
      return answer();
    },
  };
}

async function deliver(
  records: AuditEntry[],
  body: Record<string, unknown>,
  client?: unknown,
  through = binding(records),
) {
  const context: Record<string, unknown> = {};
  let ran = false;
  let acked = 0;
  await through.middleware({
    body,
    context,
    client,
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
      `refused: external person: Slack says channel ${CUSTOMER_CHANNEL} is not shared`,
    ]);
  });

  it('refuses another workspace’s request that does not claim a shared channel, as before', async () => {
    const records: AuditEntry[] = [];
    await deliver(records, click({ team: CUSTOMER_TEAM, channel: CUSTOMER_CHANNEL, shared: false }));
    expect(records.map((record) => record.outcome)).toEqual([
      'refused: team_id not the workspace fwbot serves',
    ]);
  });

  it('lets an external person’s slash command in, from their own workspace, once Slack says the channel is shared', async () => {
    const records: AuditEntry[] = [];
    const slack = slackSaying(async () => ({
      ok: true,
      channel: { id: CUSTOMER_CHANNEL, is_ext_shared: true },
    }));
    const command = {
      command: '/fw',
      text: 'devices',
      team_id: CUSTOMER_TEAM,
      api_app_id: 'A0FWBOT001',
      user_id: CUSTOMER,
      channel_id: CUSTOMER_CHANNEL,
      trigger_id: 'trigger-1',
      response_url: 'https://hooks.slack.com/commands/x',
    };
    const answer = await deliver(records, command, slack);
    expect(answer).toMatchObject({ ran: true, acked: 0 });
    expect(answer.origin).toEqual({ teamId: HOME, userTeamId: CUSTOMER_TEAM, external: true });
    expect(slack.asked).toEqual([CUSTOMER_CHANNEL]);
    expect(records).toEqual([]);
  });

  it('asks Slack when the request does not say, keeps its answer five minutes, and refuses what it says is not shared', async () => {
    let at = 0;
    const records: AuditEntry[] = [];
    const through = binding(records, () => at);
    let shared = true;
    const slack = slackSaying(async () => ({ ok: true, channel: { is_ext_shared: shared } }));
    const unsaid = click({ team: CUSTOMER_TEAM, channel: CUSTOMER_CHANNEL, shared: 'unsaid' });
    expect(await deliver(records, unsaid, slack, through)).toMatchObject({ ran: true });
    shared = false;
    at = 4 * 60_000;
    expect(await deliver(records, unsaid, slack, through)).toMatchObject({ ran: true });
    expect(slack.asked).toEqual([CUSTOMER_CHANNEL]);
    at = 5 * 60_000 + 1;
    expect(await deliver(records, unsaid, slack, through)).toMatchObject({ ran: false, acked: 1 });
    expect(slack.asked).toEqual([CUSTOMER_CHANNEL, CUSTOMER_CHANNEL]);
    expect(records.map((record) => record.outcome)).toEqual([
      `refused: external person: Slack says channel ${CUSTOMER_CHANNEL} is not shared`,
    ]);
  });

  it('refuses and audits when Slack cannot say whether the channel is shared', async () => {
    const records: AuditEntry[] = [];
    const failing = slackSaying(async () => {
      throw new Error('channel_not_found');
    });
    const unsaid = click({
      team: HOME,
      userTeam: CUSTOMER_TEAM,
      channel: CUSTOMER_CHANNEL,
      shared: 'unsaid',
    });
    expect(await deliver(records, unsaid, failing)).toMatchObject({ ran: false, acked: 1 });
    // No client at all (nothing to ask with) is refused the same way.
    expect(await deliver([], unsaid)).toMatchObject({ ran: false });
    expect(records.map((record) => record.outcome)).toEqual([
      `refused: external person: Slack could not say whether channel ${CUSTOMER_CHANNEL} is shared`,
    ]);
  });
});
