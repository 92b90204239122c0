// SCC's strings reach Slack: the characters fwbot wraps its own live mentions in (render/mrkdwn.ts) are
// dropped where SCC's answers are parsed, so a device, tenant or error text from SCC cannot make one.
import { afterEach, describe, expect, it } from 'vitest';
import { escapeMrkdwn, userMention } from '../../src/render/mrkdwn.js';
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
