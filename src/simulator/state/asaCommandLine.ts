// The simulated ASA's command line: runs a script line by line and answers each line the way the ASA does.
// Read-only commands (`packet-tracer` in asaPacketTracer.ts, a fixed set of `show` commands in asaShow.ts)
// and shuns (asaShun.ts), which change the device's memory but never its configuration: anything else,
// configuration commands included, is the ASA's "Invalid input" error, so nothing sent through SCC's CLI
// ever changes the simulated configuration. Functions of the device's view (its record, running
// interfaces, access policy and shuns) and the time.
import type { AsaPolicy } from './asaPolicyModel.js';
import type { DeviceRecord, InterfaceRecord, ShunRecord } from './model.js';

/** What a command sees of the device it runs on. */
export interface AsaDeviceView {
  device: DeviceRecord;
  /** The running configuration's interfaces (the device's copy, not SCC's staged one). */
  interfaces: readonly InterfaceRecord[];
  policy: AsaPolicy;
  /** The device's shuns: the live list, which `shun` and `no shun` change (asaShun.ts). */
  shuns: ShunRecord[];
  /** The device's hit counts by rule line (asaAccessListHits.ts): packet-tracer adds to them. */
  hits: Map<string, number>;
  /** Simulated time the command runs at, and when the device booted (for `show version`'s uptime). */
  now: number;
  bootTime: number;
}

/** A word of a command line and the column it starts at (where the ASA puts its `^` marker). */
export interface Token {
  text: string;
  at: number;
}

/** A line's answer: its output, or the column of the word the ASA rejected. */
export type LineOutcome = { output: string } | { invalidAt: number };

export const INVALID_INPUT = "ERROR: % Invalid input detected at '^' marker.";

/** What a script produced: the whole output and, when a line failed, the ASA's error for it. */
export interface ScriptOutcome {
  output: string;
  error?: string;
}

/** Splits a line into words with their columns (the ASA separates words by spaces and tabs). */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  for (const match of line.matchAll(/[^ \t]+/g)) tokens.push({ text: match[0], at: match.index });
  return tokens;
}

/** The ASA's answer to a rejected line: the line, a `^` under the offending word, the error. */
export function invalidInputOutput(line: string, at: number): string {
  return `${line}\n${' '.repeat(Math.max(0, at))}^\n${INVALID_INPUT}\n`;
}

export type LineRunner = (tokens: Token[], view: AsaDeviceView) => LineOutcome | undefined;

/**
 * Runs `script` line by line with the first runner that knows each line's command; blank lines are
 * skipped. The first line no runner accepts stops the script with the ASA's error (as the ASA's CLI stops
 * a pasted script at its first error), and the lines after it are not run.
 */
export function runScript(
  script: string,
  view: AsaDeviceView,
  runners: readonly LineRunner[],
): ScriptOutcome {
  let output = '';
  for (const raw of script.split(/\r\n|\r|\n/)) {
    const line = raw.trimEnd();
    const tokens = tokenize(line);
    if (tokens.length === 0) continue;
    let outcome: LineOutcome | undefined;
    for (const run of runners) {
      outcome = run(tokens, view);
      if (outcome !== undefined) break;
    }
    const result = outcome ?? { invalidAt: tokens[0]?.at ?? 0 };
    if ('invalidAt' in result) {
      return { output: output + invalidInputOutput(line, result.invalidAt), error: INVALID_INPUT };
    }
    output += result.output;
  }
  return { output };
}
