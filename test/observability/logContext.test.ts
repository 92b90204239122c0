// Request and event ids reach log lines written by shared objects (created once, with a logger of their
// own) while a request is handled, and only then; fields a line already has are left alone.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { instrumentBolt, type ReceivedEvent } from '../../src/app/instrument.js';
import { createLogger } from '../../src/app/logger.js';
import { addContext, contextualDestination, withLogContext } from '../../src/observability/logContext.js';
import { createMetrics } from '../../src/observability/metrics.js';

class Capture extends Writable {
  lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    for (const line of chunk.toString().split('\n').filter(Boolean)) this.lines.push(JSON.parse(line));
    done();
  }
}

describe('log context', () => {
  it('adds the missing fields before the closing brace and keeps the ones a line has', () => {
    expect(addContext('{"msg":"x"}\n', { requestId: 'r1' })).toBe('{"msg":"x","requestId":"r1"}\n');
    expect(addContext('{"requestId":"own","msg":"x"}\n', { requestId: 'r1' })).toBe(
      '{"requestId":"own","msg":"x"}\n',
    );
    expect(addContext('{"msg":"x"}\n', undefined)).toBe('{"msg":"x"}\n');
  });

  it('puts the id of the request being handled on a shared logger’s lines, and nothing outside', async () => {
    const capture = new Capture();
    const shared = createLogger('info', contextualDestination(capture)).child({ component: 'scc' });
    await withLogContext({ requestId: 'abc123' }, async () => {
      await Promise.resolve();
      shared.info('inside');
    });
    shared.info('outside');
    expect(capture.lines[0]).toMatchObject({ msg: 'inside', requestId: 'abc123', component: 'scc' });
    expect(capture.lines[1]).not.toHaveProperty('requestId');
  });

  it('gives each Slack interaction its own event id on every line written while it is handled', async () => {
    const capture = new Capture();
    const shared = createLogger('info', contextualDestination(capture));
    const app = {
      async processEvent(event: ReceivedEvent) {
        await event.ack();
        shared.info({ command: event.body.command }, 'handled');
      },
    };
    instrumentBolt(app, createMetrics({ processMetrics: false }));
    await app.processEvent({ body: { command: '/fw' }, ack: async () => {} });
    await app.processEvent({ body: { command: '/fw' }, ack: async () => {} });
    const [first, second] = capture.lines;
    expect(first?.eventId).toMatch(/^[0-9a-f]{12}$/);
    expect(second?.eventId).toMatch(/^[0-9a-f]{12}$/);
    expect(first?.eventId).not.toBe(second?.eventId);
  });
});
