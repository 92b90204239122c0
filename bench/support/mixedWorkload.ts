// The mixed tracking workload (issue 18): the kinds of work SCC does, each with the duration the SCC
// simulator gives it (its pending time plus its running time, drawn uniformly where the simulator draws
// one), in proportions a busy MSP portal might see. Every figure is the simulator's own: the file and
// constant are named beside each, so a change there is a change to make here.

export interface WorkType {
  /** The SCC transaction type, as the simulator writes it. */
  type: string;
  /** Share of the workload. */
  share: number;
  /** Duration from submission to DONE, simulated ms: pending + running, uniform in [min, max]. */
  minMs: number;
  maxMs: number;
  /** Where the simulator models it. */
  source: string;
}

export const WORK_TYPES: readonly WorkType[] = [
  {
    type: 'MSP_ADD_USERS_TO_TENANT',
    share: 0.25,
    minMs: 1_000 + 3_000,
    maxMs: 1_000 + 8_000,
    source: 'src/simulator/api/mspUsers.ts: 1 s pending, 3–8 s running',
  },
  {
    type: 'MSP_DELETE_USERS_FROM_TENANT',
    share: 0.1,
    minMs: 1_000 + 3_000,
    maxMs: 1_000 + 6_000,
    source: 'src/simulator/api/mspUsers.ts: 1 s pending, 3–6 s running',
  },
  {
    type: 'CALCULATE_ASA_CONFIG_COMMANDS',
    share: 0.1,
    minMs: 1_000 + 3_000,
    maxMs: 1_000 + 3_000,
    source: 'src/simulator/api/changes.ts CALCULATION_MS: 1 s pending, 3 s running',
  },
  {
    type: 'READ_ASA',
    share: 0.05,
    minMs: 1_000 + 8_000,
    maxMs: 1_000 + 8_000,
    source: 'src/simulator/api/changes.ts READ_MS: 1 s pending, 8 s running',
  },
  {
    type: 'MSP_GET_COMPATIBLE_SECURE_CLIENT_UPGRADE_PACKAGES',
    share: 0.05,
    minMs: 1_000 + 2_000,
    maxMs: 1_000 + 6_000,
    source: 'src/simulator/api/mspSecureClient.ts: 1 s pending, 2–6 s running',
  },
  {
    type: 'MSP_REVOKE_TENANT_MSP_PORTAL_RELATIONSHIP',
    share: 0.05,
    minMs: 1_000 + 4_000,
    maxMs: 1_000 + 9_000,
    source: 'src/simulator/api/mspTenants.ts: 1 s pending, 4–9 s running',
  },
  {
    type: 'MSP_ADD_EXISTING_TENANT',
    share: 0.1,
    minMs: 1_000 + 8_000,
    maxMs: 1_000 + 15_000,
    source: 'src/simulator/api/tenants.ts: 1 s pending, 8–15 s running',
  },
  {
    type: 'MSP_CREATE_TENANT',
    share: 0.1,
    minMs: 2_000 + 25_000,
    maxMs: 2_000 + 45_000,
    source: 'src/simulator/api/tenants.ts: 2 s pending, 25–45 s running',
  },
  {
    type: 'MSP_ENABLE_MULTICLOUD_DEFENSE',
    share: 0.15,
    minMs: 2_000 + 60_000,
    maxMs: 2_000 + 120_000,
    source: 'src/simulator/api/tenants.ts: 2 s pending, 60–120 s running',
  },
  {
    type: 'MSP_PROVISION_CDFMC',
    share: 0.05,
    minMs: 5_000 + 12 * 60_000,
    maxMs: 5_000 + 12 * 60_000,
    source:
      'src/simulator/api/tenants.ts CDFMC_TARGET_MS: 5 s pending, 12 min running (the leg on the tenant)',
  },
];

/** One piece of work: its type and how long it takes (simulated ms). */
export interface Work {
  type: string;
  durationMs: number;
}

/** `count` pieces of work drawn from WORK_TYPES with `random` (uniform in [0, 1)). */
export function drawWork(count: number, random: () => number): Work[] {
  const total = WORK_TYPES.reduce((sum, t) => sum + t.share, 0);
  return Array.from({ length: count }, () => {
    const pick = random() * total;
    let below = 0;
    const type =
      WORK_TYPES.find((t) => {
        below += t.share;
        return pick < below;
      }) ?? WORK_TYPES.at(-1);
    if (!type) throw new Error('no work types');
    return { type: type.type, durationMs: Math.round(type.minMs + (type.maxMs - type.minMs) * random()) };
  });
}

/** The work types as a line for RESULTS.md: type, share, duration range. */
export function describeWorkTypes(): string {
  const s = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);
  return WORK_TYPES.map(
    (t) =>
      `${t.type} ${Math.round(t.share * 100)} %, ${t.minMs === t.maxMs ? s(t.minMs) : `${s(t.minMs)}–${s(t.maxMs)}`} (${t.source})`,
  ).join('; ');
}
