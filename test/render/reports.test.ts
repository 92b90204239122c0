// Links people may click: a report's download link from SCC becomes a button only when it is https (or
// http to a loopback address: the simulator); any other is said in a sentence and never linked. The Block
// Kit renderer drops a link button that is not, whatever view carries it.
import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { type RenderedMessage, renderBlocks } from '../../src/render/blocks.js';
import { renderReports } from '../../src/render/reports.js';
import { renderText } from '../../src/render/text.js';

/** What the catalogue passes a renderer besides the result. */
type RenderMeta = Parameters<typeof renderReports>[3];

const meta: RenderMeta = {
  operationId: 'reports',
  raw: {},
  actor: { userId: 'U0ENGINEER', channelId: 'C0OPS' },
};

function allText(message: RenderedMessage): string {
  return `${JSON.stringify(message.blocks)}\n${message.text}`;
}

function linkUrls(message: RenderedMessage): string[] {
  return message.blocks.flatMap((block: KnownBlock) =>
    block.type === 'actions' ? block.elements.flatMap((e) => ('url' in e && e.url ? [e.url] : [])) : [],
  );
}

describe('report download links', () => {
  const page = { offset: 0, limit: 10, count: 4, shown: 4 };
  const reports = [
    { name: 'secure', status: 'COMPLETED', downloadUrl: 'https://s3.example/r1.csv?sig=1' },
    { name: 'plain', status: 'COMPLETED', downloadUrl: 'http://downloads.example/r2.csv' },
    { name: 'script', status: 'COMPLETED', downloadUrl: 'javascript:alert(1)' },
    { name: 'pending', status: 'RUNNING', downloadUrlExpiresAt: '2025-01-31T14:05:00Z' },
  ];

  it('offers only https links as buttons, and says which were not offered', () => {
    const view = renderReports(reports, page, undefined, meta);
    const message = renderBlocks(view);
    expect(linkUrls(message)).toEqual(['https://s3.example/r1.csv?sig=1']);
    expect(allText(message)).not.toContain('downloads.example');
    expect(allText(message)).not.toContain('javascript:');
    expect(renderText(view)).toContain(
      "SCC's download links for “plain”, “script” are not https, so fwbot does not offer them; download the reports in SCC.",
    );
  });

  it('offers the local simulator’s http links (loopback only), as SCC_BASE_URL allows', () => {
    const local = [
      { name: 'sim', status: 'COMPLETED', downloadUrl: 'http://127.0.0.1:4010/_sim/downloads/r.csv' },
    ];
    const view = renderReports(local, { ...page, count: 1, shown: 1 }, undefined, meta);
    expect(renderText(view)).toContain('[1] Download sim (http://127.0.0.1:4010/_sim/downloads/r.csv)');
  });

  it('never sends a link button that is not https, whatever view carries it', () => {
    const message = renderBlocks({
      summary: 's',
      blocks: [
        {
          kind: 'actions',
          buttons: [
            { label: 'a', url: 'http://evil.example/x' },
            { label: 'b', url: 'https://user:pw@evil.example/x' },
            { label: 'c', url: 'slack://open' },
          ],
        },
      ],
      visibility: 'ephemeral',
    });
    expect(message.blocks.filter((b) => b.type === 'actions')).toEqual([]);
    expect(allText(message)).toContain('Not shown: 3 more buttons');
  });
});
