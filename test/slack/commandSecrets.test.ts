// The token detector reads text anyone can type, so it must take time linear in the text's length: the
// shapes were rewritten for that (issue 12, item 9), and must still find exactly what they found before.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looksLikeCredential } from '../../src/config/credentials.js';
import { containsCredential } from '../../src/dispatch/commandSecrets.js';

/** The detector as it was before the rewrite (quadratic on runs like `eyJ-eyJ-…`): the reference. */
const PREVIOUS_SHAPES = [
  /\beyJ[\w-]{8,}\.[\w-]{8,}/,
  /\bxox[a-z]-[\w-]{6,}/i,
  /\bxapp-[\w-]{6,}/i,
  /\bbearer\s+\S{16,}/i,
  /(?:^|[\s"'=:,[{(])[A-Za-z0-9_-]{64,}(?=$|[\s"',\]})])/,
];

function previousContainsCredential(text: string): boolean {
  if (PREVIOUS_SHAPES.some((shape) => shape.test(text))) return true;
  return text.split(/[\s"'“”‘’]+/).some((word) => word !== '' && looksLikeCredential(word));
}

/** Pieces that make the shapes' edges likely: headers, separators, dots, runs just over and under the minimums. */
const PIECES = [
  'eyJ',
  'ey',
  'J',
  '-',
  '.',
  '_',
  ' ',
  '\t',
  '"',
  '=',
  ':',
  ',',
  '{',
  '}',
  '/',
  'é',
  'a',
  'Z9',
  'abcdefg',
  'abcdefgh',
  'xox',
  'xoxb-',
  'XOXP-',
  'xapp-',
  'bearer',
  'Bearer ',
  'q'.repeat(15),
  'q'.repeat(16),
  'k'.repeat(63),
  'k'.repeat(64),
];

const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));

/** Runs of the characters around a JWT's parts, of lengths on both sides of the minimum of 8. */
const run = fc
  .array(fc.constantFrom('a', 'Z', '0', '_', '-', '.', 'J'), { maxLength: 12 })
  .map((chars) => chars.join(''));

/** Almost-JWTs: what precedes the header, the header, and the parts around the dot, each varied. */
const nearJwt = fc
  .tuple(
    fc.constantFrom('', 'a', '-', '_', ' ', '.', 'x-', 'é', '"', 'token-'),
    fc.constantFrom('eyJ', 'eyj', 'ey'),
    run,
    fc.constantFrom('.', '', '..', '-.'),
    run,
    fc.constantFrom('', ' ', '.', '-eyJ', 'é'),
  )
  .map((parts) => parts.join(''));

describe('token detector', () => {
  it('finds a token in exactly the texts the previous shapes did', () => {
    fc.assert(
      fc.property(text, (candidate) => {
        expect(containsCredential(candidate)).toBe(previousContainsCredential(candidate));
      }),
      { numRuns: 20_000, seed: 12 },
    );
  });

  it('finds a JWT-like token in exactly the texts the previous shape did, whatever surrounds it', () => {
    fc.assert(
      fc.property(fc.array(nearJwt, { minLength: 1, maxLength: 3 }), (parts) => {
        const candidate = parts.join('');
        expect(containsCredential(candidate)).toBe(previousContainsCredential(candidate));
      }),
      { numRuns: 20_000, seed: 12 },
    );
  });

  it('agrees with the previous shapes on arbitrary text too', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (candidate) => {
        expect(containsCredential(candidate)).toBe(previousContainsCredential(candidate));
      }),
      { numRuns: 5_000, seed: 12 },
    );
  });

  it('checks 100,000-character texts built to make a backtracking pattern quadratic', () => {
    // Before the rewrite the first took about 5 s: `\beyJ` matched after every dash, and each try
    // scanned to the end of the run looking for a dot. The outcomes are what the previous shapes said.
    const dashes = 'eyJ-'.repeat(25_000);
    expect(containsCredential(`${dashes}.`)).toBe(false);
    expect(containsCredential(`${dashes}.abcdefghij`)).toBe(true);
    expect(containsCredential(dashes)).toBe(true); // one unbroken run of 100,000 token characters
    expect(containsCredential(`tenants list ${'eyJ-.'.repeat(20_000)}`)).toBe(false);
    expect(containsCredential(`tenants list ${'bearer '.repeat(14_000)}`)).toBe(false);
    expect(containsCredential(` ${'a'.repeat(100_000)}/`)).toBe(false);
  });
});
