// Every form of the catalogue, asked in the console with Enter pressed at every prompt, from each of the
// operation's own examples: a value in brackets is one Enter keeps, so no default may be refused (neither
// by the prompt nor by the operation's validation). The only complaint allowed is "required" for a
// field shown without a default.
import { describe, expect, it } from 'vitest';
import { FormAbandoned, fillForm, type Prompter } from '../../src/console/forms.js';
import { catalogue, useSimulator } from '../catalogue/harness.js';

/** A user who presses Enter at every prompt; what was asked and said, in order. */
class EnterPresser implements Prompter {
  readonly transcript: string[] = [];

  async ask(question: string): Promise<string> {
    this.transcript.push(question);
    return '';
  }

  print(text: string): void {
    this.transcript.push(text);
  }
}

/** Complaints that follow a prompt which showed a default: Enter on that default was refused. */
function refusedDefaults(transcript: readonly string[]): string[] {
  const refused: string[] = [];
  let lastQuestion = '';
  for (const line of transcript) {
    if (line.endsWith(': ') && !line.startsWith('  !')) {
      lastQuestion = line;
      continue;
    }
    if (!line.startsWith('  !')) continue;
    const required = / is required\.$/.test(line);
    const hadDefault = /\[[^\]]*\]: $/.test(lastQuestion);
    // A field asked without a default and left empty: the one complaint Enter may get.
    if (required && !hadDefault) continue;
    refused.push(`${line.trim()} (after “${lastQuestion.trim()}”)`);
  }
  return refused;
}

const forms = catalogue.operations.filter((op) => op.modal);
const cases = forms.flatMap((op) => op.examples.map((example) => ({ op, example })));

describe('console forms keep their defaults', () => {
  const harness = useSimulator();

  it('finds forms and examples to walk', () => {
    expect(forms.length).toBeGreaterThan(5);
    expect(cases.some(({ example }) => example === 'interfaces create subinterface asa-hq-01 inside')).toBe(
      true,
    );
  });

  it.each(cases)('$example: Enter at every prompt refuses no default', async ({ op, example }) => {
    const { op: parsed, raw } = catalogue.parse(example);
    expect(parsed.id).toBe(op.id);
    const io = new EnterPresser();
    let completed = false;
    try {
      await fillForm(io, op, harness.context(), raw);
      completed = true;
    } catch (error) {
      if (!(error instanceof FormAbandoned)) throw error;
    }
    expect(refusedDefaults(io.transcript), io.transcript.join('\n')).toEqual([]);
    // A form whose every prompt showed a value (or was optional) is accepted as it stands.
    const questions = io.transcript.filter((line) => line.endsWith(': ') && !line.startsWith('  !'));
    const bare = questions.filter((q) => !/\[[^\]]*\]: $/.test(q) && !/\boptional\b/i.test(q));
    if (bare.length === 0) expect(completed, io.transcript.join('\n')).toBe(true);
  });
});
