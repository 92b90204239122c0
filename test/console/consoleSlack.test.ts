// The console's stand-in for Slack gives message timestamps from the wall clock: a console started again
// (the demo restarted) never hands out a ts that an approval kept in Redis still points at, and a card of
// the earlier run shown again at its own ts is updated there.
import { describe, expect, it } from 'vitest';
import { ConsoleSlack } from '../../src/console/consoleSlack.js';

describe('ConsoleSlack timestamps', () => {
  it('are Slack-shaped, strictly increasing within a run, and later than any of an earlier run', () => {
    let wall = Date.UTC(2026, 10, 25, 12, 0, 0);
    const first = new ConsoleSlack(['C0CONSOLE'], () => wall);
    const a = first.post('C0CONSOLE', 'one').ts;
    const b = first.post('C0CONSOLE', 'two').ts; // same millisecond
    expect(a).toMatch(/^\d{10}\.\d{6}$/);
    expect(Number(b)).toBeGreaterThan(Number(a));
    const earlierCard = first.post('C0CONSOLE', 'a card').ts;

    wall += 60_000; // restarted a minute later
    const second = new ConsoleSlack(['C0CONSOLE'], () => wall);
    const fresh = [1, 2, 3].map((n) => second.post('C0CONSOLE', `message ${n}`).ts);
    expect(fresh).not.toContain(earlierCard);
    expect(fresh.every((ts) => Number(ts) > Number(earlierCard))).toBe(true);
  });

  it('shows a message of an earlier run again at its own ts, and updates reach it', () => {
    const slack = new ConsoleSlack(['C0CONSOLE']);
    const posted: string[] = [];
    slack.on('posted', (m) => posted.push(m.ts));
    slack.restore({ channel: 'C0CONSOLE', ts: '1700000007.000100', text: 'Approval request' });
    expect(posted).toEqual(['1700000007.000100']);
    const answer = slack.answer('chat.update', {
      channel: 'C0CONSOLE',
      ts: '1700000007.000100',
      text: 'Approved',
    });
    expect(answer).toMatchObject({ ok: true });
    expect(slack.message('C0CONSOLE', '1700000007.000100')?.text).toBe('Approved');
  });
});
