// SCC's strings reach Slack: the characters fwbot marks its own live mentions and literal values with
// (render/mrkdwn.ts) are dropped where SCC's answers are read, so a device, tenant or error text from SCC
// cannot make a mention or pass for a value fwbot marked.
import { afterEach, describe, expect, it } from 'vitest';
import { escapeMrkdwn, userMention } from '../../src/render/mrkdwn.js';
import { SccApiError } from '../../src/scc/errors.js';
import { clientOf, DEVICE, DEVICE_UID, type FakeScc, startFakeScc } from './fakeScc.js';

let fake: FakeScc;
afterEach(async () => {
  await fake.close();
});

describe('SCC answers and mentions', () => {
  it('drops mention-wrapping characters from every string SCC sends', async () => {
    const forged = `${userMention('U0ATTACK')} and <!channel>`;
    fake = await startFakeScc(() => ({ status: 200, body: { ...DEVICE, name: forged } }));
    const { client } = clientOf(fake);

    const { data } = await client.call('getDevice', { path: { deviceUid: DEVICE_UID } });

    expect(data.name).toBe('<@U0ATTACK> and <!channel>');
    expect(escapeMrkdwn(data.name)).toBe('&lt;@U0ATTACK&gt; and &lt;!channel&gt;');
  });
});

describe('SCC answers that are not JSON', () => {
  it('drops the mark characters from an error body read as text too', async () => {
    fake = await startFakeScc(() => ({
      status: 400,
      text: `<html>\uE000<@U0ATTACK>\uE001 \uE004*x*\uE005</html>`,
    }));
    const { client } = clientOf(fake);

    const error = await client
      .call('getDevice', { path: { deviceUid: DEVICE_UID } })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SccApiError);
    expect((error as SccApiError).rawBody).toBe('<html><@U0ATTACK> *x*</html>');
  });
});
