// The console subscribes to alerts as Slack does: the same catalogue and dispatcher, the subscriptions in
// the rig's Redis, the simulator answering subscribe's checks, and the plain-text rendering of the views.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: alerts', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('subscribes, lists with the id, refuses a viewer, and unsubscribes', async () => {
    const made = await rig.type('alerts subscribe connectivity conflict --devices asa-hq');
    expect(made).toContain('now hears about connectivity, conflict of profile default, devices matching name:*asa-hq*');
    expect(made).toContain('The first scan is a baseline');
    const id = /Subscription ([a-z0-9]{6})\./.exec(made)?.[1];
    expect(id).toBeDefined();

    const listed = await rig.type('alerts');
    expect(listed).toContain('Alerts in this channel');
    expect(listed).toContain(`${id} connectivity, conflict of profile default`);
    expect(listed).toContain('No open incident.');

    expect(await rig.type('alerts subscribe all --tenant no-such-tenant')).toMatch(/No tenant named/);
    await rig.type('/as carol');
    expect(await rig.type(`alerts unsubscribe ${id}`)).toMatch(/operator/);
    await rig.type('/as alice');
    expect(await rig.type(`alerts unsubscribe ${id}`)).toContain('no longer hears about');
    expect(await rig.type('alerts')).toContain('has no alert subscription');
  });
});
