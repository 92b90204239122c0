// A change that ends on the device: an approved interface delete is only staged in SCC; `/fw changes`
// shows the exact ASA commands a deploy would run; `/fw deploy` posts a card with those commands and, once
// someone else approves, makes one deploy call that the tracking queue follows. Signed requests into a
// real Bolt app, the simulator's staging model behind the real client, real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

describe('approvals: staged changes reach the device through an approved deploy', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(async () => {
    await env.stop();
  });

  /** Moves simulated time on while `work` waits for SCC (a calculation is a transaction). */
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);

  const command = async (text: string, user: string = USERS.alice) =>
    textOf((await driving(env.driver.commandReply(env.bot.eventsUrl, text, user))).blocks);
  const ask = (text: string, user: string = USERS.alice) =>
    driving(env.driver.ask(env.bot.eventsUrl, text, user));

  it('stages a delete, previews its commands, and deploys them once after approval', async () => {
    const deleteCard = await ask('interfaces delete asa-hq-01 guest');
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, deleteCard));
    expect(await env.driver.threadReply(deleteCard)).toMatch(
      /staged the deletion of VLAN interface \*guest \(Vlan10\)\*/,
    );
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(0);

    const preview = await command('changes asa-hq-01', USERS.carol);
    expect(preview).toContain('no interface Vlan10');

    const since = env.sim.requestLog.total;
    const card = await ask('deploy asa-hq-01 --description "remove the guest VLAN"');
    expect(textOf(card.blocks)).toContain('no interface Vlan10');
    expect(textOf(card.blocks)).toContain('asks to *deploy the staged changes of `asa-hq-01` to the device*');

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    // The approver's click is acknowledged at once; the execution reads the target again (a calculation).
    const followed = await driving(env.bot.tracker.followedIn(card.ts));
    expect(followed.request.kind).toBe('deployment');
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(1);
    // From the request to the deploy call: the device and a calculation (calculate, follow, read) before
    // the card, the device and a calculation again before deploying, then the deploy.
    const calls = env.sim.requestLog.list({ since }).map((e) => e.operationId);
    if (process.env.SHOW_COUNTS) console.log(`deploy: ${calls.length} SCC calls`, calls);
    expect(calls.filter((id) => id === 'deployChangesToMultipleAsaDevices')).toHaveLength(1);
    expect(calls.at(-1)).toBe('deployChangesToMultipleAsaDevices');
  });

  it('deploys nothing when the pending commands changed after the card was posted', async () => {
    env.sim.clock.advance(10 * 60_000); // the first test's deploy has long finished
    const stage = await ask('interfaces delete asa-hq-01 iot');
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, stage));
    expect(await env.driver.threadReply(stage)).toMatch(/staged the deletion/);
    const card = await ask('deploy asa-hq-01');
    // Someone stages another change in the SCC UI before the approver gets to the card.
    const sub = [...env.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === env.sim.deviceUid('asa-hq-01') && i.interfaceType === 'SUB_INTERFACE',
    );
    await env.bot.scc.call('deleteAsaSubInterface', {
      path: { deviceUid: env.sim.deviceUid('asa-hq-01'), interfaceUid: String(sub?.uid) },
    });

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const reply = await driving(env.driver.threadReply(card, (t) => t.includes('Nothing was run')));
    expect(reply).toMatch(/the pending commands changed/);
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(1); // the first test's only
  });
});

describe('approvals: a deletion deployed with it (approvals.deploy_with_change)', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv({ deployWithChange: true });
  });
  afterAll(async () => {
    await env.stop();
  });

  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);
  const ask = (text: string) => driving(env.driver.ask(env.bot.eventsUrl, text, USERS.alice));

  it('deletes and deploys as one approved unit when nothing else is pending on the device', async () => {
    const card = await ask('interfaces delete asa-branch-02 printers');
    expect(textOf(card.blocks)).toContain('and deploy it to the device*');
    expect(textOf(card.blocks)).toContain('Nothing else is pending on `asa-branch-02`');

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const followed = await driving(env.bot.tracker.followedIn(card.ts));
    expect(followed.request).toMatchObject({ kind: 'deployment', label: 'deploy to asa-branch-02' });
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(1);
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(1);
  });

  it('only stages it when other changes are pending there, and says why', async () => {
    const hq = env.sim.deviceUid('asa-hq-01');
    const sub = [...env.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === hq && i.interfaceType === 'SUB_INTERFACE',
    );
    await env.bot.scc.call('deleteAsaSubInterface', {
      path: { deviceUid: hq, interfaceUid: String(sub?.uid) },
    });
    const card = await ask('interfaces delete asa-hq-01 guest');
    expect(textOf(card.blocks)).toContain('Other changes are pending on `asa-hq-01`');

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const followed = await driving(env.bot.tracker.followedIn(card.ts));
    expect(followed.request.kind).toBe('staged');
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(1); // the first test's only
  });
});
