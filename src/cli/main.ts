// The `fwbot` command (package.json bin → bin/fwbot.js → here): runs the CLI on this process's arguments
// and environment and exits with its code once every connection is closed.
import { runCli } from './cli.js';

runCli(process.argv.slice(2), {
  env: process.env,
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
