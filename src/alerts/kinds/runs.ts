// What the two run kinds (deployments, upgrades) share: SCC's newest updated runs are read each scan and a
// run is told once, when it is first seen ended, whoever started it (fwbot, SCC's UI, another tool). Runs
// are remembered a few days after they were last read, far longer than a run stays among the newest.
import { z } from 'zod';
import {
  type DetectInput,
  type DetectOutput,
  type Finding,
  incidentKeyOf,
  isoOf,
  transitionKey,
} from './kind.js';

export const RunState = z.object({ status: z.string(), ended: z.boolean(), seenAt: z.number() });
export type RunState = z.infer<typeof RunState>;

/** How long a run is remembered after the last read that listed it. */
export const REMEMBER_RUNS_MS = 3 * 86_400_000;

export interface RunView {
  uid: string;
  status: string;
  ended: boolean;
  /** SCC's lastUpdatedTime, when it says. */
  at?: string;
}

export function detectRuns<Item>(
  kind: string,
  input: DetectInput<Item, RunState>,
  view: (item: Item) => RunView | undefined,
  tell: (item: Item, run: RunView) => Omit<Finding, 'key' | 'incidentKey' | 'phase' | 'state' | 'at'>,
): DetectOutput<RunState> {
  const { previous, items, now, profile } = input;
  const next = new Map<string, RunState>();
  for (const [uid, state] of previous) if (now - state.seenAt < REMEMBER_RUNS_MS) next.set(uid, state);
  const findings: Finding[] = [];
  for (const item of items) {
    const run = view(item);
    if (!run) continue;
    const before = previous.get(run.uid);
    next.set(run.uid, { status: run.status, ended: run.ended, seenAt: now });
    if (!run.ended || before?.ended) continue;
    const at = run.at ?? isoOf(now);
    findings.push({
      ...tell(item, run),
      key: transitionKey(kind, run.uid, 'status', before?.status, run.status, at),
      incidentKey: incidentKeyOf(kind, profile, run.uid),
      phase: 'notice',
      state: run.status,
      at,
    });
  }
  return { next, findings };
}
