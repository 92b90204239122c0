// Golden files for the approval card: test/approvals/golden/<name>.txt (the text rendering people read
// in the console) and <name>.blocks.txt (the Block Kit Slack receives). `UPDATE_GOLDEN=1` rewrites them;
// a missing one fails, so a new rendering is looked at before it counts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { View } from '../../../src/model/view.js';
import { renderBlocks } from '../../../src/render/blocks.js';
import { renderText } from '../../../src/render/text.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'golden');

function check(path: string, actual: string): void {
  if (process.env.UPDATE_GOLDEN === '1') {
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path))
    throw new Error(`no golden file ${path}; write it with UPDATE_GOLDEN=1 and review it`);
  expect(actual, `golden file ${path}`).toBe(readFileSync(path, 'utf8'));
}

export function expectCardGolden(name: string, view: View): void {
  check(join(DIR, `${name}.txt`), renderText(view));
  check(join(DIR, `${name}.blocks.txt`), `${JSON.stringify(renderBlocks(view), null, 2)}\n`);
}
