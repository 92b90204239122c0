// A change that ends on the device: an approved interface delete is only staged in SCC; `/fw changes`
// shows the exact ASA commands a deploy would run; `/fw deploy` posts a card with those commands and, once
// someone else approves, makes one deploy call that the tracking queue follows. Signed requests into a
// real Bolt app, the simulator's staging model behind the real client, real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSccClient } from '../../src/scc/client.js';
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

    // The change's own message says what a deploy of the device would now push.
    expect(await env.driver.threadReply(deleteCard)).toMatch(
      /A deploy of asa-hq-01 would now push \*1 staged change\*, whoever made it: interface Vlan10 \(removed\)/,
    );

    const since = env.sim.requestLog.total;
    const card = await ask('deploy asa-hq-01 --description "remove the guest VLAN"');
    expect(textOf(card.blocks)).toContain('no interface Vlan10');
    expect(textOf(card.blocks)).toContain('asks to *deploy the staged changes of `asa-hq-01` to the device*');
    // Who staged it, since SCC does not say: the requester of the deletion, and who approved it.
    expect(textOf(card.blocks)).toMatch(
      /<@U0ALICE> deleted VLAN interface guest \(Vlan10\), approved by <@U0BOB> \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)/,
    );

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

  it('names who staged each pending change on the card, and what fwbot did not stage', async () => {
    env.sim.clock.advance(10 * 60_000); // the first test's deploy has long finished
    const branch = env.sim.deviceUid('asa-branch-02');
    // Alice creates a VLAN interface through fwbot (no approval needed), olga edits another one, and
    // someone stages a third change straight through the API, as the SCC UI would.
    await command('interfaces create vlan asa-branch-02 --vlan-id 77 --name lab77', USERS.alice);
    await command('interfaces edit asa-branch-02 printers --mtu 1400', USERS.olga);
    const staff = [...env.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === branch && i.name === 'staff',
    );
    await env.bot.scc.call('modifyAsaSubInterface', {
      path: { deviceUid: branch, interfaceUid: String(staff?.uid) },
      body: { mtu: 1300 },
    });

    const card = textOf((await ask('deploy asa-branch-02')).blocks);
    expect(card).toMatch(/\*asa-branch-02\*, staged through fwbot/);
    expect(card).toMatch(/<@U0ALICE> created VLAN interface lab77 \(Vlan77\)/);
    expect(card).toMatch(/<@U0OLGA> changed VLAN interface printers \(Vlan\d+\) \(MTU: 1500 → 1400\)/);
    // The change made outside fwbot is among the commands but named by nobody.
    expect(card).toContain('mtu staff 1300');
    const named = card.split('\n').filter((line) => line.startsWith('• '));
    expect(named).toHaveLength(2);
    expect(named.join('\n')).not.toContain('staff');
  });

  it('names the SCC user and time of each pending change fwbot did not make, from SCC’s change log', async () => {
    env.sim.clock.advance(10 * 60_000);
    const dc = env.sim.deviceUid('asa-dc-03');
    await command('interfaces edit asa-dc-03 inside --mtu 1400', USERS.alice);
    // Another SCC user changes another interface of the device (as in SCC's UI): fwbot did not make it.
    const other = [...env.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === dc && i.interfaceType === 'PHYSICAL_INTERFACE' && i.name && i.name !== 'inside',
    );
    const admin = createSccClient({ baseUrl: env.sim.url, token: env.sim.tokens.admin });
    try {
      await admin.call('modifyAsaPhysicalInterface', {
        path: { deviceUid: dc, interfaceUid: String(other?.uid) },
        body: { description: 'changed in the SCC UI' },
      });
    } finally {
      await admin.close();
    }

    const card = textOf((await ask('deploy asa-dc-03')).blocks);
    expect(card).toMatch(/\*asa-dc-03\*, staged through fwbot:/);
    expect(card).toMatch(/• <@U0ALICE> changed [A-Za-z]+ interface inside \(/);
    expect(card).toContain('*asa-dc-03*, staged in SCC by others (its change log):');
    expect(card).toMatch(
      new RegExp(
        `• \`ops\\.admin@acme-msp\\.example\` Modified interface ${other?.hardwareName}.* \\(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\)`,
      ),
    );
    expect(card).not.toContain('staged elsewhere');
  });

  it('says why it cannot name them when SCC’s change log cannot be read, and keeps the card', async () => {
    env.sim.faults.add({ path: '/v1/changelogs', status: 500 });
    try {
      const card = textOf((await ask('deploy asa-dc-03')).blocks);
      expect(card).toMatch(
        /\*asa-dc-03\*, staged through fwbot \(the other pending commands, if any, were staged elsewhere: SCC UI, API; SCC’s change log could not be read: SCC could not handle the request \(500 [A-Z_]+\)/,
      );
      expect(card).toMatch(/• <@U0ALICE> changed [A-Za-z]+ interface inside \(/);
    } finally {
      env.sim.faults.clear();
    }
  });

  it('forgets who staged what once a deploy put it on the device', async () => {
    const card = await ask('deploy asa-branch-02');
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await driving(env.bot.tracker.followedIn(card.ts));
    env.sim.clock.advance(10 * 60_000); // the deploy ends in SCC
    expect(await command('changes asa-branch-02')).toContain('Nothing is staged');

    // The same interface changed again: only the new change is named, not olga's deployed one.
    await command('interfaces edit asa-branch-02 printers --mtu 1350', USERS.alice);
    const next = textOf((await ask('deploy asa-branch-02')).blocks);
    const named = next.split('\n').filter((line) => line.startsWith('• '));
    expect(named).toEqual([
      expect.stringMatching(/^• <@U0ALICE> changed VLAN interface printers .*1400 → 1350/),
    ]);
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
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(2); // the earlier tests' only
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
