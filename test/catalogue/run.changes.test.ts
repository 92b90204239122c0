// Staged changes and deploys against the simulator: what `changes` shows after a staged delete, what a
// deploy sends, discarding, and the deployment runs. Simulated time moves on while an operation waits
// for SCC's calculation (a transaction), as it would on its own in real time.
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/catalogue/operation.js';
import { RedisDeviceHolds } from '../../src/jobs/deviceHolds.js';
import { normalisePrefix, RedisKeys } from '../../src/redis/keys.js';
import { COMMAND_ACTION } from '../../src/render/paging.js';
import { renderText } from '../../src/render/text.js';
import { driveClock } from '../support/driveClock.js';
import { memoryScheduled, memorySnapshots } from '../support/memoryServices.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';
import { ACTOR, catalogue, useSimulator } from './harness.js';

describe('changes and deploys', () => {
  const h = useSimulator();

  /** Moves simulated time on while `work` waits for SCC. */
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });
  /** The operations this file ran, so its last test can tell that each one of the area was. */
  const ran = new Set<string>();
  const run = (text: string) => {
    ran.add(catalogue.parse(text).op.id);
    return driving(h.run(text));
  };

  /**
   * A view with its times ('2026-11-25 17:32 UTC', render/format.ts time()) replaced: they follow simulated
   * time, which moves while tests wait. A raw ISO time would stay, and fail the golden.
   */
  function withoutTimes(view: Outcome['view']): Outcome['view'] {
    return JSON.parse(
      JSON.stringify(view).replace(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/g, '<time>'),
    ) as Outcome['view'];
  }

  it('says nothing is staged on a synced device', async () => {
    const outcome = await run('changes asa-branch-02');
    expect(outcome.view.summary).toBe('asa-branch-02: 0 pending commands');
  });

  it('shows the exact commands a staged delete would run, and offers the next steps', async () => {
    const deleted = await run('interfaces delete asa-hq-01 Vlan20');
    const buttons = deleted.view.blocks.flatMap((b) => (b.kind === 'actions' ? b.buttons : []));
    expect(buttons.map((b) => b.label)).toEqual(['Preview commands', 'Deploy…', 'Discard…']);
    expect(deleted.view.summary).toContain('staged the deletion of VLAN interface iot (Vlan20)');

    const pending = await run('changes asa-hq-01');
    h.golden('changes', pending);
    const code = pending.view.blocks.find((b) => b.kind === 'code');
    expect(code?.kind === 'code' ? code.text : '').toContain('no interface Vlan20');

    // SCC's change log records the same staged delete, by the token's user, until it is deployed.
    const logged = renderText((await run('changelog asa-hq-01')).view);
    expect(logged).toContain('no interface Vlan20');
    expect(logged).toContain('not deployed');
  });

  it('deploys: one call with the devices by UUID, followed as a deployment run', async () => {
    await run('interfaces delete asa-hq-01 Vlan20');
    const outcome = await run('deploy asa-hq-01 --description "remove iot"');
    h.golden('deploy', outcome);
    expect(outcome.track).toMatchObject([{ kind: 'deployment', label: 'deploy to asa-hq-01' }]);
    const calls = h.sim.requestLog.list({ operationId: 'deployChangesToMultipleAsaDevices' });
    expect(calls).toHaveLength(1);
  });

  it('warns before approval that forcing unsupported commands drops every connection', async () => {
    // Renaming an interface cannot be applied line by line (the simulator answers UNSUPPORTED_COMMANDS).
    await driving(h.run('interfaces edit asa-hq-01 dmz', { raw: { name: 'dmz2' } }));
    const { op, raw } = catalogue.parse('deploy asa-hq-01 --force-unsupported');
    const resolved = await driving(
      op.target?.resolve(h.context(), raw) ?? Promise.reject(new Error('no target')),
    );
    const described = op.target?.describe(resolved.facts, Date.now());
    expect(described?.warnings.join(' ')).toMatch(/Full configuration apply.*drops every active connection/);
    const plain = catalogue.parse('deploy asa-hq-01');
    const skipped = await driving(
      plain.op.target?.resolve(h.context(), plain.raw) ?? Promise.reject(new Error('no target')),
    );
    expect(plain.op.target?.describe(skipped.facts, Date.now()).warnings.join(' ')).toMatch(/SCC skips them/);
  });

  it('refuses to deploy where nothing is staged', async () => {
    await expect(run('deploy asa-branch-02')).rejects.toThrow(/Nothing is staged on asa-branch-02/);
  });

  it('discards what is staged by reading the configuration again', async () => {
    await run('interfaces delete asa-hq-01 Vlan20');
    const outcome = await run('discard asa-hq-01');
    h.golden('discard', outcome);
    expect(h.sim.requestLog.list({ operationId: 'readAsaDeviceConfiguration' })).toHaveLength(1);
  });

  it('lists deployment runs and shows what one deployed', async () => {
    await run('interfaces delete asa-hq-01 Vlan20');
    const deployed = await run('deploy asa-hq-01');
    const transactionUid = deployed.track[0]?.kind === 'deployment' ? deployed.track[0].transactionUid : '';
    // Let the run finish, then find it by its transaction as the tracker does.
    for (let i = 0; i < 60; i += 1) h.sim.clock.advance(5_000);
    const list = await run(`deployments transactionUid:"${transactionUid}"`);
    // Times read as everywhere else (render/format.ts time()), never SCC's raw ISO text.
    expect(JSON.stringify(list.view)).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
    // Submission times depend on how far simulated time moved while the calculation was awaited.
    h.golden('deployments', withoutTimes(list.view));
    const { data } = await h.client().call('getDeviceDeploymentRuns', {
      query: { q: `transactionUid:"${transactionUid}"` },
    });
    const runUid = data.items?.[0]?.uid ?? '';
    expect(JSON.stringify(list.view.blocks)).toContain(runUid);
    const shown = await run(`deployments show ${runUid}`);
    expect(shown.view.blocks).toContainEqual({
      kind: 'fields',
      fields: expect.arrayContaining([
        { label: 'Submitted', value: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/) },
      ]),
    });
    h.golden('deployments.show', withoutTimes(shown.view));
    expect(JSON.stringify(shown.view.blocks)).not.toContain('interface Vlan20\\n');
  });

  it('reads and shows a finished run whose device statuses carry no completedAt (the newest reference drops it)', async () => {
    await run('interfaces delete asa-hq-01 Vlan20');
    const deployed = await run('deploy asa-hq-01');
    const transactionUid = deployed.track[0]?.kind === 'deployment' ? deployed.track[0].transactionUid : '';
    for (let i = 0; i < 60; i += 1) h.sim.clock.advance(5_000);
    const record = [...h.sim.state.deploymentRuns.values()].find((r) => r.transactionUid === transactionUid);
    if (!record) throw new Error('the deploy made no run');
    // The simulator omits what it does not hold: SCC as the newest reference describes it.
    for (const device of record.devices) delete device.completedAt;
    const { data } = await h
      .client()
      .call('getDeviceDeploymentRun', { path: { deploymentRunUid: record.uid } });
    expect(data.deviceDeploymentStatuses?.[0]?.completionStatus).not.toHaveProperty('completedAt');
    const shown = renderText((await run(`deployments show ${record.uid}`)).view);
    expect(shown).toContain('asa-hq-01: DONE');
    const listed = renderText((await run(`deployments transactionUid:"${transactionUid}"`)).view);
    expect(listed).toContain('asa-hq-01: DONE');
  });

  it('keeps the running configuration right before a deploy; config history lists it, config diff compares', async () => {
    const snapshots = memorySnapshots();
    const withSnapshots = (text: string) => {
      const { op, raw } = catalogue.parse(text);
      ran.add(op.id);
      return driving(op.execute({ ...h.context(), services: { snapshots } }, raw));
    };
    await run('interfaces delete asa-hq-01 Vlan20');
    const deployed = await withSnapshots('deploy asa-hq-01');
    expect(deployed.track).toMatchObject([
      { kind: 'deployment', snapshots: [{ device: 'asa-hq-01', snapshotId: '1' }] },
    ]);
    const hq = h.sim.deviceUid('asa-hq-01');
    const before = await snapshots.get('default', hq, '1');
    expect(before?.text).toMatch(/^interface Vlan20$/m);
    expect(before).toMatchObject({ phase: 'before-deploy', requestId: 'req-test', device: 'asa-hq-01' });

    const history = await withSnapshots('config history asa-hq-01');
    expect(history.view.summary).toBe('1 snapshot of asa-hq-01');
    h.golden('config.history', withoutTimes(history.view));
    expect(renderText(history.view)).toMatch(/1 +\S+ \S+ UTC +before deploy +request req-test/);

    // A configuration kept by hand, to compare with what the device runs now.
    await snapshots.keep('default', {
      ...(before ?? {
        deviceUid: hq,
        device: 'asa-hq-01',
        at: 0,
        requestId: 'r',
        actor: 'U',
        phase: 'before-deploy',
      }),
      text: 'hostname old-name\n',
    });
    const diff = await withSnapshots('config diff asa-hq-01 2');
    expect(renderText(diff.view)).toMatch(/^ *-hostname old-name$/m);
    expect(renderText(diff.view)).toMatch(/^ *\+hostname asa-hq-01$/m);
    h.golden('config.diff', withoutTimes((await withSnapshots('config diff asa-hq-01 2 1')).view));
    expect((await withSnapshots('config diff asa-hq-01 1 1')).view.summary).toBe('asa-hq-01: no difference');
    await expect(withSnapshots('config diff asa-hq-01 7')).rejects.toThrow(
      /No snapshot 7 of asa-hq-01 is kept/,
    );
    await expect(withSnapshots('config diff asa-hq-01 first')).rejects.toThrow(/snapshot number/);
  });

  it('reads SCC’s change requests, and cancels a deploy SCC still runs', async () => {
    const client = h.client();
    await client.governance.createChangeRequest({ name: 'CHG0000001', description: 'rename inside' });
    h.golden('change-requests', await run('change-requests'));
    h.golden('change-requests.show', await run('change-requests show CHG0000001'));

    const staged = await fetch(`${h.sim.url}/_sim/devices/asa-hq-01/stage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'to be cancelled' }),
    });
    expect(staged.status).toBeLessThan(300);
    const { data } = await client.call('deployChangesToMultipleAsaDevices', {
      body: { deviceUids: [h.sim.deviceUid('asa-hq-01')] },
    });
    // Not driven: the deploy must still be running when the cancel reaches SCC.
    ran.add('transactions.cancel');
    const cancelled = await h.run(`transactions cancel ${data.transactionUid}`);
    expect(renderText(cancelled.view)).toContain('cancelled the `DEPLOY_ASA_DEVICE_CHANGES` transaction');
    h.golden('transactions.cancel', cancelled);
  });

  it('lists the deploys held until their time, and cancels one (the approvals decide who may)', async () => {
    const scheduled = memoryScheduled([
      {
        id: 'ap-0123456789',
        profile: 'default',
        operationId: 'deploy',
        what: 'deploy to asa-hq-01',
        commandText: '/fw deploy asa-hq-01 --ticket CHG0000042',
        runAt: Date.parse('2026-11-28T22:00:00Z'),
        when: 'Sat 22:00 UTC, in 2 days, when the change window opens (asa-hq-01: SCC maintenance window)',
        reason: 'window',
        requester: ACTOR.userId,
        approvers: ['U0LEAD00001', 'U0LEAD00002'],
        ticket: 'CHG0000042',
        breakGlass: undefined,
      },
    ]);
    const withScheduled = (text: string) => {
      const { op, raw } = catalogue.parse(text);
      ran.add(op.id);
      return op.execute({ ...h.context(), services: { scheduled } }, raw);
    };
    const listed = await withScheduled('deployments scheduled');
    h.golden('deployments.scheduled', listed);
    const shown = renderText(listed.view);
    expect(shown).toContain('Runs Sat 22:00 UTC, in 2 days');
    expect(shown).toContain('ticket `CHG0000042`');
    const buttons = listed.view.blocks.flatMap((b) => (b.kind === 'actions' ? b.buttons : []));
    expect(buttons.filter((b) => b.action?.id === COMMAND_ACTION).map((b) => b.action?.value)).toEqual([
      'deployments cancel ap-0123456789',
    ]);

    const cancelled = await withScheduled('deployments cancel ap-0123456789');
    h.golden('deployments.cancel', cancelled);
    expect(renderText(cancelled.view)).toContain('nothing was run');
    const empty = renderText((await withScheduled('deployments scheduled')).view);
    expect(empty).toContain('No approved request of profile `default` is waiting for its time');
    await expect(withScheduled('deployments cancel ap-0123456789')).rejects.toThrow(/No scheduled request/);
    await expect(withScheduled('deployments cancel 12')).rejects.toThrow(/must be a request id/);
  });

  it('lists the devices held for a change in progress, and an admin releases one early', async () => {
    const redis = connectRedis();
    try {
      const holds = new RedisDeviceHolds(
        redis,
        new RedisKeys(normalisePrefix(uniquePrefix('catalogue-holds'))),
      );
      const now = Date.now();
      await holds.take(
        {
          profile: 'default',
          devices: [{ uid: h.sim.deviceUid('asa-hq-01'), name: 'asa-hq-01' }],
          holder: { kind: 'deploy', id: 'ap-0123456789', requesterId: ACTOR.userId },
          reason: 'deploy to asa-hq-01',
          until: now + 2 * 3_600_000,
        },
        now,
      );
      const withHolds = (text: string) => {
        const { op, raw } = catalogue.parse(text);
        ran.add(op.id);
        return op.execute({ ...h.context(), services: { holds } }, raw);
      };
      const listed = await withHolds('holds');
      h.golden('holds', withoutTimes(listed.view));
      expect(renderText(listed.view)).toContain('asa-hq-01 · held by a deploy (request `ap-0123456789`');
      expect(renderText((await withHolds('holds asa-dc-03')).view)).toContain(
        'asa-dc-03 is held for a change in progress',
      );

      const released = await withHolds('holds release asa-hq-01 --reason "the deploy was cancelled in SCC"');
      h.golden('holds.release', withoutTimes(released.view));
      expect(await holds.list(Date.now(), 'default')).toEqual([]);
      expect(renderText((await withHolds('holds')).view)).toContain('No device of profile `default` is held');
      await expect(withHolds('holds release asa-hq-01 --reason again')).rejects.toThrow(/is not held/);
    } finally {
      redis.disconnect();
    }
  });

  it('runs every operation of the changes area', () => {
    const area = catalogue.operations.filter((op) => op.area === 'changes').map((op) => op.id);
    expect(area.filter((id) => !ran.has(id))).toEqual([]);
  });
});
