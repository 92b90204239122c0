// Golden files for views: test/golden/<name>.json (the view model) and <name>.txt (its text rendering),
// and for a view with a table <name>.slack.json (the Block Kit message Slack gets: its native table, its
// fallback text), checked against Slack's limits too. A test fails when any differs; `UPDATE_GOLDEN=1 npx vitest run …` rewrites them. A missing golden
// fails too (with the command that writes it), so a new view is always looked at once before it counts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { View } from '../../src/model/view.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { renderText } from '../../src/render/text.js';
import { assertWithinSlackLimits } from '../slack/support/blockLimits.js';

export const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** Replaces run-specific text (e.g. the simulator's port) so goldens stay the same between runs. */
export type Normalise = (text: string) => string;

function check(path: string, actual: string): void {
  if (UPDATE) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) {
    throw new Error(`no golden file ${path}; write it with UPDATE_GOLDEN=1 and review it`);
  }
  expect(actual, `golden file ${path}`).toBe(readFileSync(path, 'utf8'));
}

/**
 * The view as JSON, with fwbot's mark characters (render/mrkdwn.ts: `\ue000`/`\ue001` around an intended
 * mention, `\ue004`/`\ue005` around a value shown as typed) written as escapes, so a golden file shows
 * which mentions are live and which values are marked, and stays valid JSON.
 */
function viewJson(view: unknown): string {
  return JSON.stringify(view, null, 2).replace(
    /[\uE000-\uE00F]/g,
    (mark) => `\\u${mark.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function expectGolden(name: string, view: View, normalise: Normalise = (text) => text): void {
  check(join(GOLDEN_DIR, `${name}.json`), `${normalise(viewJson(view))}\n`);
  check(join(GOLDEN_DIR, `${name}.txt`), normalise(renderText(view)));
  if (view.blocks.some((block) => block.kind === 'table')) {
    const message = renderBlocks(view);
    assertWithinSlackLimits(message, 'message');
    const { text, blocks } = message;
    check(join(GOLDEN_DIR, `${name}.slack.json`), `${normalise(viewJson({ text, blocks }))}\n`);
  }
}

/** Any text as a golden file, e.g. the README's command table as `command-table.md`. */
export function expectGoldenFile(fileName: string, text: string): void {
  check(join(GOLDEN_DIR, fileName), text);
}

export function goldenExists(name: string): boolean {
  return existsSync(join(GOLDEN_DIR, `${name}.json`)) && existsSync(join(GOLDEN_DIR, `${name}.txt`));
}
