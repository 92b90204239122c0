// The `fwbot` command (package.json bin → bin/fwbot.js → here): runs the CLI on this process's arguments,
// environment and terminal (forms asked on it, secrets piped on stdin) and exits with its code once every
// connection is closed. A rejection or exception nothing handled ends it with one sentence on stderr and
// the internal-failure code (observability/processFaults.ts).
import { text } from 'node:stream/consumers';
import { EXIT, runCli } from '../cli/cli.js';
import { Terminal } from '../console/terminal.js';
import { installProcessFaults } from '../observability/processFaults.js';

installProcessFaults({
  kind: 'exit',
  say: (line) => process.stderr.write(`${line}\n`),
  code: EXIT.internal,
});

runCli(process.argv.slice(2), {
  env: process.env,
  // Prompts go to stderr, so `--json` output on stdout stays clean; only on a terminal.
  ...(process.stdin.isTTY
    ? { prompter: () => new Terminal({ input: process.stdin, output: process.stderr }) }
    : {}),
  readStdin: () => text(process.stdin),
  io: {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
  },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`fwbot failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
