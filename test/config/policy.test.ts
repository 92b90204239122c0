// Reading roles out of the policy: workspace and channel grants together, users, user groups and
// everyone, with the roles each one implies.
import { describe, expect, it } from 'vitest';
import { loadConfig, type RolePolicy, rolesOf } from '../../src/config.js';

function policyFrom(yaml: string): RolePolicy {
  const policy = loadConfig({ FWBOT_PROFILES: '/p.yaml' }, { readFile: () => yaml }).policy;
  if (policy === null) expect.fail('the file configures no policy');
  return policy;
}

const policy = policyFrom(`policy:
  workspace:
    viewer: ["*"]
    admin: [U0ADMIN001]
  channels:
    C0NETOPS01:
      operator: [U0OPER0001, S0NETOPS01]
      approver: [U0APPR0001]
`);

const held = (userId: string, channelId: string, groupIds: string[] = []) =>
  [...rolesOf(policy, { userId, channelId, groupIds })].sort();

describe('rolesOf', () => {
  it('gives everyone the roles granted to "*"', () => {
    expect(held('U0SOMEONE1', 'C0ELSEWHRE')).toEqual(['viewer']);
  });

  it('adds a channel’s grants to the workspace’s, only in that channel', () => {
    expect(held('U0OPER0001', 'C0NETOPS01')).toEqual(['operator', 'viewer']);
    expect(held('U0OPER0001', 'C0ELSEWHRE')).toEqual(['viewer']);
  });

  it('grants through user-group membership', () => {
    expect(held('U0SOMEONE1', 'C0NETOPS01', ['S0NETOPS01'])).toEqual(['operator', 'viewer']);
  });

  it('lets an approver read but not change', () => {
    expect(held('U0APPR0001', 'C0NETOPS01')).toEqual(['approver', 'viewer']);
  });

  it('gives an admin every role everywhere', () => {
    expect(held('U0ADMIN001', 'C0ELSEWHRE')).toEqual(['admin', 'approver', 'operator', 'viewer']);
  });

  it('gives nothing when nothing is granted to the user', () => {
    expect([
      ...rolesOf(policyFrom('policy: {}\n'), { userId: 'U0SOMEONE1', channelId: 'C0NETOPS01' }),
    ]).toEqual([]);
  });
});

describe('grants to external people (Slack Connect)', () => {
  const shared = policyFrom(`policy:
  workspace:
    operator: [U0CUST0001]
  channels:
    C0CONTOSO1:
      external:
        viewer: '*'
        operator: [U0CUST0001]
        approver: [U0CUSTLEAD]
    C0FABRIK01:
      external: { approver: [U0CUSTLEAD] }
      allow_external_approvers: true
`);
  const external = (userId: string, channelId: string) =>
    [...rolesOf(shared, { userId, channelId, external: true })].sort();

  it('gives external people only the channel’s external grants, approver only where allowed', () => {
    expect(external('U0CUST0001', 'C0CONTOSO1')).toEqual(['operator', 'viewer']);
    expect(external('U0CUSTLEAD', 'C0CONTOSO1')).toEqual(['viewer']);
    expect(external('U0CUSTLEAD', 'C0FABRIK01')).toEqual(['approver', 'viewer']);
    expect(external('U0CUST0001', 'C0ELSEWHRE')).toEqual([]);
  });

  it('refuses admin among external grants', () => {
    expect(() =>
      policyFrom('policy:\n  channels:\n    C0CONTOSO1:\n      external: { admin: [U0CUST0001] }\n'),
    ).toThrow(/admin/);
  });
});
