// What SCC errors say, to developers and to users, and that no token ever shows in any rendering of them:
// message, toString(), JSON, util.inspect (even with hidden properties), logger output.
import { format, inspect } from 'node:util';
import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  SccApiError,
  SccError,
  SccInputError,
  SccNetworkError,
  SccResponseError,
  SccTransactionError,
} from '../../src/scc/errors.js';
import { REDACTED } from '../../src/scc/redaction.js';
import { clientOf, type FakeScc, inOrder, startFakeScc, TEST_TOKEN } from './fakeScc.js';

const request = { operationId: 'getDevices', method: 'GET', path: '/firewall/v1/inventory/devices' };
const OTHER_TENANT_TOKEN = 'opaque-api-token-of-another-tenant-0123456789';

/** Every way an error reaches a screen or a log. */
function renderings(error: Error): Record<string, string> {
  return {
    message: error.message,
    toString: String(error),
    json: JSON.stringify(error),
    inspect: inspect(error, { depth: Number.POSITIVE_INFINITY }),
    inspectHidden: inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    format: format('%o', error),
    stack: error.stack ?? '',
    userMessage: error instanceof SccError ? error.userMessage() : '',
  };
}

function expectNoSecret(error: Error, ...secrets: string[]): void {
  for (const [how, text] of Object.entries(renderings(error))) {
    for (const secret of secrets) {
      expect(text.includes(secret), `${how} shows a secret:\n${text}`).toBe(false);
    }
  }
}

describe('user messages', () => {
  it('quotes SCC on a refusal', () => {
    const error = new SccApiError({
      ...request,
      status: 409,
      errorCode: 'CONFLICT',
      errorMsg: 'A tenant with this name already exists',
      mayHaveBeenProcessed: false,
      attempts: 1,
    });

    expect(error.userMessage()).toBe(
      'SCC refused the request (409 CONFLICT): A tenant with this name already exists',
    );
    expect(error.safeForUser).toBe(true);
  });

  it('says the HTTP status when SCC gave no errorCode', () => {
    const error = new SccApiError({ ...request, status: 403, mayHaveBeenProcessed: false, attempts: 1 });

    expect(error.userMessage()).toBe('SCC refused the request (403 FORBIDDEN).');
  });

  it('explains bad input without having sent anything', () => {
    const error = new SccInputError({ ...request, issues: ['body.tenantName: Invalid string'] });

    expect(error.userMessage()).toBe(
      'The request was not sent because its input is invalid: body.tenantName: Invalid string.',
    );
    expect(error.safeForUser).toBe(true);
  });

  it('points to the log for an answer the client could not read', () => {
    const error = new SccResponseError({
      ...request,
      status: 200,
      issues: [{ field: 'items', problem: 'is required' }],
    });

    expect(error.message).toBe('getDevices: response field items is required');
    expect(error.userMessage()).toBe(
      'SCC answered getDevices in a form fwbot does not understand; the details are in the log.',
    );
    expect(error.safeForUser).toBe(false);
  });

  it('names the field path of a model failure the way people write it', () => {
    const schema = z.object({ items: z.array(z.object({ uid: z.string(), name: z.string() })) });
    const body = { items: [{ uid: 'a', name: 'x' }, { name: 7 }] };
    const failure = schema.safeParse(body);
    if (failure.success) throw new Error('the body was meant to fail');

    const issues = SccResponseError.issuesOf(failure.error, body);

    expect(issues).toEqual([
      { field: 'items[1].uid', problem: 'is required' },
      { field: 'items[1].name', problem: 'expected string, received number' },
    ]);
  });

  it('tells how a transaction ended', () => {
    const error = new SccTransactionError({
      operationId: 'getTransaction',
      method: 'GET',
      path: '/v1/transactions/t-1',
      transactionUid: 't-1',
      transactionStatus: 'ERROR',
      errorMessage: 'cdFMC quota exceeded',
      sentence: 'cdFMC provisioning ended in ERROR',
    });

    expect(error.userMessage()).toBe('cdFMC provisioning ended in ERROR: cdFMC quota exceeded');
  });
});

describe('redaction of errors built from requests carrying a token', () => {
  it('keeps the token out of an API error whose body echoes it', () => {
    const error = new SccApiError({
      ...request,
      secrets: [TEST_TOKEN],
      status: 500,
      errorCode: 'SERVER_ERROR',
      errorMsg: `could not verify Bearer ${TEST_TOKEN}`,
      details: { auth: { header: `Authorization: Bearer ${TEST_TOKEN}`, list: [TEST_TOKEN] } },
      rawBody: `token=${TEST_TOKEN}`,
      mayHaveBeenProcessed: true,
      attempts: 1,
      cause: new Error(`upstream said ${TEST_TOKEN}`, { cause: new Error(`deeper ${TEST_TOKEN}`) }),
    });

    expectNoSecret(error, TEST_TOKEN);
    expect(error.errorMsg).toBe(`could not verify Bearer ${REDACTED}`);
    expect(JSON.stringify(error.details)).toContain(REDACTED);
  });

  it('keeps the token out of a network error whose cause mentions it', () => {
    const cause = Object.assign(new Error(`connect failed for ${TEST_TOKEN}`), { code: 'ECONNRESET' });
    const error = new SccNetworkError({
      ...request,
      secrets: [TEST_TOKEN],
      kind: 'connection',
      cause,
      mayHaveBeenProcessed: false,
      attempts: 4,
    });

    expectNoSecret(error, TEST_TOKEN);
    // The cause keeps its code, so callers can still tell what happened.
    expect((error.cause as { code?: string }).code).toBe('ECONNRESET');
    expect(error.message).toContain('(ECONNRESET)');
  });

  it('keeps the original cause object when it holds no secret', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const error = new SccNetworkError({
      ...request,
      secrets: [TEST_TOKEN],
      kind: 'connection',
      cause,
      mayHaveBeenProcessed: false,
      attempts: 1,
    });

    expect(error.cause).toBe(cause);
  });

  it('redacts any bearer credential or JWT, even one it was not told about', () => {
    const stranger = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.abcdefghijk';
    const error = new SccApiError({
      ...request,
      status: 400,
      errorMsg: `bad tokens: ${stranger} and Bearer abc.def-ghi`,
      mayHaveBeenProcessed: false,
      attempts: 1,
    });

    expectNoSecret(error, stranger, 'abc.def-ghi');
  });
});

describe('redaction end to end', () => {
  let fake: FakeScc | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('keeps the token out of errors from a server that echoes it back', async () => {
    fake = await startFakeScc(
      inOrder(
        { status: 401, body: { error: 'invalid_token', errorDescription: `token ${TEST_TOKEN} expired` } },
        {
          status: 500,
          body: {
            errorCode: 'SERVER_ERROR',
            errorMsg: `failed for ${TEST_TOKEN}`,
            details: { a: { t: TEST_TOKEN } },
          },
        },
        { status: 502, text: `<html>Authorization: Bearer ${TEST_TOKEN}</html>` },
      ),
    );
    const { client } = clientOf(fake, { retry: { maxAttempts: 1 } });

    const errors = [
      await client.devices.list().catch((e: unknown) => e),
      await client.tenants.create({ tenantName: 'acme' }).catch((e: unknown) => e),
      await client.devices.list().catch((e: unknown) => e),
    ];

    expect(errors.map((e) => (e as SccApiError).status)).toEqual([401, 500, 502]);
    for (const error of errors) expectNoSecret(error as Error, TEST_TOKEN);
    await client.close();
  });

  it('keeps a tenant API token sent in the body out of the error that echoes it', async () => {
    fake = await startFakeScc(
      inOrder({
        status: 400,
        body: { errorCode: 'INVALID_INPUT', errorMsg: `token ${OTHER_TENANT_TOKEN} is not valid` },
      }),
    );
    const { client } = clientOf(fake);

    const error = (await client.tenants
      .addByToken(OTHER_TENANT_TOKEN)
      .catch((e: unknown) => e)) as SccApiError;

    expect(error.status).toBe(400);
    expectNoSecret(error, OTHER_TENANT_TOKEN, TEST_TOKEN);
    await client.close();
  });

  it('keeps the token out of a network error raised by the dispatcher', async () => {
    const agent = new Agent();
    const leaky: Dispatcher = agent.compose(() => (options) => {
      // A dispatcher that puts the request's headers into its error message.
      throw new Error(`cannot send ${JSON.stringify(options.headers)}`);
    });
    const { client } = clientOf({ baseUrl: 'http://127.0.0.1:9/firewall' } as FakeScc, {
      dispatcher: leaky,
      retry: { maxAttempts: 1 },
    });

    const error = (await client.devices.list().catch((e: unknown) => e)) as SccNetworkError;

    expect(error).toBeInstanceOf(SccNetworkError);
    expect(String((error.cause as Error).message)).toContain(REDACTED);
    expectNoSecret(error, TEST_TOKEN);
    await client.close();
    await agent.close();
  });
});
