// What the tests derived from an operation's declaration run: its first example that runs from its text,
// and the plain reads (a read a viewer may share in a channel), whose golden view, Slack case and
// simulator contract follow from that example when no test names them (test/catalogue/examples.test.ts,
// test/slack/operations.test.ts, test/simulator/contract.test.ts).
import type { Catalogue } from '../../src/catalogue/index.js';
import type { Operation } from '../../src/catalogue/operation.js';

/** The first example of help that runs from its text (not one that opens a form, nor one its arguments refuse). */
export function runnableExample(catalogue: Catalogue, op: Operation): string {
  const example = op.examples.find((text) => {
    const parsed = catalogue.parse(text);
    return !parsed.modal && parsed.op.validate(parsed.raw).length === 0;
  });
  if (!example) throw new Error(`${op.id} has no example that runs from its text`);
  return example;
}

/**
 * The plain reads: what a viewer may run and share in a channel (only reads, no approval, no secret, no
 * queue: the declaration decides it, as `entries` says). Calling SCC or not.
 */
export function plainReads(catalogue: Catalogue): Operation[] {
  return catalogue.operations.filter((op) => op.entries.has('share'));
}
