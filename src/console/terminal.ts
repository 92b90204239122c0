// The console's terminal on node:readline: one queue of typed lines shared by the chat loop and the form
// prompts, output written above the prompt so replies that arrive while typing do not break the line,
// and secret prompts that echo nothing. Works the same on a pipe (tests, scripts), minus the redraw.
import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';
import { stripSentinels } from '../model/marks.js';
import type { Prompter } from './forms.js';
import { ANSI, terminalStyle } from './markup.js';

export interface TerminalStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { isTTY?: boolean };
  /** Where NO_COLOR and TERM are read (process.env unless given). */
  env?: NodeJS.ProcessEnv;
}

/** Output that can be muted while a secret is typed (readline echoes through it). */
class MutableOutput extends Writable {
  muted = false;

  constructor(private readonly target: NodeJS.WritableStream) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (!this.muted) this.target.write(chunk);
    done();
  }
}

export class Terminal implements Prompter {
  readonly #rl: Interface;
  readonly #output: MutableOutput;
  readonly #tty: boolean;
  /** ANSI styles only on a TTY that allows colour (NO_COLOR, TERM=dumb). */
  readonly styled: boolean;
  readonly #lines: string[] = [];
  #waiting: ((line: string | undefined) => void) | undefined;
  #closed = false;
  #prompt = '';
  #asking = false;

  constructor(streams: TerminalStreams) {
    this.#tty = streams.output.isTTY === true;
    this.styled = terminalStyle(this.#tty, streams.env) === ANSI;
    this.#output = new MutableOutput(streams.output);
    this.#rl = createInterface({ input: streams.input, output: this.#output, terminal: this.#tty });
    this.#rl.on('line', (typed) => {
      // Where typed text enters the console and the CLI's prompts: fwbot's mark characters go (render/mrkdwn.ts).
      const line = stripSentinels(typed);
      const waiting = this.#waiting;
      this.#waiting = undefined;
      if (waiting) waiting(line);
      else this.#lines.push(line);
    });
    // Ctrl-C at the prompt leaves, as Ctrl-D does (readline would otherwise only pause the input).
    this.#rl.on('SIGINT', () => this.#rl.close());
    this.#rl.on('close', () => {
      this.#closed = true;
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting?.(undefined);
    });
  }

  /** The next typed line after showing `prompt`; undefined once the input has ended. */
  next(prompt: string): Promise<string | undefined> {
    this.#prompt = prompt;
    const queued = this.#lines.shift();
    if (queued !== undefined) {
      if (!this.#tty) this.#output.write(prompt);
      return Promise.resolve(queued);
    }
    if (this.#closed) return Promise.resolve(undefined);
    this.#rl.setPrompt(prompt);
    this.#rl.prompt();
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  async ask(question: string, options: { secret?: boolean } = {}): Promise<string | undefined> {
    this.#asking = true;
    try {
      if (!options.secret) return await this.next(question);
      this.#output.write(question);
      this.#output.muted = true;
      const answer = await this.next('');
      this.#output.muted = false;
      this.#output.write('\n');
      return answer;
    } finally {
      this.#output.muted = false;
      this.#asking = false;
    }
  }

  print(text: string): void {
    if (this.#tty && this.#waiting && !this.#asking) {
      // A reply arrived while the user is at the prompt: clear the line, write above it, redraw.
      this.#output.write('\r\x1b[K');
      this.#output.write(`${text}\n`);
      this.#rl.prompt(true);
      return;
    }
    this.#output.write(`${text}\n`);
  }

  close(): void {
    this.#rl.close();
  }
}
