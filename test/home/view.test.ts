// The App Home as a pure function of its data: golden files of the View, of its Block Kit for
// views.publish and of its console text; and Slack's limits for a Home tab (100 blocks, section text,
// unique action ids) kept whatever Redis holds, with each cut section saying how much it left out.
import { describe, expect, it } from 'vitest';
import { APPROVE_ACTION, CANCEL_ACTION, REJECT_ACTION } from '../../src/approvals/card.js';
import { HOME_BLOCKS, HOME_CAPS, homeBlockBudget, homeView } from '../../src/home/view.js';
import { renderText } from '../../src/render/text.js';
import { HOME_BYTES, homeBlocks } from '../../src/slack/homeTab.js';
import { expectGolden, expectGoldenFile } from '../render/golden.js';
import { blockTexts } from '../support/blockTexts.js';
import { crowdedHome, ME, typicalHome } from './fixtures.js';

interface Block {
  type: string;
  text?: { text: string };
  elements?: { action_id?: string; value?: string }[];
}

describe('the App Home view', () => {
  it('shows each section of a typical Home (golden: View, Block Kit and text)', () => {
    const view = homeView(typicalHome());
    expectGolden('home', view);
    expectGoldenFile('home.blocks.json', `${JSON.stringify(homeBlocks(view), null, 2)}\n`);
  });

  it('offers Approve and Reject with the approval card’s own action ids and values', () => {
    const published = homeBlocks(homeView(typicalHome()));
    const buttons = (published.blocks as Block[])
      .filter((block) => block.type === 'actions')
      .flatMap((block) => block.elements ?? []);
    const ids = buttons.map((button) => button.action_id?.replace(/:\d+$/, ''));
    expect(ids.filter((id) => id === APPROVE_ACTION)).toHaveLength(2);
    expect(ids.filter((id) => id === REJECT_ACTION)).toHaveLength(2);
    // Only the requester's own request carries Cancel.
    expect(ids.filter((id) => id === CANCEL_ACTION)).toHaveLength(1);
    // The first is the Home's *Request access*: the line that opens the form.
    expect(buttons[0]).toMatchObject({ text: { text: 'Request access' }, value: 'access request' });
    expect(ids[0]).toBe('fw.command');
    expect(buttons[1]?.value).toBe(JSON.stringify({ v: 1, id: 'ap-0001' }));
  });

  it('is a Home tab view, with the summary as its text version', () => {
    const view = homeView(typicalHome());
    expect(homeBlocks(view).type).toBe('home');
    expect(view.summary).toBe(
      'fwbot Home: 2 requests waiting for your decision, 1 request of yours pending, 1 item running',
    );
  });

  it('says so when a section is empty', () => {
    const text = renderText(
      homeView({
        userId: ME,
        now: 0,
        toDecide: [],
        myRequests: [],
        followed: [],
        watches: [],
        incidents: [],
        recent: [],
      }),
    );
    expect(text).toContain('No requests are waiting for you.');
    expect(text).toContain('Nothing of yours is being followed.');
    expect(text).toContain('No commands yet.');
    expect(text).toContain('None of your channels watches upgrade runs');
    expect(text).toContain('No open incidents in your channels');
  });

  it('shows the open incidents of the person’s channels, with a link to each message', () => {
    const published = homeBlocks(homeView(typicalHome()));
    const texts = blockTexts(published.blocks).join('\n');
    expect(texts).toContain('*asa-branch-12* is UNREACHABLE');
    expect(texts).toContain('flapped 2 times');
    expect(texts).toContain('acknowledged by <@U0OPERATOR1>');
    expect(JSON.stringify(published.blocks)).toContain(
      'https://slack.com/archives/C0OPS000001/p1748856012000100',
    );
  });

  it('says when it cannot tell which channels are the person’s', () => {
    const text = renderText(homeView({ ...typicalHome(), watches: undefined, incidents: undefined }));
    expect(text).toContain('fwbot could not read which channels you are in just now.');
  });

  it('keeps the worst case of its sections under Slack’s 100 blocks', () => {
    expect(homeBlockBudget()).toBeLessThan(HOME_BLOCKS);
  });

  it('cuts every crowded section with an “and N more” line and stays within every Home limit', () => {
    const data = crowdedHome(60);
    const view = homeView(data);
    const text = renderText(view);
    expect(text).toContain(`…and ${60 - HOME_CAPS.toDecide} more requests (oldest expire first).`);
    expect(text).toContain(`…and ${60 - HOME_CAPS.myRequests} more of your requests.`);
    expect(text).toContain(`…and ${60 - HOME_CAPS.followed} more followed items.`);
    expect(text).toContain(`…and ${60 - HOME_CAPS.staged} more devices.`);
    expect(text).toContain(`…and ${60 - HOME_CAPS.watches} more watches.`);
    expect(text).toContain(`…and ${60 - HOME_CAPS.incidents} more open incidents`);

    const published = homeBlocks(view);
    const blocks = published.blocks as Block[];
    expect(blocks.length).toBeLessThanOrEqual(HOME_BLOCKS);
    expect(Buffer.byteLength(JSON.stringify(published))).toBeLessThan(HOME_BYTES);
    // Nothing was dropped by the renderer for size: every section is there, whole.
    expect(blockTexts(blocks).join('\n')).not.toContain('Not shown');
    expect(blockTexts(blocks).join('\n')).toContain('Your last commands');
    for (const block of blocks) {
      if (block.text) expect(block.text.text.length).toBeLessThanOrEqual(3000);
      expect((block.elements ?? []).length).toBeLessThanOrEqual(25);
    }
    const actionIds = blocks
      .filter((block) => block.type === 'actions')
      .flatMap((block) => (block.elements ?? []).map((e) => e.action_id ?? ''));
    expect(new Set(actionIds).size).toBe(actionIds.length);
    expect(actionIds.filter((id) => id.startsWith(APPROVE_ACTION))).toHaveLength(HOME_CAPS.toDecide);
  });
});
