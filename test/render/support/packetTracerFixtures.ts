// The real packet-tracer answers kept in test/fixtures/packet-tracer/: each file opens with `# ` lines
// (where it was printed, the device and release, the command, its shape, the verdict expected) and a
// `# ---` line, and the device's answer follows as it was printed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { TraceVerdict } from '../../../src/render/packetTracer.js';

export const FIXTURE_DIR = join(import.meta.dirname, '../../fixtures/packet-tracer');

const Expected = z.object({
  action: z.enum(['allow', 'drop']).nullable(),
  decision: z
    .enum(['access-list', 'implicit-deny', 'security-levels', 'nat', 'no-route', 'phase', 'drop-reason'])
    .nullable(),
  phase: z.number().int().nullable(),
  rule: z.string().nullable(),
  nat: z.array(z.string()),
  dropReason: z.string().nullable(),
  input: z.string().nullable(),
  output: z.string().nullable(),
});
export type ExpectedVerdict = z.infer<typeof Expected>;

export interface PacketTracerFixture {
  name: string;
  source: string;
  device: string;
  /** The device's answer, exactly as kept. */
  output: string;
  expected: ExpectedVerdict;
}

function header(lines: readonly string[], key: string, name: string): string {
  const value = lines.find((l) => l.startsWith(`# ${key}: `))?.slice(key.length + 4);
  if (value === undefined) throw new Error(`${name}: no "# ${key}:" line`);
  return value;
}

export function loadFixtures(): PacketTracerFixture[] {
  return readdirSync(FIXTURE_DIR)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map((name) => {
      const text = readFileSync(join(FIXTURE_DIR, name), 'utf8');
      const lines = text.split('\n');
      const end = lines.indexOf('# ---');
      if (end === -1) throw new Error(`${name}: no "# ---" line after the header`);
      const head = lines.slice(0, end);
      return {
        name,
        source: header(head, 'source', name),
        device: header(head, 'device', name),
        output: lines.slice(end + 1).join('\n'),
        expected: Expected.parse(JSON.parse(header(head, 'expected', name))),
      };
    });
}

/** The verdict in the fixtures' terms: what the card is made of. */
export function summary(verdict: TraceVerdict): ExpectedVerdict {
  const decision = verdict.decision;
  const phase = decision && 'phase' in decision ? decision.phase : undefined;
  return {
    action: verdict.action ?? null,
    decision: decision?.kind ?? null,
    phase: phase?.number ?? null,
    rule: decision?.kind === 'access-list' ? (decision.line ?? null) : null,
    nat: verdict.nat,
    dropReason: verdict.dropReason ?? null,
    input: verdict.inputInterface ?? null,
    output: verdict.outputInterface ?? null,
  };
}
