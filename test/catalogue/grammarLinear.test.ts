// Parsing command text takes time linear in its length (issue 12, item 9): where a rest-of-line argument
// ends is worked out in one right-to-left pass, held here to the quadratic search it replaced, and a
// 100,000-token line parses with one step per token.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGrammar, firstTrailingRun } from '../../src/catalogue/grammar.js';
import { fixtureCatalogue } from './fixtures.js';

/** The search as it was: from each start in turn, step to the end; the first start that lands on it. */
function previousTrailingRun(from: number, length: number, step: (k: number) => number): number {
  for (let start = from; start < length; start += 1) {
    let k = start;
    while (k >= 0 && k < length) k = step(k);
    if (k === length) return start;
  }
  return length;
}

/** A line of `length` tokens where the token at k is not a flag (-1), a boolean flag (1) or a flag and its value (2). */
const line = fc
  .array(fc.constantFrom(-1, 1, 1, 2, 2), { maxLength: 40 })
  .chain((widths) =>
    fc.record({ widths: fc.constant(widths), from: fc.integer({ min: 0, max: widths.length }) }),
  );

function stepOver(widths: readonly number[]): (k: number) => number {
  // A flag that expects a value at the very end has none: it does not bind, as in bindFlag's dry run.
  return (k) => {
    const width = widths[k] ?? -1;
    if (width < 0 || k + width > widths.length) return -1;
    return k + width;
  };
}

describe('where a rest-of-line argument ends', () => {
  it('is the start the previous quadratic search found, on any line', () => {
    fc.assert(
      fc.property(line, ({ widths, from }) => {
        const step = stepOver(widths);
        expect(firstTrailingRun(from, widths.length, step)).toBe(
          previousTrailingRun(from, widths.length, step),
        );
      }),
      { numRuns: 20_000, seed: 12 },
    );
  });

  it('takes one step per token on a 100,000-token line of flags that ends in a word', () => {
    // 49,999 flags with their values, then two words. The worst case of the previous search: from each
    // flag it stepped over all the flags after it to the words at the end, about 1.25 billion steps.
    const widths = Array.from({ length: 100_000 }, (_, k) => (k < 99_998 && k % 2 === 0 ? 2 : -1));
    let steps = 0;
    const step = stepOver(widths);
    const counted = (k: number) => {
      steps += 1;
      return step(k);
    };
    expect(firstTrailingRun(0, widths.length, counted)).toBe(widths.length);
    expect(steps).toBe(widths.length);
  });
});

describe('grammar: long lines', () => {
  const grammar = createGrammar(fixtureCatalogue);

  it('parses a 100,000-token query followed by flags, the query running to where the flags start', () => {
    const words = Array.from({ length: 50_000 }, (_, k) => `--offset ${k}`).join(' ');
    const text = `tenants list acme ${words} tail --offset 7`;
    const parsed = grammar.parse(text);
    expect(parsed.op.id).toBe('tenants.list');
    expect(parsed.raw.query).toBe(`acme ${words} tail`);
    expect(parsed.raw.offset).toBe('7');
  });

  it('parses 100,000 values of a variadic argument', () => {
    const users = Array.from({ length: 100_000 }, (_, k) => `u${k}@example.com`);
    const parsed = grammar.parse(`tenants users remove acme ${users.join(' ')}`);
    expect(parsed.raw.username).toEqual(users);
  });
});
