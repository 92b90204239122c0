// What `/fw changes` and a staged change's note show of configuration lines SCC answers in clear: the
// commands a deploy would run, and the names of staged items, with their secret values masked.
import { describe, expect, it } from 'vitest';
import type { RenderMeta } from '../../src/model/types.js';
import { renderPendingChanges, stagedNote } from '../../src/render/changes.js';
import { renderText } from '../../src/render/text.js';

const meta: RenderMeta = {
  operationId: 'changes',
  raw: { device: 'asa-hq-01' },
  actor: { userId: 'U0ENGINEER', channelId: 'C0OPS' },
};

describe('pending changes and staged items', () => {
  it('masks the secrets of the commands a deploy would run', () => {
    const view = renderPendingChanges(
      {
        device: { uid: 'd1', name: 'asa-hq-01' },
        configState: 'NOT_SYNCED',
        conflict: false,
        staged: true,
        status: 'SUCCESS',
        commands: [
          'tunnel-group 203.0.113.9 ipsec-attributes',
          ' ikev1 pre-shared-key Cl34rPsk',
          'mtu inside 1400',
        ],
      },
      meta,
    );
    const text = renderText(view);
    expect(text).toContain(' ikev1 pre-shared-key *****');
    expect(text).toContain('mtu inside 1400');
    expect(text).not.toContain('Cl34rPsk');
  });

  it('masks the secret of a staged item named by its line', () => {
    const note = stagedNote('asa-hq-01', [{ what: 'snmp-server community Cl34rComm', change: 'new' }]);
    expect(note).toContain('snmp-server community ***** (new)');
    expect(note).not.toContain('Cl34rComm');
  });
});
