// What became of a destructive call a crash interrupted after it was sent (approvals/executor.ts asks the
// operation's target): for operations whose target stays, the operation looks in SCC. Against the seeded
// simulator with the real client: nothing found while the call has not taken effect (a person checks),
// the outcome once it has.
import { describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();
const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });

async function resolved(text: string) {
  const { op, raw } = catalogue.parse(text);
  const target = op.target;
  if (!target?.interrupted) throw new Error(`${op.id} declares no way to find an interrupted call`);
  const { facts, raw: bound } = await driving(target.resolve(h.context(), raw));
  return {
    interrupted: () => driving(target.interrupted?.(h.context(), facts) ?? Promise.resolve(undefined)),
    execute: () => driving(op.execute(h.context(), bound, facts)),
  };
}

describe('an interrupted destructive call, found in SCC', () => {
  it('tenants users remove: done once none of the names is a user of the tenant', async () => {
    const user = h.sim.state.tenants.get(h.sim.tenantUid('contoso-eu'))?.users.find((u) => !u.apiOnly);
    if (!user) throw new Error('the seed has no human user in contoso-eu');
    const call = await resolved(`tenants users remove contoso-eu ${user.username}`);
    expect(await call.interrupted()).toBeUndefined();
    await call.execute();
    for (let i = 0; i < 20; i += 1) h.sim.clock.advance(5_000);
    const found = await call.interrupted();
    expect(found?.track).toEqual([]);
    expect(JSON.stringify(found?.view.blocks)).toContain(`took effect; none of \`${user.username}\``);
  });

  it('discard: done once nothing is staged on the device any more', async () => {
    await driving(h.run('interfaces delete asa-hq-01 Vlan20'));
    const call = await resolved('discard asa-hq-01');
    expect(await call.interrupted()).toBeUndefined();
    await call.execute();
    for (let i = 0; i < 20; i += 1) h.sim.clock.advance(5_000);
    const found = await call.interrupted();
    expect(found?.track).toEqual([]);
    expect(JSON.stringify(found?.view.blocks)).toMatch(/nothing is staged on `asa-hq-01` any more/);
  });
});
