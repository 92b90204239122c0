#!/usr/bin/env node
// `npx fwbot …`: fwbot's command line. In a checkout (src/ and tsx present, e.g. a clean clone after
// `npm ci`) it runs the TypeScript sources through tsx, so it is never older than the code; in the
// production image (built dist/, no dev dependencies) it runs the built JavaScript.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = new URL('../src/entry/cli.ts', import.meta.url);
const built = new URL('../dist/entry/cli.js', import.meta.url);

async function tsxRegister() {
  try {
    return (await import('tsx/esm/api')).register;
  } catch {
    return undefined;
  }
}

const register = existsSync(fileURLToPath(source)) ? await tsxRegister() : undefined;
if (register) {
  register();
  await import(source.href);
} else if (existsSync(fileURLToPath(built))) {
  await import(built.href);
} else {
  process.stderr.write('fwbot: neither the sources with tsx (npm ci) nor a build (npm run build) is here.\n');
  process.exitCode = 1;
}
