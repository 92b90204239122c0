// Extra approvers (src/approvals/extraApprovers.ts): approver rules a target adds besides the usual ones
// (an access request reaching a protected destination). Their places are matched, so an approval that
// fills no open place is refused, and the request runs only once each rule has its approvers. The pure
// matching, then a request through Slack (real Bolt, Redis, the simulator) whose stored request carries an
// extra rule, as the gate writes it for a target that declares `approvers`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fits } from '../../src/approvals/extraApprovers.js';
import type { ApprovalRequest } from '../../src/approvals/record.js';
import { RedisKeys } from '../../src/redis/keys.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const PCI = {
  key: 'access.protected_destinations[0]',
  principals: [USERS.dave],
  minApprovers: 1,
  reason:
    'Needs an extra approval by access.protected_destinations[0] (pci): the destination 10.20.4.4 reaches into pci (10.20.0.0/16).',
};

describe('extra approvers: which approvals fit', () => {
  const request = (needed: number, rules: { minApprovers: number }[]) =>
    ({
      approvalsNeeded: needed,
      extraApprovers: rules.map((rule, i) => ({ key: `r${i}`, principals: ['U1'], reason: 'x', ...rule })),
    }) as ApprovalRequest;
  const usual = { usual: true, rules: [false, false] };
  const pci = { usual: false, rules: [true, false] };
  const both = { usual: true, rules: [true, true] };
  const netsec = { usual: false, rules: [false, true] };

  it.each([
    ['a usual approver then the rule’s', 2, [1], [usual, pci], true],
    ['two usual approvers while the rule waits', 2, [1], [usual, usual], false],
    ['the rule’s approver alone first', 2, [1], [pci], true],
    ['two of the rule’s approvers for one place', 2, [1], [pci, pci], false],
    ['someone in both placed where they are needed', 3, [1, 1], [both, pci, usual], true],
    ['two rules, one approver each, and the usual', 3, [1, 1], [netsec, usual, pci], true],
    ['two rules, the second not covered', 3, [1, 1], [usual, pci, pci], false],
    ['min_approvers 2 of a rule', 3, [2], [pci, pci, usual], true],
  ] as const)('%s', (_name, needed, mins, people, expected) => {
    expect(
      fits(
        request(
          needed,
          mins.map((minApprovers) => ({ minApprovers })),
        ),
        people,
      ),
    ).toBe(expected);
  });
});

describe('extra approvers through Slack', () => {
  let env: ApprovalsEnv;
  const ask = (text: string, user: string = USERS.alice) => env.driver.ask(env.bot.eventsUrl, text, user);
  const click = (user: string, card: Awaited<ReturnType<typeof ask>>) =>
    env.driver.click(env.bot.eventsUrl, 'approve', user, card);

  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(async () => {
    await env.stop();
  });

  /** The request as the gate stores it for a target whose `approvers` adds the PCI owners' rule. */
  async function withExtraApprovers(id: string): Promise<void> {
    const key = new RedisKeys(env.prefix).approval(id);
    const request = JSON.parse((await env.bot.redis.hget(key, 'request')) ?? '{}') as ApprovalRequest;
    await env.bot.redis.hset(
      key,
      'request',
      JSON.stringify({ ...request, extraApprovers: [PCI], approvalsNeeded: 2 } satisfies ApprovalRequest),
    );
  }

  it('refuses a second usual approver while the extra rule waits, and runs once its approver approves', async () => {
    const card = await ask('interfaces delete asa-hq-01 guest');
    await withExtraApprovers(card.id);

    await click(USERS.olga, card);
    expect(await env.driver.ephemeral(USERS.olga, (t) => t.includes('counted'))).toMatch(
      /counted \(1 of 2\)/,
    );
    await click(USERS.bob, card);
    expect(await env.driver.ephemeral(USERS.bob)).toMatch(
      /would fill no place still open.*access\.protected_destinations\[0\]/,
    );
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(0);

    await click(USERS.dave, card);
    expect(await env.driver.threadReply(card)).toContain('<@U0OLGA> and <@U0DAVE> approved');
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(1);
    const audit = await env.bot.approvals.audit.latest(20);
    expect(
      audit.find((r) => r.approvalId === card.id && r.outcome === 'approve refused: fills no open place'),
    ).toMatchObject({
      actor: USERS.bob,
    });
  });

  it('shows the extra rule and its reason on the card', async () => {
    const card = await ask('interfaces delete asa-hq-01 iot');
    await withExtraApprovers(card.id);
    await click(USERS.dave, card);
    const updated = await env.driver.cardUpdate(card, (t) => t.includes('Approved so far by <@U0DAVE>'));
    const text = textOf(updated.blocks);
    expect(text).toContain('Also needs one of <@U0DAVE> (`access.protected_destinations[0]`)');
    expect(text).toContain('reaches into pci (10.20.0.0/16)');
    expect(text).toContain(
      'Needs 2 approvals other than the requester’s: one from someone with the approver role',
    );
  });
});
