// A plain read's golden view follows from its declaration: its first example, run against the seeded
// simulator, renders the view that is its golden `<id>` (test/golden/<id>.json and .txt). A test of this
// folder that writes that golden itself (`h.golden('<id>', …)`: another command text, more than one case)
// takes it over, and this one leaves it alone. So a new read needs no golden test of its own: UPDATE_GOLDEN
// writes its view, to be read before it is committed.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { plainReads, runnableExample } from '../support/catalogueExamples.js';
import { memoryServices } from '../support/memoryServices.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();
const here = dirname(fileURLToPath(import.meta.url));

/** The golden names the other tests of this folder write by name (`golden('devices', …)`). */
function goldensWrittenByHand(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(here)) {
    if (!file.endsWith('.test.ts') || file === 'examples.test.ts') continue;
    const text = readFileSync(join(here, file), 'utf8');
    for (const [, name] of text.matchAll(/golden\(\s*'([^']+)'/g)) if (name) names.add(name);
  }
  return names;
}

const byHand = goldensWrittenByHand();
const derived = plainReads(catalogue).filter((op) => !byHand.has(op.id));

describe('plain reads, from their first example', () => {
  it('finds the goldens other tests write by hand (so it leaves them to those tests)', () => {
    expect(byHand).toContain('devices');
    expect(byHand).toContain('interfaces.show');
  });

  it.each(derived.map((op) => op.id))('%s: its first example renders its golden view', async (id) => {
    const op = catalogue.get(id);
    if (!op) throw new Error(`no operation ${id}`);
    const { raw } = catalogue.parse(runnableExample(catalogue, op));
    const context = op.needs.length > 0 ? { ...h.context(), services: memoryServices() } : h.context();
    h.golden(id, await op.execute(context, raw));
  });
});
