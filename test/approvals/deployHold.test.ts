// A deploy holds its devices from the moment its approved run is claimed until its deployment run ends
// (src/catalogue/deviceHolds.ts, F2): an interface change asked for meanwhile is refused in one sentence
// naming the device, the holder, why and until when, instead of being staged behind the deploy's back;
// `/fw holds` lists it; an interface deletion approved meanwhile waits, its thread told once, and runs after
// the deploy; the tracking worker releases the hold when the run ends. An admin's early release is governed
// and audited. Signed requests into real Bolt, real Redis, the real tracking workers, the simulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripSentinels } from '../../src/model/marks.js';
import { quietLog } from '../jobs/support/harness.js';
import { stageVlanDeletion } from '../support/changeWindows.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { CATALOGUE, CHANNEL, TEAM, USERS } from './support/world.js';

/** Polls until `holds` holds, within a generous bound (never a timed assertion). */
async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > deadline) throw new Error(`not within 20 s: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('approvals: a deploy holds its devices until its run ends', () => {
  let env: ApprovalsEnv;
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);
  const command = async (text: string, user: string) => {
    const reply = await driving(env.driver.commandReply(env.bot.eventsUrl, text, user));
    return { blocks: reply.blocks, text: stripSentinels(`${reply.text}\n${textOf(reply.blocks)}`) };
  };
  /** The followed deploy's final reply in its card's thread (the tracking workers post it as text). */
  const deployed = async (card: { ts: string }): Promise<string> => {
    const reply = await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /deployed:|deploy failed/.test(String(c.args.text ?? '')),
        60_000,
      ),
    );
    return String(reply.args.text);
  };
  const held = () => {
    const holds = env.holds;
    if (!holds) throw new Error('this world keeps no holds');
    return holds.list(env.clock(), 'default');
  };

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true });
  });
  afterAll(async () => {
    await env.stop();
  });

  const stage = (device: string, hardwareName: string) =>
    stageVlanDeletion(env.sim, env.bot.scc, device, hardwareName);

  it('refuses an interface change during the deploy, makes an approved deletion wait, and lets both go after', async () => {
    await stage('asa-hq-01', 'Vlan20');
    const deletion = await driving(
      env.driver.ask(env.bot.eventsUrl, 'interfaces delete asa-hq-01 guest', USERS.alice),
    );
    const deploy = await driving(env.driver.ask(env.bot.eventsUrl, 'deploy asa-hq-01', USERS.alice));

    // Approved: its run is claimed and holds the device before it reads the pending commands again, which
    // waits on SCC's (frozen) clock: the deploy is in progress.
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, deploy);
    const [hold] = await eventually(held, (holds) => holds.length === 1);
    expect(hold).toMatchObject({ device: 'asa-hq-01', holder: { kind: 'deploy', id: deploy.id } });

    const creates = await env.sccCalls('createAsaVlanInterface');
    const refused = await command('interfaces create vlan asa-hq-01 --vlan-id 77 --name lab77', USERS.alice);
    expect(refused.text).toMatch(
      new RegExp(
        `asa-hq-01 is held by a deploy \\(request \`${deploy.id}\`, asked by <@U0ALICE>\\) since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC, until it ends \\(at the latest \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\): deploy to asa-hq-01; nothing was done\\. Ask again once it ends`,
      ),
    );
    expect(await env.sccCalls('createAsaVlanInterface')).toBe(creates);
    const listed = await command('holds', USERS.carol);
    expect(listed.text).toContain(
      `*asa-hq-01* · held by a deploy (request \`${deploy.id}\`, asked by <@U0ALICE>)`,
    );
    expect(listed.text).toContain('Why: deploy to asa-hq-01');

    // An approved deletion meets the hold right before it runs: it waits, and its thread says why, once.
    const deletes = await env.sccCalls('deleteAsaVlanInterface');
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, deletion);
    const waiting = await env.driver.threadReply(deletion, (t) => t.includes('this request waits'));
    expect(stripSentinels(waiting)).toContain(
      `this request waits: asa-hq-01 is held by a deploy (request \`${deploy.id}\``,
    );
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(deletes);

    // The deploy runs to its end; the tracking worker releases its hold.
    expect(await deployed(deploy)).toContain('deployed: the changes are on the devices now');
    await eventually(held, (holds) => holds.length === 0);
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(1);

    // The deletion is tried again a minute later, by whichever process passes, and stages now.
    env.clock.advance(61_000);
    await driving(env.bot.approvals.recover());
    await env.driver.threadReply(deletion, (t) => t.includes('staged the deletion'));
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(deletes + 1);
    expect(
      env.driver.threadReplies(deletion).filter((c) => JSON.stringify(c.args).includes('this request waits')),
    ).toHaveLength(1);
    const created = await command('interfaces create vlan asa-hq-01 --vlan-id 77 --name lab77', USERS.alice);
    expect(created.text).not.toContain('is held by');
    expect(await env.sccCalls('createAsaVlanInterface')).toBe(creates + 1);
  });

  it('lets the calls of the work that holds a device through: its own deploy runs under its hold, which stays', async () => {
    const holds = env.holds;
    if (!holds) throw new Error('this world keeps no holds');
    const work = 'ap-access-000001';
    const branch = { uid: env.sim.deviceUid('asa-branch-02'), name: 'asa-branch-02' };
    await stage('asa-branch-02', 'Vlan30');
    await holds.take(
      {
        profile: 'default',
        devices: [branch],
        holder: { kind: 'deploy', id: work, requesterId: USERS.alice },
        reason: 'an access request on asa-branch-02',
        until: env.clock() + 3_600_000,
      },
      env.clock(),
    );
    // Typed by someone, the deploy is refused; handed over by the work that holds the device, it is asked.
    expect((await command('deploy asa-branch-02', USERS.alice)).text).toContain('asa-branch-02 is held by');
    const { op, raw } = CATALOGUE.parse('deploy asa-branch-02');
    const request = {
      requestId: 'req-access-deploy',
      actor: { userId: USERS.alice, channelId: CHANNEL, teamId: TEAM },
      log: quietLog,
    };
    const asked = await driving(
      env.bot.dispatcher.dispatch(
        { op, raw, commandText: '/fw deploy asa-branch-02', entry: 'command', holder: work },
        request,
      ),
    );
    if (asked.kind !== 'approval') throw new Error(`asked for no approval: ${asked.kind}`);
    const record = await env.bot.approvals
      .pending()
      .then((all) => all.find((r) => r.request.id === asked.approvalId));
    if (!record?.cardChannel || !record.cardTs) throw new Error('no card');
    const card = {
      channel: record.cardChannel,
      ts: record.cardTs,
      id: asked.approvalId,
      blocks: [] as never[],
    };
    const shown = env.driver.current(card);
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, {
      ...card,
      blocks: shown.blocks as never[],
    });
    expect(await deployed(card)).toContain('deployed: the changes are on the devices now');
    // The hold is the work's: the deploy took none of its own, and did not end it.
    expect((await held()).map((hold) => hold.holder.id)).toEqual([work]);
    await holds.release(work);
  });

  it('lets an admin end a hold early, approved by a second person and audited; others are refused', async () => {
    const holds = env.holds;
    if (!holds) throw new Error('this world keeps no holds');
    const dc = { uid: env.sim.deviceUid('asa-dc-03'), name: 'asa-dc-03' };
    await holds.take(
      {
        profile: 'default',
        devices: [dc],
        holder: { kind: 'deploy', id: 'ap-stuck00001', requesterId: USERS.alice },
        reason: 'deploy to asa-dc-03',
        until: env.clock() + 3_600_000,
      },
      env.clock(),
    );
    const refused = await command('holds release asa-dc-03 --reason "stuck"', USERS.alice);
    expect(refused.text).toMatch(/admin/);

    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        'holds release asa-dc-03 --reason "the deploy was cancelled in SCC"',
        USERS.erin,
      ),
    );
    expect(textOf(card.blocks)).toContain('end the hold on `asa-dc-03` early');
    expect(await held()).toHaveLength(1);
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const done = stripSentinels(await env.driver.threadReply(card, (t) => t.includes('released the hold')));
    expect(done).toContain('<@U0ERIN> released the hold on asa-dc-03 early: it was held by a deploy');
    expect(done).toContain('Why: the deploy was cancelled in SCC.');
    expect(await held()).toEqual([]);
    const audit = await env.bot.approvals.audit.latest(10);
    expect(audit.find((r) => r.approvalId === card.id && r.action === 'executed')).toMatchObject({
      operationId: 'holds.release',
      target: expect.stringContaining('hold on asa-dc-03'),
    });
  });
});
