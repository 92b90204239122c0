// Fault injection for tests and benchmarks: rules matched by path pattern and method that add latency,
// answer 500 / 503 / 429 (with Retry-After) or reset the connection, at a rate that is deterministic per
// seed (each rule draws from its own seeded PRNG), optionally only a limited number of times.
import { z } from 'zod';
import { SeededRandom } from '../random.js';

export const FaultRuleInput = z
  .object({
    /** A glob on the path (`*` within one segment, `**` across segments) or a regex starting with `^`. */
    path: z.string().min(1),
    method: z.string().min(1).optional(),
    rate: z.number().min(0).max(1).default(1),
    times: z.number().int().positive().optional(),
    status: z.union([z.literal(500), z.literal(503), z.literal(429)]).optional(),
    retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    reset: z.boolean().optional(),
  })
  .strict()
  .refine((r) => r.status !== undefined || r.latencyMs !== undefined || r.reset === true, {
    message: 'a fault needs status, latencyMs or reset',
  })
  .refine((r) => !(r.status !== undefined && r.reset === true), {
    message: 'status and reset exclude each other',
  });

export type FaultRuleInput = z.input<typeof FaultRuleInput>;

export interface FaultRule extends z.output<typeof FaultRuleInput> {
  id: string;
  matched: number;
  injected: number;
}

export type FaultAction =
  | { kind: 'status'; status: 500 | 503 | 429; retryAfterSeconds?: number }
  | { kind: 'reset' };

export interface FaultDecision {
  latencyMs: number;
  action?: FaultAction;
  ruleIds: string[];
}

interface LiveRule {
  rule: FaultRule;
  pattern: RegExp;
  rng: SeededRandom;
}

function compile(path: string): RegExp {
  if (path.startsWith('^')) return new RegExp(path);
  const source = path
    .split(/(\*\*|\*)/)
    .map((part) =>
      part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}

export class FaultInjector {
  private rules: LiveRule[] = [];
  private nextId = 1;

  constructor(private seed: string) {}

  add(input: FaultRuleInput): FaultRule {
    const parsed = FaultRuleInput.parse(input);
    const rule: FaultRule = { ...parsed, id: `fault-${this.nextId++}`, matched: 0, injected: 0 };
    this.rules.push({
      rule,
      pattern: compile(rule.path),
      rng: new SeededRandom(`fault:${this.seed}:${rule.id}`),
    });
    return rule;
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r.rule }));
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.rule.id !== id);
    return this.rules.length !== before;
  }

  /** Drops every rule; rule numbering (and so each rule's random sequence) starts again. */
  clear(seed = this.seed): void {
    this.rules = [];
    this.nextId = 1;
    this.seed = seed;
  }

  get active(): boolean {
    return this.rules.length > 0;
  }

  decide(method: string, path: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, ruleIds: [] };
    for (const live of this.rules) {
      const { rule } = live;
      if (rule.method !== undefined && rule.method.toUpperCase() !== method.toUpperCase()) continue;
      if (!live.pattern.test(path)) continue;
      rule.matched += 1;
      if (rule.times !== undefined && rule.injected >= rule.times) continue;
      if (live.rng.next() >= rule.rate) continue;
      if (rule.status === undefined && rule.reset !== true) {
        rule.injected += 1;
        decision.latencyMs += rule.latencyMs ?? 0;
        decision.ruleIds.push(rule.id);
        continue;
      }
      if (decision.action !== undefined) continue;
      rule.injected += 1;
      decision.latencyMs += rule.latencyMs ?? 0;
      decision.ruleIds.push(rule.id);
      decision.action =
        rule.reset === true
          ? { kind: 'reset' }
          : {
              kind: 'status',
              status: rule.status ?? 500,
              ...(rule.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: rule.retryAfterSeconds }),
            };
    }
    return decision;
  }
}
