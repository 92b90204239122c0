// The texts inside Block Kit blocks, for tests that check what Slack parses or shows.

/**
 * Every string `text` in `blocks` whose object's `type` passes `keep` (every one by default), in
 * document order: an object's own text before the texts nested in it.
 */
export function blockTexts(blocks: unknown, keep: (type: unknown) => boolean = () => true): string[] {
  if (Array.isArray(blocks)) return blocks.flatMap((node) => blockTexts(node, keep));
  if (blocks === null || typeof blocks !== 'object') return [];
  const object = blocks as Record<string, unknown>;
  const own = typeof object.text === 'string' && keep(object.type) ? [object.text] : [];
  return [...own, ...Object.values(object).flatMap((node) => blockTexts(node, keep))];
}

/** The mrkdwn text objects in `blocks`: the only text in which Slack reads markup (mentions, links). */
export const mrkdwnIn = (blocks: unknown): string[] => blockTexts(blocks, (type) => type === 'mrkdwn');
