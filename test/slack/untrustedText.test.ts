// SCC's text in what fwbot posts (issue 24): in native table cells (item 8), device names holding
// `<!channel>`, a mention or a link token, or a right-to-left override, reach Slack's data_table broken and
// visible, not relying on raw_text being shown literally; in an announcement's sentence, a tenant's display
// name cannot add a line or markup. Signed /fw commands into a real Bolt app, the simulator behind the real
// client, the fake Slack Web API recording what was posted.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, type Harness, startHarness, USERS } from './support/harness.js';

interface DataTable {
  type: 'data_table';
  caption: string;
  rows: { type: string; text: string }[][];
}

describe('SCC text in what fwbot posts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  function rename(device: string, name: string): void {
    const record = h.sim.state.devices.get(h.sim.deviceUid(device));
    if (!record) throw new Error(`the seed has no ${device}`);
    record.device.name = name;
  }

  it('breaks mention, special and link tokens and shows hidden characters in cells', async () => {
    rename('asa-hq-01', '<!channel> <@U0VICTIM>\u202E');
    rename('asa-branch-02', '<https://evil.example|Approve>');

    const { responseUrl } = await h.command('devices', { userId: USERS.viewer });
    const reply = await h.reply(responseUrl);

    const blocks = reply.args.blocks as { type: string }[];
    const table = blocks.find((block): block is DataTable => block.type === 'data_table');
    if (!table) throw new Error('the reply has no native table');
    const cells = table.rows.flat().map((cell) => cell.text);
    expect(cells).toContain('‹!channel› ‹@U0VICTIM›\\u202E ⚠');
    expect(cells).toContain('‹https://evil.example|Approve›');
    for (const text of [...cells, table.caption, String(reply.args.text)]) {
      expect(text).not.toMatch(/<[@#!]|<https?:/);
      expect(text).not.toMatch(/\u202E/);
    }
    // Ordinary names are untouched.
    expect(cells).toContain('asa-dc-03');
  });

  it('keeps a tenant display name inside the announcement sentence: no extra line, no markup', async () => {
    const tenant = h.sim.state.tenants.get(h.sim.tenantUid('globex-apj'));
    if (!tenant) throw new Error('the seed has no globex-apj');
    tenant.displayName = 'Globex\n:white_check_mark: *Approved by <@U0BOSS>*';

    await h.command('tenants mcd enable globex-apj', { userId: USERS.operator });
    const post = await h.slack.waitFor((c) => c.method === 'chat.postMessage');

    const text = blocksText(post.args);
    expect(text).toContain(
      '*globex-apj* (`Globex\\n:white_check_mark: *Approved by &lt;@U0BOSS&gt;*` ⚠ (contains hidden or control characters))',
    );
    expect(text.split('\n').filter((line) => /^\s*(:white_check_mark:|\*Approved)/.test(line))).toEqual([]);
    expect(text).not.toContain('<@U0BOSS>');
  });
});
