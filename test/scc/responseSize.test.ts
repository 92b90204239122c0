// An SCC answer larger than the client reads is cut off with a clear error instead of growing memory
// without bound (issue 12, item 8 and 9): against a real local server, with a declared length and
// streamed without one, and never retried.
import { afterEach, describe, expect, it } from 'vitest';
import { classifySccError } from '../../src/follow/failures.js';
import { SccResponseTooLargeError } from '../../src/scc/errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES, type SccCallEvent } from '../../src/scc/http.js';
import { clientOf, DEVICE, type FakeScc, inOrder, startFakeScc } from './fakeScc.js';

const LIMIT = 64 * 1024;

/** A page of devices whose JSON is at least `bytes` long. */
function pageOfAtLeast(bytes: number): string {
  const count = Math.ceil(bytes / JSON.stringify(DEVICE).length) + 1;
  const items = Array.from({ length: count }, () => DEVICE);
  return JSON.stringify({ count, limit: count, offset: 0, items });
}

let fake: FakeScc | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('SCC answers larger than the limit', () => {
  it('is 32 MiB unless the client is given another', () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(32 * 1024 * 1024);
  });

  it('refuses an answer whose declared length is over the limit, once, with a clear error', async () => {
    const body = pageOfAtLeast(LIMIT + 1);
    fake = await startFakeScc(
      inOrder({
        status: 200,
        text: body,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      }),
    );
    const events: SccCallEvent[] = [];
    const { client, sleeps } = clientOf(fake, {
      maxResponseBytes: LIMIT,
      onCall: (event) => events.push(event),
    });

    const error = await client.devices.list().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SccResponseTooLargeError);
    const tooLarge = error as SccResponseTooLargeError;
    expect(tooLarge.limitBytes).toBe(LIMIT);
    expect(tooLarge.message).toContain('getDevices');
    expect(tooLarge.message).toContain(`larger than ${LIMIT} bytes`);
    expect(tooLarge.userMessage()).toContain('larger than fwbot reads');
    // The same request would get the same answer: not retried, and a tracking job gives up on it.
    expect(fake.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(events.map((event) => event.outcome)).toEqual(['tooLarge']);
    expect(classifySccError(error).kind).toBe('permanent');
    await client.close();
  });

  it('stops reading a streamed answer (no declared length) once it passes the limit', async () => {
    // The fake writes the body after writeHead without a length: Node sends it chunked.
    fake = await startFakeScc(inOrder({ status: 200, text: pageOfAtLeast(4 * LIMIT) }));
    const { client } = clientOf(fake, { maxResponseBytes: LIMIT });

    const error = await client.devices.list().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SccResponseTooLargeError);
    expect((error as SccResponseTooLargeError).status).toBe(200);
    expect(fake.requests).toHaveLength(1);
    await client.close();
  });

  it('reads an answer within the limit as before', async () => {
    const body = pageOfAtLeast(LIMIT / 2);
    fake = await startFakeScc(
      inOrder({ status: 200, text: body, headers: { 'content-type': 'application/json' } }),
    );
    const { client } = clientOf(fake, { maxResponseBytes: LIMIT });

    const page = await client.devices.list();

    expect(page.items?.length).toBe((JSON.parse(body) as { count: number }).count);
    await client.close();
  });
});
