// Operations read the one clock their context gives them (OperationContext.now, from src/dispatch/context.ts),
// never the machine's: through the real /fw listener and dispatcher, a test clock a day and a half away from
// the machine's decides the deploy card's "open now", its "if approved now, it runs …" and what `--at 12:34`
// means. The approvals' executor is handed the same clock (test/approvals/operationClock.test.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hhmm, openEveryDay, stageVlanDeletion } from '../support/changeWindows.js';
import { driveClock } from '../support/driveClock.js';
import { type Harness, startHarness, USERS } from './support/harness.js';

const HOUR = 3_600_000;

describe('the clock operations read', () => {
  // 36 hours from the machine's time: whenever the test runs, the machine's time of day is twelve hours
  // from the test clock's, so a window open around the test clock's now is closed by the machine's.
  const now = Math.floor((Date.now() + 36 * HOUR) / 60_000) * 60_000;
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      clock: () => now,
      changes: openEveryDay(now - HOUR, now + HOUR),
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('decides the deploy card’s "open now", "runs at" and `--at`, not the machine’s clock', async () => {
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    await stageVlanDeletion(h.sim, scc, 'asa-branch-02', 'Vlan30');

    const at = now + 30 * 60_000;
    await h.command(`deploy asa-branch-02 --at ${hhmm(at)}`, { userId: USERS.operator });
    const asked = await driveClock(
      h.sim.clock,
      vi.waitFor(
        () => {
          const request = h.gate.requests[0];
          if (!request) throw new Error('no approval asked for yet');
          return request;
        },
        { timeout: 20_000, interval: 20 },
      ),
    );

    // `12:34` is the next 12:34 after the test clock's now, bound to the moment for the approval.
    expect(asked.raw.at).toBe(new Date(at).toISOString());
    const notes = (asked.target.description.notes ?? []).join('\n');
    expect(notes).toContain(
      `Change window of asa-branch-02: Mon, Tue, Wed, Thu, Fri, Sat, Sun ${hhmm(now - HOUR)}–${hhmm(now + HOUR)} UTC (open now)`,
    );
    expect(notes).toMatch(
      new RegExp(`If approved now, it runs \\w{3} ${hhmm(at)} UTC, in 30 minutes \\(your time: `),
    );
  });
});
