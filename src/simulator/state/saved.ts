// A world kept across restarts (the demo's ./.fwbot): the whole SimState and its MSP world in V8's
// serialization (Maps, Sets and shared objects survive as they are), with the runtime PRNG's position so
// the ids minted after a restart never repeat one minted before. Work in flight is not kept: its next
// steps are events on the clock, which end with the process, so a restored world ends that work in ERROR
// (SCC's own words for work that stopped), rather than leaving it running for ever.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { SeededRandom } from '../random.js';
import type { SimState } from './model.js';
import { type MspWorld, mspWorld } from './mspWorld.js';

/** Bumped whenever SimState changes shape: a world saved by another shape is not restored. */
const FORMAT = 'fwbot-scc-simulator-world/6';

interface SavedWorld {
  format: typeof FORMAT;
  state: Omit<SimState, 'rng'>;
  rng: number;
  msp: MspWorld;
}

export const INTERRUPTED = 'The SCC simulator stopped while this was running';

export function saveWorld(state: SimState): Buffer {
  const { rng, ...rest } = state;
  const saved: SavedWorld = { format: FORMAT, state: rest, rng: rng.position, msp: mspWorld(state) };
  return serialize(saved);
}

export interface RestoredWorld {
  state: SimState;
  /** Transactions, runs and gateway requests that were running when the world was saved, now ended. */
  interrupted: number;
}

/** The world in `bytes`, with its work in flight ended at `now`; throws when it is not a saved world. */
export function restoreWorld(bytes: Buffer, now: number): RestoredWorld {
  const saved = deserialize(bytes) as Partial<SavedWorld> | null;
  if (saved?.format !== FORMAT || saved.state === undefined || saved.msp === undefined) {
    throw new Error(`not a saved simulator world of format ${FORMAT}`);
  }
  const rng = new SeededRandom(`runtime:${saved.state.seed}`);
  rng.position = saved.rng ?? rng.position;
  // A world saved before connectors could be stopped has none stopped.
  const state: SimState = {
    ...saved.state,
    connectorOutages: saved.state.connectorOutages ?? new Map(),
    rng,
  };
  Object.assign(mspWorld(state), saved.msp);
  return { state, interrupted: endWorkInFlight(state, now) };
}

/** Ends at `now` every piece of work whose next step was an event on the previous process's clock. */
function endWorkInFlight(state: SimState, now: number): number {
  let ended = 0;
  for (const tx of state.transactions.values()) {
    if (tx.status !== 'PENDING' && tx.status !== 'IN_PROGRESS') continue;
    Object.assign(tx, { status: 'ERROR', lastUpdatedTime: now, errorMessage: INTERRUPTED });
    ended += 1;
  }
  for (const run of state.upgradeRuns.values()) {
    if (run.status.startsWith('DONE') || run.status === 'ERROR') continue;
    for (const d of run.devices) {
      if (d.status === 'PENDING' || d.status === 'IN_PROGRESS')
        Object.assign(d, { status: 'FAILED', errorMsg: INTERRUPTED });
    }
    Object.assign(run, { status: 'ERROR', errorMsg: INTERRUPTED, lastUpdatedTime: now });
    Object.assign(run, { stepStartedAt: now, stepDurationMs: 0 });
    ended += 1;
  }
  for (const run of state.deviceUpgradeRuns.values()) {
    const over = ['UPGRADE_STAGING_FAILED', 'UGPRADE_STAGING_FAILED', 'UPGRADE_COMPLETED', 'UPGRADE_FAILED'];
    if (over.includes(run.status) || (run.stageUpgradeOnly && run.status === 'UPGRADE_STAGED')) continue;
    for (const d of run.devices)
      for (const node of d.nodes)
        if (node.completedAt === undefined)
          Object.assign(node, { completedAt: now, failed: true, message: INTERRUPTED });
    Object.assign(run, { status: 'UPGRADE_FAILED', errorMsg: INTERRUPTED, lastUpdatedTime: now });
    ended += 1;
  }
  for (const record of state.upgradeCompatibility.values()) {
    if (record.status === 'IN_PROGRESS')
      Object.assign(record, { status: 'ERROR', errorMessage: INTERRUPTED });
  }
  for (const cache of state.ftdUpgradeCaches.values()) delete cache.buildingTransactionUid;
  for (const run of state.deploymentRuns.values()) {
    if (run.status === 'DEPLOY_COMPLETED' || run.status === 'DEPLOY_FAILED') continue;
    for (const d of run.devices) {
      if (d.status === 'IN_PROGRESS')
        Object.assign(d, { status: 'ERROR', errorMsg: INTERRUPTED, completedAt: now });
    }
    Object.assign(run, { status: 'DEPLOY_FAILED', failureReason: 'TRIGGER_ERROR', errorMsg: INTERRUPTED });
    run.lastUpdatedTime = now;
    ended += 1;
  }
  for (const [id, request] of state.gatewayRequests) {
    if (request.answer !== undefined) continue;
    state.gatewayRequests.delete(id);
    ended += 1;
  }
  const msp = mspWorld(state);
  for (const record of msp.compatibility.values()) {
    if (record.status === 'IN_PROGRESS')
      Object.assign(record, { status: 'ERROR', errorMessage: INTERRUPTED });
  }
  for (const run of msp.runs.values()) {
    // A run whose tenants' runs were triggered settles from theirs (ended above); one still validating ends here.
    if (run.status !== 'VALIDATING_INPUTS' || run.legs.some((leg) => leg.runUid !== undefined)) continue;
    for (const d of run.devices) Object.assign(d, { status: 'FAILED', errorMsg: INTERRUPTED });
    Object.assign(run, { status: 'ERROR', errorMsg: INTERRUPTED, lastUpdatedTime: now });
  }
  // Names held by tenant creations in flight: those creations have just ended in ERROR.
  state.pendingTenantNames.clear();
  return ended;
}

/** Where a simulator's world came from, as its start-up banner says it. */
export type WorldOrigin =
  | { kind: 'seeded'; file?: string; discarded?: string }
  | { kind: 'restored'; file: string; savedAt: number; interrupted: number };

/** The world kept in `file` for `seed` (none when there is no file yet, or one not to restore, and why). */
export function openWorldFile(
  file: string,
  seed: string,
  now: number,
): { state: SimState | undefined; origin: WorldOrigin } {
  if (!existsSync(file)) return { state: undefined, origin: { kind: 'seeded', file } };
  const discarded = (why: string) => ({
    state: undefined,
    origin: { kind: 'seeded', file, discarded: why } as const,
  });
  try {
    const { state, interrupted } = restoreWorld(readFileSync(file), now);
    if (state.seed !== seed) return discarded(`it was of seed "${state.seed}", not "${seed}"`);
    return { state, origin: { kind: 'restored', file, savedAt: statSync(file).mtimeMs, interrupted } };
  } catch (error) {
    return discarded(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Writes the world to `file` whenever it has changed, checked every `everyMs` (a crash loses at most that
 * much), and once more on stop. Written beside and renamed, so a file is always a whole world.
 */
export function keepWorld(file: string, world: () => SimState, everyMs = 1_000): { stop(): void } {
  mkdirSync(dirname(file), { recursive: true });
  let last: Buffer | undefined;
  const write = (): void => {
    const bytes = saveWorld(world());
    if (last?.equals(bytes)) return;
    writeFileSync(`${file}.tmp`, bytes);
    renameSync(`${file}.tmp`, file);
    last = bytes;
  };
  const timer = setInterval(() => {
    try {
      write();
    } catch {
      // Tried again at the next tick and, for good, on stop (where a failure is reported).
    }
  }, everyMs);
  timer.unref();
  write();
  return {
    stop() {
      clearInterval(timer);
      write();
    },
  };
}
