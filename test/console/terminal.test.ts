// The terminal under the console: on a TTY, what is typed is echoed except in secret prompts, and replies
// that arrive while someone is at the prompt are written above it; lines typed ahead are kept in order.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Terminal } from '../../src/console/terminal.js';

class Screen extends Writable {
  isTTY = true;
  columns = 120;
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

function tty(): { input: PassThrough & { isTTY?: boolean }; screen: Screen; terminal: Terminal } {
  const input: PassThrough & { isTTY?: boolean; setRawMode?: (mode: boolean) => void } = new PassThrough();
  input.isTTY = true;
  input.setRawMode = () => {};
  const screen = new Screen();
  return { input, screen, terminal: new Terminal({ input, output: screen }) };
}

describe('console terminal', () => {
  it('echoes what is typed at the prompt, and nothing of a secret', async () => {
    const { input, screen, terminal } = tty();
    const name = terminal.ask('Name: ');
    input.write('acme-eu\r');
    expect(await name).toBe('acme-eu');
    expect(screen.text).toContain('acme-eu');

    const secret = terminal.ask('API token: ', { secret: true });
    input.write('s3cret-token-value\r');
    expect(await secret).toBe('s3cret-token-value');
    expect(screen.text).toContain('API token: ');
    expect(screen.text).not.toContain('s3cret');
    terminal.close();
  });

  it('drops fwbot’s mark characters from what is typed: a line, or an answer to a question', async () => {
    const input = new PassThrough();
    const screen = new Screen();
    screen.isTTY = false;
    const terminal = new Terminal({ input, output: screen });
    input.write('/reject 1 \uE000<@U0VICTIM>\uE001 \uE004*x*\uE005\n');
    input.write('\uE000<#C0SECRET>\uE001 because\n');
    expect(await terminal.next('alice> ')).toBe('/reject 1 <@U0VICTIM> *x*');
    expect(await terminal.ask('Reason: ')).toBe('<#C0SECRET> because');
    terminal.close();
  });

  it('writes a reply that arrives while waiting at the prompt above the prompt', async () => {
    const { input, screen, terminal } = tty();
    const line = terminal.next('alice> ');
    terminal.print('  ↳ in the thread: done.');
    const after = screen.text.slice(screen.text.lastIndexOf('↳'));
    expect(after).toMatch(/done\.\n[\s\S]*alice> /);
    input.write('tenants list\r');
    expect(await line).toBe('tenants list');
    terminal.close();
  });

  it('keeps lines typed ahead, in order, and ends with undefined when the input closes', async () => {
    const input = new PassThrough();
    const screen = new Screen();
    screen.isTTY = false;
    const terminal = new Terminal({ input, output: screen });
    input.write('one\ntwo\n');
    input.end();
    expect(await terminal.next('> ')).toBe('one');
    expect(await terminal.next('> ')).toBe('two');
    expect(await terminal.next('> ')).toBeUndefined();
  });

  it('allows ANSI styles only on a TTY, and not with NO_COLOR or TERM=dumb', () => {
    const styled = (isTTY: boolean, env: NodeJS.ProcessEnv) => {
      const screen = new Screen();
      screen.isTTY = isTTY;
      const terminal = new Terminal({ input: new PassThrough(), output: screen, env });
      terminal.close();
      return terminal.styled;
    };
    expect(styled(true, {})).toBe(true);
    expect(styled(false, {})).toBe(false);
    expect(styled(true, { NO_COLOR: '1' })).toBe(false);
    expect(styled(true, { TERM: 'dumb' })).toBe(false);
  });
});
