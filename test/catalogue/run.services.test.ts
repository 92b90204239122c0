// The operations that run on fwbot's own Redis-backed services rather than SCC (the audit trail, the
// upgrade-run watches), with those services in memory: their views are golden like every other's.
import { describe, expect, it } from 'vitest';
import type { AuditRecord, OperationServices } from '../../src/catalogue/operation.js';
import { memoryServices } from '../support/memoryServices.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();

const AUDIT: AuditRecord[] = [
  {
    id: '1764150000000-0',
    at: '2026-11-26T10:00:00.000Z',
    actor: 'U0APPROVER1',
    action: 'approved',
    operationId: 'interfaces.delete',
    target: 'VLAN interface iot (Vlan20) on asa-hq-01',
    outcome: 'approved',
    approvalId: 'ap-0000000001',
  },
  {
    id: '1764150060000-0',
    at: '2026-11-26T10:01:00.000Z',
    actor: 'U0APPROVER1',
    action: 'executed',
    operationId: 'interfaces.delete',
    target: 'VLAN interface iot (Vlan20) on asa-hq-01',
    outcome: 'Done: staged, not on the device until a deploy.',
    approvalId: 'ap-0000000001',
    transactionUid: '5b0cf1c2-0d3e-4d36-9d7a-1c2b3d4e5f60',
  },
];

const services = () => memoryServices(AUDIT);

async function run(text: string, given: OperationServices) {
  const { op, raw } = catalogue.parse(text);
  return op.execute({ ...h.context(), services: given }, raw);
}

describe('operations on fwbot’s own services', () => {
  it('audit: the latest records, newest first', async () => {
    h.golden('audit', await run('audit 2', services()));
  });

  it('vpn watch / unwatch: a channel hears of every upgrade run that ends, once', async () => {
    const given = services();
    const watched = await run('vpn watch <#C0NETOPS01|netops>', given);
    h.golden('vpn.watch', watched);
    expect(JSON.stringify((await run('vpn watch <#C0NETOPS01|netops>', given)).view)).toContain(
      'already hears',
    );
    h.golden('vpn.unwatch', await run('vpn unwatch <#C0NETOPS01|netops>', given));
    expect(await given.watches?.list()).toEqual([]);
  });

  it('says where it cannot run: a process without the services (the CLI)', async () => {
    await expect(run('audit', {})).rejects.toThrow(/not available in this process/);
    await expect(run('vpn watch <#C0NETOPS01|netops>', {})).rejects.toThrow(/not available here/);
  });
});
