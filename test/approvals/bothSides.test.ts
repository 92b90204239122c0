// Approvals from both sides (issue 29, `customer_approvers`): a request on a customer's tenant needs one
// approval from the MSP's approvers and one from the customer's. The count is one Lua step in Redis, so no
// number of one side's approvals completes it, and of many clicks at once exactly one approves it; the card
// and the clicker are told who is still needed.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  scopedApprovers,
  scopeOfFacts,
  sideStillHeld,
  sidesCovered,
  stillNeeded,
} from '../../src/approvals/approvers.js';
import type { Authorizer } from '../../src/approvals/authorizer.js';
import { renderCard } from '../../src/approvals/card.js';
import type { ApprovalRecord, ApprovalRequest } from '../../src/approvals/record.js';
import { ApprovalStore, type ApproverSide } from '../../src/approvals/store.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';

const T0 = Date.parse('2025-06-02T09:00:00Z');

function request(id: string): ApprovalRequest {
  return {
    id,
    operationId: 'interfaces.delete',
    raw: { device: 'nw-asa-hq', interface: 'guest' },
    commandText: '/fw interfaces delete nw-asa-hq guest',
    profile: 'contoso',
    requesterId: 'U0MSPOPS01',
    channelId: 'C0CONTOSO1',
    createdAt: T0,
    expiresAt: T0 + 30 * 60_000,
    role: 'operator',
    target: {
      facts: {},
      description: { action: 'delete interface `guest`', line: 'nw-asa-hq guest', fields: [], warnings: [] },
    },
    approvalsNeeded: 2,
    approverRule: { principals: ['U0MSPLEAD1', 'U0MSPLEAD2'], rules: ['approvals.approvers[0]'] },
    customerSide: { tenant: 'contoso-eu', principals: ['U0CUSTLEAD'], rules: ['approvals.approvers[0]'] },
  };
}

describe('approvals from both sides: the count in Redis', () => {
  let redis: Redis;
  let store: ApprovalStore;
  let n = 0;
  const fresh = async () => {
    n += 1;
    const id = `ap-sides${n}`;
    await store.create(request(id));
    return id;
  };
  const approve = (id: string, who: string, side: ApproverSide, needed = 2) =>
    store.decide(id, 'approved', T0, who, undefined, needed, side);

  beforeAll(() => {
    redis = new Redis(redisUrl());
    store = new ApprovalStore({
      redis,
      prefix: uniquePrefix('both-sides'),
      retentionMs: 60_000,
      claimGraceMs: 5_000,
    });
  });
  afterAll(() => {
    redis.disconnect();
  });

  it('does not complete on two MSP approvals; the customer’s completes it', async () => {
    const id = await fresh();
    expect(await approve(id, 'U0MSPLEAD1', 'm')).toMatchObject({ outcome: 'partial' });
    // The count (2) is reached, but the customer's side is still missing.
    expect(await approve(id, 'U0MSPLEAD2', 'm')).toMatchObject({ outcome: 'partial' });
    expect((await store.get(id))?.state).toBe('pending');

    const last = await approve(id, 'U0CUSTLEAD', 'c');
    expect(last).toMatchObject({ outcome: 'decided', state: 'approved' });
    const record = await store.get(id);
    expect(record?.approvers).toEqual(['U0MSPLEAD1', 'U0MSPLEAD2', 'U0CUSTLEAD']);
    expect(record?.approverSides).toBe('mmc');
  });

  it('completes with one approval from each side, in either order', async () => {
    const id = await fresh();
    expect(await approve(id, 'U0CUSTLEAD', 'c')).toMatchObject({ outcome: 'partial' });
    expect(await approve(id, 'U0MSPLEAD1', 'm')).toMatchObject({ outcome: 'decided', state: 'approved' });
  });

  it('lets someone named on both sides cover the side left open, but not both alone', async () => {
    const id = await fresh();
    expect(await approve(id, 'U0BOTHGRP1', 'e')).toMatchObject({ outcome: 'partial' });
    expect(await approve(id, 'U0BOTHGRP1', 'e')).toMatchObject({ outcome: 'again' });
    expect(await approve(id, 'U0MSPLEAD1', 'm')).toMatchObject({ outcome: 'decided' });
  });

  it('keeps min_approvers on top of the two sides', async () => {
    const id = await fresh();
    expect(await approve(id, 'U0MSPLEAD1', 'm', 3)).toMatchObject({ outcome: 'partial' });
    expect(await approve(id, 'U0CUSTLEAD', 'c', 3)).toMatchObject({ outcome: 'partial' });
    expect(await approve(id, 'U0MSPLEAD2', 'm', 3)).toMatchObject({ outcome: 'decided' });
  });

  it('of twenty MSP approvers clicking at once, none completes it', async () => {
    const id = await fresh();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => approve(id, `U0MSP${String(i).padStart(4, '0')}`, 'm')),
    );
    expect(results.every((result) => result.outcome === 'partial')).toBe(true);
    const record = await store.get(id);
    expect(record?.state).toBe('pending');
    expect(record?.approverSides).toBe('m'.repeat(20));
  });

  it('of twenty clicks at once from both sides, exactly one approves it, with both sides among the approvers', async () => {
    const id = await fresh();
    // Ten of each side, interleaved so that the customer's arrive among the MSP's.
    const clicks = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? approve(id, `U0MSP${String(i).padStart(4, '0')}`, 'm')
        : approve(id, `U0CUS${String(i).padStart(4, '0')}`, 'c'),
    );
    const results = await Promise.all(clicks);
    const decided = results.filter((result) => result.outcome === 'decided');
    expect(decided).toHaveLength(1);
    expect(
      results.filter((result) => result.outcome === 'partial' || result.outcome === 'refused'),
    ).toHaveLength(19);
    const record = await store.get(id);
    expect(record?.state).toBe('approved');
    expect(sidesCovered(record?.approverSides ?? '')).toBe('both');
    // Clicks after the winning one are refused and recorded nowhere.
    expect(record?.approvers).toHaveLength(record?.approverSides?.length ?? -1);
  });
});

describe('approvals from both sides: who is still needed', () => {
  const pending = (approvers: string[], sides: string): ApprovalRecord => ({
    request: request('ap-words'),
    state: 'pending',
    attempts: 0,
    ...(approvers.length > 0 ? { approvers, approverSides: sides } : {}),
  });

  it('names the side still missing, and the customer’s tenant', () => {
    expect(stillNeeded(pending([], ''))).toBe(
      'one of the MSP’s approvers and one of the customer’s approvers (contoso-eu)',
    );
    expect(stillNeeded(pending(['U0MSPLEAD1'], 'm'))).toBe('one of the customer’s approvers (contoso-eu)');
    expect(stillNeeded(pending(['U0MSPLEAD1', 'U0MSPLEAD2'], 'mm'))).toBe(
      'one of the customer’s approvers (contoso-eu)',
    );
    expect(stillNeeded(pending(['U0CUSTLEAD'], 'c'))).toBe('one of the MSP’s approvers');
    expect(stillNeeded(pending(['U0CUSTLEAD', 'U0MSPLEAD1'], 'cm'))).toBeUndefined();
  });

  it('says it on the card, with both sides’ people', () => {
    const card = renderCard(pending(['U0MSPLEAD1'], 'm'), T0);
    // Mentions carry the renderer's private-use markers until Block Kit is made; the words are what counts.
    const text = card.blocks
      .map((block) => ('text' in block ? block.text : ''))
      .join('\n')
      .replace(/[\uE000-\uF8FF]/g, '');
    expect(text).toContain(
      'one of the MSP’s approvers (<@U0MSPLEAD1>, <@U0MSPLEAD2>) and one of the customer’s approvers (contoso-eu: <@U0CUSTLEAD>)',
    );
    expect(text).toContain(
      'Approved so far by <@U0MSPLEAD1>. Still needed: one of the customer’s approvers (contoso-eu).',
    );
  });
});

describe('approvals from both sides: which requests a rule covers', () => {
  const rule = {
    key: 'approvals.approvers[0]',
    tenant: 'contoso-eu',
    approvers: ['U0MSPLEAD1'],
    customerApprovers: ['U0CUSTLEAD'],
    minApprovers: 1,
  };
  const noQuery = async () => false;

  it('covers a customer channel’s call on its tenant, whose devices do not name the tenant', async () => {
    const facts = { device: { uid: 'd-1', name: 'nw-asa-hq' } };
    const scoped = await scopedApprovers([rule], scopeOfFacts('contoso', facts, 'contoso-eu'), noQuery);
    expect(scoped?.customer).toEqual({
      principals: ['U0CUSTLEAD'],
      tenants: ['contoso-eu'],
      rules: ['approvals.approvers[0]'],
    });
    expect(await scopedApprovers([rule], scopeOfFacts('contoso', facts), noQuery)).toBeUndefined();
  });
});

describe('approvals from both sides: the re-check before running', () => {
  const approved: ApprovalRecord = {
    request: request('ap-recheck'),
    state: 'approved',
    attempts: 0,
    approvers: ['U0MSPLEAD1', 'U0CUSTLEAD'],
    approverSides: 'mc',
  };
  /** An authorizer that names who is among each side now. */
  const named =
    (msp: string[], customer: string[]): Authorizer =>
    async (check) =>
      (check.customerSide === true ? customer : msp).includes(check.userId);

  it('holds each approver to the side they were counted for', async () => {
    const now = named(['U0MSPLEAD1'], ['U0CUSTLEAD']);
    expect(await sideStillHeld(approved, 'U0MSPLEAD1', {}, now)).toBe('m');
    expect(await sideStillHeld(approved, 'U0CUSTLEAD', {}, now)).toBe('c');
  });

  it('drops a customer’s approver no longer among the customer’s, even if the MSP names them now', async () => {
    const now = named(['U0MSPLEAD1', 'U0CUSTLEAD'], []);
    expect(await sideStillHeld(approved, 'U0CUSTLEAD', {}, now)).toBeUndefined();
  });
});
