// One id per Slack request in the logs: the surface's requestId is the interaction's eventId (given by
// instrumentBolt to every line written while it is handled), so the id on an internal error's reference
// line finds every line of that request, the SCC client's included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/app/logger.js';
import { beginRequest } from '../../src/dispatch/request.js';
import { withLogContext } from '../../src/observability/logContext.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { blocksText, type Harness, startHarness, USERS } from '../slack/support/harness.js';

const BROKEN_CHANNEL = 'C0BROKEN001';
const ACTOR = { userId: USERS.viewer, channelId: BROKEN_CHANNEL };

describe('request ids', () => {
  it('takes the event id of the interaction being handled as the request id', () => {
    const log = createLogger('silent');
    const inside = withLogContext({ eventId: '0123456789ab' }, () => beginRequest(log, 'command', ACTOR));
    expect(inside.requestId).toBe('0123456789ab');
  });

  it('makes a fresh id where no interaction set one', () => {
    const outside = beginRequest(createLogger('silent'), 'command', ACTOR);
    expect(outside.requestId).toMatch(/^[0-9a-f]{12}$/);
  });

  describe('through Bolt, wired as the bot', () => {
    let h: Harness;
    beforeAll(async () => {
      // Port 1 (tcpmux) is closed on any ordinary machine: SCC cannot be reached, an internal error.
      h = await startHarness({
        metrics: createMetrics({ processMetrics: false }),
        tokens: { broken: 'sim-super-admin' },
        baseUrls: { broken: 'http://127.0.0.1:1' },
        channelProfiles: { [BROKEN_CHANNEL]: 'broken' },
      });
    });
    afterAll(async () => {
      await h.stop();
    });

    it('puts the id of the reference’s log line on every line of that request, and only one id', async () => {
      const { responseUrl } = await h.command('devices', { userId: USERS.admin, channelId: BROKEN_CHANNEL });
      const text = blocksText((await h.reply(responseUrl)).args);
      const ref = /\(ref ([0-9a-f]{6})\)/.exec(text)?.[1];
      const refLine = JSON.parse(await h.waitForLog(`"ref":"${ref}"`)) as Record<string, unknown>;
      const id = refLine.requestId;
      expect(id).toMatch(/^[0-9a-f]{12}$/);
      expect(refLine.eventId).toBe(id);

      const lines = h.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      const ofRequest = lines.filter((line) => line.requestId === id || line.eventId === id);
      for (const line of ofRequest) {
        if ('requestId' in line) expect(line.requestId, String(line.msg)).toBe(id);
        if ('eventId' in line) expect(line.eventId, String(line.msg)).toBe(id);
      }
      // The shared SCC client's lines (no requestId of their own) are found by the same id.
      expect(ofRequest.some((line) => line.component === 'scc')).toBe(true);
    });
  });
});
