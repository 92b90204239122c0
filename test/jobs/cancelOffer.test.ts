// The Cancel… offer's button carries what the starting call was made under: no --without-approval after
// an approved call, and its change ticket, so a policy that requires tickets accepts the button's cancel.
import { describe, expect, it } from 'vitest';
import { cancelOffer } from '../../src/jobs/messages.js';
import type { Subscriber } from '../../src/jobs/payloads.js';

const thread = {
  channelId: 'C0OPS00001',
  threadTs: '1700000000.000100',
  requesterId: 'U0ALICE001',
  profile: 'default',
};
const uid = '0f2c9a51-7c1e-4f7e-9d55-6d1f5b0c2a10';

function buttonCommand(subscriber: Subscriber): string {
  const json = JSON.stringify(cancelOffer(subscriber, uid).view);
  const found = /transactions cancel [^"\\]*/.exec(json);
  if (!found) throw new Error(`no cancel command in ${json}`);
  return found[0];
}

describe('the Cancel… offer', () => {
  it('carries the ticket of an approved, ticketed call', () => {
    const command = buttonCommand({
      label: 'deploy asa-hq-01',
      thread: { ...thread, approvedBy: ['U0BOB00001'], ticket: 'CHG0012345' },
    });
    expect(command).toBe(`transactions cancel ${uid} --ticket CHG0012345`);
  });

  it('says --without-approval after an unapproved call, and no ticket when there was none', () => {
    expect(buttonCommand({ label: 'show version', thread })).toBe(
      `transactions cancel ${uid} --without-approval`,
    );
  });
});
