// SCC's own refusal of a command line on a device with undeployed changes (a change staged between fwbot's
// read of the device and its script), as the real SCC client receives it from the simulator: said in the
// same one sentence as fwbot's own check, with SCC's errorCode and errorMsg after it; a refusal of another
// device, or of anything else, is left as it is.
import { describe, expect, it } from 'vitest';
import { undeployedRefusal } from '../../src/catalogue/undeployedChanges.js';
import { UserError } from '../../src/model/errors.js';
import { useSimulator } from './harness.js';

describe('SCC’s refusal of a NOT_SYNCED device’s command line', () => {
  const h = useSimulator();

  it('is said as the device’s undeployed changes, with SCC’s words', async () => {
    const scc = h.client();
    const hq = h.sim.deviceUid('asa-hq-01');
    const vlan = [...h.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === hq && i.hardwareName === 'Vlan20',
    );
    await scc.call('deleteAsaVlanInterface', { path: { deviceUid: hq, interfaceUid: vlan?.uid ?? '' } });
    const refused: unknown = await scc.lookups.executeCli({ deviceUids: [hq], script: 'show version' }).then(
      () => undefined,
      (error: unknown) => error,
    );

    const said = undeployedRefusal(refused, { uid: hq, name: 'asa-hq-01' });
    expect(said).toBeInstanceOf(UserError);
    expect((said as UserError).message).toBe(
      'asa-hq-01 has undeployed changes (its configuration in SCC is NOT_SYNCED), and SCC runs no command line on it until they are deployed or discarded: `/fw changes asa-hq-01` shows them; deploy them with `/fw deploy asa-hq-01` or discard them with `/fw discard asa-hq-01`, then try again. (SCC answered 400 INVALID_INPUT: Cannot run CLI commands on a device whose configuration is NOT_SYNCED (undeployed changes).)',
    );
    // Another device's refusal, and any other error, stay as they are.
    expect(undeployedRefusal(refused, { uid: h.sim.deviceUid('asa-branch-02'), name: 'asa-branch-02' })).toBe(
      refused,
    );
    const other = new Error('network');
    expect(undeployedRefusal(other, { uid: hq, name: 'asa-hq-01' })).toBe(other);
  });
});
