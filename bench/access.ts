// `npm run bench -- --only access` (issue 36 item 12): access requests over simulator ASAs through the
// real fwbot — a Slack-facing front (`npm start`, BOT_WORKERS=off) and a worker process (`npm run worker`)
// on real BullMQ queues and a real redis-server, the fake Slack Web API with Bolt real, the SCC simulator
// on the wall clock at `speed` (1: SCC's pace). Each request is a signed `/fw access request` from one
// person, approved by a click of another on its card. The mix, over `devices` ASAs (asa-dc-03 and clones
// of it, bench/support/asaClones.ts): already allowed, new rules that reuse both objects, new rules that
// need two new objects, requests the `access:` policy refuses (telnet), and on some devices groups of
// requests asked and approved at the same moment (the device's change lock makes them take turns).
// Each device's other requests go one after another; the devices run at once.
//
// Measured: SCC calls per request (an attributing proxy in front of the simulator, bench/support/
// sccProxy.ts) against the minimum the flow needs (MINIMUM below, counted from the code), the time from
// the approving click to the "verified" post, which rules each deploy carried (from the simulator's
// deployment records: the configuration before and after, per device), and rules left unverified.
import { policyLinesOf } from '../src/simulator/state/asaPolicyLines.js';
import {
  type AccessWorld,
  approve,
  ask,
  type Card,
  postText,
  REQUESTER,
  startAccessWorld,
  threadPosts,
} from './support/accessWorld.js';
import { mean, num, percentile, seededRandom, type Table } from './support/stats.js';

export type RequestKind = 'allowed' | 'new' | 'objects' | 'refused' | 'concurrent';

type SideHow = 'reused' | 'created';

interface Planned {
  id: number;
  device: string;
  kind: RequestKind;
  text: string;
  channel: string;
  reason: string;
  /** How each side's object comes to be (the design, known from the seeded policy). */
  sides: [SideHow, SideHow];
  /** Whether the traffic is denied today by a rule (else by the implicit deny at the list's end). */
  denyRule: boolean;
  /** The addresses typed, which getObjects queries name. */
  addresses: string[];
  group?: number;
}

interface Result {
  planned: Planned;
  askedAt: number;
  answeredAt?: number;
  approvedAt?: number;
  endedAt?: number;
  /** verified, no-change, refused (by the policy, at the ask), stopped (refused at run time), unverified. */
  outcome: 'verified' | 'no-change' | 'refused' | 'stopped' | 'not-verified' | 'timed-out' | 'not-run';
  said?: string;
  staged: boolean;
}

export interface AccessBenchOptions {
  requests: number;
  devices: number;
  /** Devices that get a group of requests asked and approved at once, and the group's size. */
  concurrentDevices: number;
  groupSize: number;
  /** The simulator's speed: 1 is SCC's pace. */
  speed: number;
  /**
   * Real seconds after which no request is started; those under way get SETTLE_S more to end, then
   * count as timed out.
   */
  boundS: number;
  seed: number;
}

// ---------------------------------------------------------------------------------------------------
// The minimum the flow needs, counted from the code (src/catalogue/accessRequest.ts, src/follow/
// accessVerify.ts and deployment.ts, src/catalogue/deployWindows.ts, pendingCommands.ts, trace.ts,
// resolve.ts): every call the flow makes, with each poll answered at its first read.

type Calls = Record<string, number>;

const add = (into: Calls, from: Calls, times = 1) => {
  for (const [op, n] of Object.entries(from)) into[op] = (into[op] ?? 0) + n * times;
};

/** resolveRequest up to the risk check: the device by name, then each side's object (sideOf). */
function askMinimum(p: Planned): Calls {
  const objects = p.sides.reduce((n, how) => n + (how === 'reused' ? 1 : 2), 0);
  return { getDevices: 1, getObjects: objects };
}

/** The rest of resolveRequest: interfaces, packet-tracer, the rules, the group, the windows. */
const TRACED: Calls = {
  // listDeviceInterfaces: the five interface lists (INTERFACE_LISTS).
  getAsaPhysicalInterfaces: 1,
  getAsaSubInterfaces: 1,
  getAsaEtherChannelInterfaces: 1,
  getAsaVlanInterfaces: 1,
  getAsaVirtualTunnelInterfaces: 1,
  // runCliLine: start, one transaction read that finds it DONE, the result list (it carries the result).
  executeCliCommand: 1,
  getTransaction: 1,
  getCliResults: 1,
  // rulesOf (one page).
  listAccessRules: 1,
};
const CARD: Calls = { listAccessGroups: 1, getDevice: 1 /* deployWindows */ };
/** The executor: the timing's windows, then reread (the device, its windows, and the deny rule). */
const REREAD: Calls = { getDevice: 3 };
/** stageAndDeploy after the objects: the rule, SCC's calculation (started, read once, read), the deploy. */
const STAGE: Calls = {
  createAccessRule: 1,
  calculateAsaCommandsToApplyPendingChanges: 1,
  getAsaCommandsToApplyPendingChanges: 1,
  deployChangesToMultipleAsaDevices: 1,
};
const CALCULATION_READ: Calls = { getTransaction: 1 };
/** The `deployment` follow kind: the transaction once, then the run found by it, ended. */
const DEPLOYMENT_FOLLOW: Calls = { getTransaction: 1, getDeviceDeploymentRuns: 1 };
/** The `access-verify` kind: the run (ended), packet-tracer (start, read, result), the rule by its line. */
const VERIFY: Calls = {
  getDeviceDeploymentRuns: 1,
  executeCliCommand: 1,
  getTransaction: 1,
  getCliResults: 1,
  listAccessRules: 1,
};

export function minimumCalls(p: Planned, outcome: Result['outcome']): Calls {
  const calls: Calls = {};
  add(calls, askMinimum(p));
  if (outcome === 'refused') return calls;
  add(calls, TRACED);
  if (outcome === 'no-change') return calls;
  add(calls, CARD);
  add(calls, REREAD);
  if (p.denyRule) add(calls, { fetchAccessRule: 1 });
  if (outcome === 'stopped') return calls;
  const created = p.sides.filter((how) => how === 'created').length;
  if (created > 0) add(calls, { createObject: created });
  add(calls, STAGE);
  add(calls, CALCULATION_READ);
  add(calls, DEPLOYMENT_FOLLOW);
  add(calls, VERIFY);
  return calls;
}

const total = (calls: Calls) => Object.values(calls).reduce((n, x) => n + x, 0);

// ---------------------------------------------------------------------------------------------------
// The plan.

const KIND_SHARES: [RequestKind, number][] = [
  ['allowed', 0.2],
  ['new', 0.3],
  ['objects', 0.3],
  ['refused', 0.2],
];

export function plan(options: AccessBenchOptions, devices: readonly string[]): Planned[] {
  if (options.requests > 250) throw new Error('at most 250 requests: each gets its own host addresses');
  const random = seededRandom(options.seed);
  const grouped = options.concurrentDevices * options.groupSize;
  const sequential = options.requests - grouped;
  if (sequential < 0) throw new Error('more requests in concurrent groups than requests');
  const kinds: RequestKind[] = [];
  for (const [kind, share] of KIND_SHARES)
    for (let i = 0; i < Math.round(share * sequential); i += 1) kinds.push(kind);
  while (kinds.length < sequential) kinds.push('new');
  kinds.length = sequential;
  for (let i = kinds.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j] as RequestKind, kinds[i] as RequestKind];
  }
  const out: Planned[] = [];
  const make = (device: string, kind: RequestKind, group?: number, inGroup = 0): Planned => {
    const id = out.length + 1;
    const reason = `bench access ${id}`;
    const channel = `C0ACC${String(id).padStart(5, '0')}`;
    const port = 10_000 + id;
    const host = `192.0.2.${id}`;
    const target = `172.20.41.${id}`;
    const base = { id, device, kind, channel, reason, ...(group === undefined ? {} : { group }) };
    const text = (rest: string, input: string) =>
      `access request ${device} ${rest} --in ${input} --reason "${reason}"`;
    switch (kind) {
      case 'allowed':
        // Let in by the seeded `permit tcp any object DC-WEB eq https`.
        return {
          ...base,
          text: text(`tcp 203.0.113.${id} 172.20.40.10 443`, 'outside'),
          sides: ['created', 'reused'],
          denyRule: false,
          addresses: [`203.0.113.${id}`, '172.20.40.10'],
        };
      case 'new':
        // PARTNER-NET and DC-APP reused; placed above `deny ip object PARTNER-NET any log`.
        return {
          ...base,
          text: text(`tcp 198.51.100.0/24 172.20.41.0/24 ${port}`, 'outside'),
          sides: ['reused', 'reused'],
          denyRule: true,
          addresses: ['198.51.100.0/24', '172.20.41.0/24'],
        };
      case 'objects':
        // Two new host objects; placed above `deny ip any any log`.
        return {
          ...base,
          text: text(`tcp ${host} ${target} ${port}`, 'outside'),
          sides: ['created', 'created'],
          denyRule: true,
          addresses: [host, target],
        };
      case 'refused':
        return {
          ...base,
          text: text(`tcp ${host} ${target} 23`, 'outside'),
          sides: ['created', 'created'],
          denyRule: true,
          addresses: [host, target],
        };
      case 'concurrent': {
        // Most of a group come in on `web`, whose list ends in the implicit deny; two on `outside`, above
        // the same deny rule, whose place the first one's rule moves.
        if (inGroup < 2)
          return {
            ...base,
            text: text(`tcp 198.51.100.0/24 172.20.41.0/24 ${port}`, 'outside'),
            sides: ['reused', 'reused'],
            denyRule: true,
            addresses: ['198.51.100.0/24', '172.20.41.0/24'],
          };
        const to = `10.9.${group ?? 0}.${id}`;
        return {
          ...base,
          text: text(`udp 172.20.40.10 ${to} ${port}`, 'web'),
          sides: ['reused', 'created'],
          denyRule: false,
          addresses: ['172.20.40.10', to],
        };
      }
    }
  };
  for (let g = 0; g < options.concurrentDevices; g += 1) {
    const device =
      devices[(g * Math.max(1, Math.floor(devices.length / options.concurrentDevices))) % devices.length];
    for (let k = 0; k < options.groupSize; k += 1) out.push(make(device ?? '', 'concurrent', g, k));
  }
  for (const [i, kind] of kinds.entries()) out.push(make(devices[i % devices.length] ?? '', kind));
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Running one request, or a group at once.

const SETTLE_S = 300;
const FINAL_VERIFIED = /verified: ALLOW/;
const FINAL_NOT = /NOT verified/;

async function settle(aw: AccessWorld, r: Result, card: Card, deadline: number): Promise<void> {
  const { channel } = r.planned;
  for (;;) {
    const posts = threadPosts(aw, channel, card);
    r.staged = posts.some((p) => postText(p).includes('add the access rule'));
    const verified = posts.find((p) => FINAL_VERIFIED.test(postText(p)) && !FINAL_NOT.test(postText(p)));
    const not = posts.find((p) => FINAL_NOT.test(postText(p)));
    if (verified || not) {
      const post = (verified ?? not) as (typeof posts)[number];
      r.outcome = verified ? 'verified' : 'not-verified';
      r.endedAt = post.at;
      r.said = postText(post);
      return;
    }
    // Refused when it came to run (the device changed under it): the card ends, nothing was staged.
    const ended = aw.world.slack.calls.find(
      (c) =>
        c.method === 'chat.update' &&
        c.args.channel === channel &&
        c.args.ts === card.ts &&
        /: (failed|aborted|refused|expired|cancelled|rejected)/i.test(String(c.args.text ?? '')),
    );
    if (ended && !r.staged) {
      r.outcome = 'stopped';
      r.endedAt = ended.at;
      r.said = posts.map(postText).at(-1) ?? String(ended.args.text ?? '');
      return;
    }
    if (Date.now() > deadline) {
      r.outcome = 'timed-out';
      r.said = posts.map(postText).at(-1) ?? 'nothing in the thread';
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function runOne(aw: AccessWorld, p: Planned, deadline: number): Promise<Result> {
  const r: Result = { planned: p, askedAt: Date.now(), outcome: 'timed-out', staged: false };
  let asked: Awaited<ReturnType<typeof ask>>;
  try {
    asked = await ask(aw, p.channel, p.text, Math.max(1_000, deadline - Date.now()));
  } catch (error) {
    r.said = String(error);
    return r;
  }
  if (asked.kind === 'reply') {
    r.answeredAt = asked.at;
    r.endedAt = asked.at;
    r.said = asked.text;
    r.outcome = asked.text.startsWith('No change needed') ? 'no-change' : 'refused';
    return r;
  }
  r.answeredAt = asked.card.at;
  r.approvedAt = await approve(aw, p.channel, asked.card, p.id);
  await settle(aw, r, asked.card, deadline);
  return r;
}

/** A group: every request asked at once, every card approved at once, each settled. */
async function runGroup(aw: AccessWorld, group: Planned[], deadline: number): Promise<Result[]> {
  const results = group.map(
    (p): Result => ({ planned: p, askedAt: Date.now(), outcome: 'timed-out', staged: false }),
  );
  const asked = await Promise.all(
    group.map((p) =>
      ask(aw, p.channel, p.text, Math.max(1_000, deadline - Date.now())).catch((error: unknown) =>
        String(error),
      ),
    ),
  );
  const cards: { r: Result; card: Card }[] = [];
  for (const [i, a] of asked.entries()) {
    const r = results[i] as Result;
    if (typeof a === 'string') r.said = a;
    else if (a.kind === 'reply') {
      r.answeredAt = a.at;
      r.endedAt = a.at;
      r.said = a.text;
      r.outcome = a.text.startsWith('No change needed') ? 'no-change' : 'refused';
    } else {
      r.answeredAt = a.card.at;
      cards.push({ r, card: a.card });
    }
  }
  await Promise.all(
    cards.map(async ({ r, card }) => {
      r.approvedAt = await approve(aw, r.planned.channel, card, r.planned.id);
    }),
  );
  await Promise.all(cards.map(({ r, card }) => settle(aw, r, card, deadline)));
  return results;
}

// ---------------------------------------------------------------------------------------------------
// Attribution of SCC calls to requests.

interface Slot {
  start: number;
  members: Result[];
}

function attribute(aw: AccessWorld, results: readonly Result[]): { unattributed: Calls } {
  const measured = new Map<number, Calls>(results.map((r) => [r.planned.id, {}]));
  const slotsByDevice = new Map<string, Slot[]>();
  for (const r of results) {
    const uid = aw.world.sim.deviceUid(r.planned.device).toLowerCase();
    const slots = slotsByDevice.get(uid) ?? [];
    const groupSlot =
      r.planned.group === undefined
        ? undefined
        : slots.find((s) => s.members[0]?.planned.group === r.planned.group);
    if (groupSlot) {
      groupSlot.members.push(r);
      groupSlot.start = Math.min(groupSlot.start, r.askedAt);
    } else slots.push({ start: r.askedAt, members: [r] });
    slotsByDevice.set(uid, slots);
  }
  for (const slots of slotsByDevice.values()) slots.sort((a, b) => a.start - b.start);
  const unattributed: Calls = {};
  const objectsSoFar = new Map<number, number>();
  for (const call of aw.proxy.calls) {
    const op = call.operation;
    if (call.device) {
      const slot = (slotsByDevice.get(call.device) ?? []).filter((s) => s.start <= call.at).at(-1);
      if (!slot) {
        add(unattributed, { [op]: 1 });
        continue;
      }
      for (const member of slot.members)
        add(measured.get(member.planned.id) ?? {}, { [op]: 1 / slot.members.length });
      continue;
    }
    if (op === 'getObjects') {
      // No device in it: the request being asked that names the address it asks about (and, of several,
      // the one with the fewest such calls so far).
      const candidates = results.filter(
        (r) =>
          r.askedAt <= call.at &&
          (r.answeredAt ?? Number.POSITIVE_INFINITY) >= call.at - 50 &&
          r.planned.addresses.some((a) => call.query.includes(a)),
      );
      const chosen = candidates.sort(
        (a, b) => (objectsSoFar.get(a.planned.id) ?? 0) - (objectsSoFar.get(b.planned.id) ?? 0),
      )[0];
      if (chosen) {
        objectsSoFar.set(chosen.planned.id, (objectsSoFar.get(chosen.planned.id) ?? 0) + 1);
        add(measured.get(chosen.planned.id) ?? {}, { getObjects: 1 });
        continue;
      }
    }
    add(unattributed, { [op]: 1 });
  }
  for (const r of results) (r as Result & { calls?: Calls }).calls = measured.get(r.planned.id) ?? {};
  return { unattributed };
}

const callsOf = (r: Result): Calls => (r as Result & { calls?: Calls }).calls ?? {};

// ---------------------------------------------------------------------------------------------------
// What each deploy carried: the simulator's records of each device's configuration before and after.

interface DeployCheck {
  deploys: number;
  carryingTwo: number;
  foreign: number;
  details: string[];
}

function checkDeploys(aw: AccessWorld, results: readonly Result[]): DeployCheck {
  const byReason = new Map(results.map((r) => [r.planned.reason, r.planned.id]));
  let deploys = 0;
  let carryingTwo = 0;
  let foreign = 0;
  const details: string[] = [];
  for (const run of aw.world.sim.state.deploymentRuns.values()) {
    for (const entry of run.devices) {
      const before = entry.change?.initialConfig;
      const after = entry.change?.deployedConfig;
      if (!before || !after) continue;
      deploys += 1;
      const had = new Map<string, number>();
      for (const line of before.split('\n')) had.set(line, (had.get(line) ?? 0) + 1);
      const added: string[] = [];
      for (const line of after.split('\n')) {
        const n = had.get(line) ?? 0;
        if (n > 0) had.set(line, n - 1);
        else added.push(line);
      }
      const remarks = added.filter((l) => /^access-list \S+ remark fwbot:/.test(l));
      const rules = added.filter((l) => /^access-list \S+ extended /.test(l));
      const requests = new Set(
        remarks
          .map((l) => [...byReason].find(([reason]) => l.endsWith(reason))?.[1])
          .filter((id) => id !== undefined),
      );
      if (requests.size > 1 || rules.length > 1) {
        carryingTwo += 1;
        details.push(
          `${entry.name} run ${run.uid}: requests ${[...requests].join(', ')}; rules ${rules.join(' | ')}`,
        );
      }
      if (remarks.length !== requests.size) foreign += 1;
    }
  }
  return { deploys, carryingTwo, foreign, details };
}

// ---------------------------------------------------------------------------------------------------
// The benchmark.

const KIND_LABEL: Record<RequestKind, string> = {
  allowed: 'already allowed (no change needed)',
  new: 'new rule, both objects reused',
  objects: 'new rule, two new objects',
  refused: 'refused by the access: policy (telnet)',
  concurrent: 'asked and approved at once on one device',
};

export async function benchAccess(options: AccessBenchOptions): Promise<Table[]> {
  const aw = await startAccessWorld({ devices: options.devices, speed: options.speed });
  const started = Date.now();
  const startBy = started + options.boundS * 1000;
  const deadline = startBy + SETTLE_S * 1000;
  try {
    const planned = plan(options, aw.devices);
    console.log(
      `  ${planned.length} requests over ${aw.devices.length} ASAs (simulator speed ${options.speed}); none started after ${options.boundS} s, none followed after ${options.boundS + SETTLE_S} s`,
    );
    const results: Result[] = [];
    let done = 0;
    const progress = setInterval(() => {
      console.log(
        `  [access] ${done} of ${planned.length} requests ended after ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
    }, 15_000);
    try {
      await Promise.all(
        aw.devices.map(async (device) => {
          const mine = planned.filter((p) => p.device === device);
          const groups = [...new Set(mine.filter((p) => p.group !== undefined).map((p) => p.group))];
          for (const g of groups) {
            const out = await runGroup(
              aw,
              mine.filter((p) => p.group === g),
              deadline,
            );
            results.push(...out);
            done += out.length;
          }
          for (const p of mine.filter((q) => q.group === undefined)) {
            if (Date.now() > startBy) {
              results.push({ planned: p, askedAt: Date.now(), outcome: 'not-run', staged: false });
              continue;
            }
            results.push(await runOne(aw, p, deadline));
            done += 1;
          }
        }),
      );
    } finally {
      clearInterval(progress);
    }
    // A moment for anything still following to finish its reads before they are counted.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const elapsedS = (Date.now() - started) / 1000;
    const { unattributed } = attribute(
      aw,
      results.filter((r) => r.outcome !== 'not-run'),
    );
    const deploys = checkDeploys(aw, results);
    const rulesOnDevices = aw.devices.reduce(
      (n, name) =>
        n +
        policyLinesOf(aw.world.sim.state, aw.world.sim.deviceUid(name)).filter((l) =>
          l.includes(`remark fwbot: ${REQUESTER}`),
        ).length,
      0,
    );
    return tables(options, aw, results, unattributed, deploys, rulesOnDevices, elapsedS);
  } finally {
    await aw.stop();
  }
}

function tables(
  options: AccessBenchOptions,
  aw: AccessWorld,
  results: readonly Result[],
  unattributed: Calls,
  deploys: DeployCheck,
  rulesOnDevices: number,
  elapsedS: number,
): Table[] {
  const count = (f: (r: Result) => boolean) => results.filter(f).length;
  const verified = results.filter((r) => r.outcome === 'verified');
  const waits = verified.map((r) => ((r.endedAt ?? 0) - (r.approvedAt ?? 0)) / 1000);
  const ran = results.filter((r) => r.outcome !== 'not-run');
  const measured = ran.map((r) => total(callsOf(r)));
  const minimum = ran.map((r) => total(minimumCalls(r.planned, r.outcome)));
  const kinds = [...new Set(results.map((r) => r.planned.kind))];
  const outcomes = (rs: readonly Result[]) => {
    const by = new Map<string, number>();
    for (const r of rs) by.set(r.outcome, (by.get(r.outcome) ?? 0) + 1);
    return [...by].map(([o, n]) => `${n} ${o}`).join(', ');
  };
  const perKind: Table = {
    title: `Access requests: ${results.length} over ${aw.devices.length} ASAs, by kind`,
    notes: [
      `The real fwbot (front with BOT_WORKERS=off and one \`npm run worker\`, real BullMQ on a private redis-server), the fake Slack Web API with Bolt real, the SCC simulator on the wall clock at speed ${options.speed}${options.speed === 1 ? " (SCC's pace)" : ` (SCC's work ${options.speed}× faster; fwbot's own schedule is not compressed)`}. Each request a signed \`/fw access request\` by ${REQUESTER}; every card approved by a second person's click. ${aw.devices.length} ASAs: asa-dc-03 and clones of it (interfaces and policy copied). Each device's requests one after another, the devices at once; on ${options.concurrentDevices} devices first a group of ${options.groupSize} asked at the same moment and approved at the same moment (three on \`web\`, whose list ends in the implicit deny; two above the same deny rule on \`outside\`).`,
      "SCC calls: every request the simulator served, through a proxy that tells the device from the path, query or body and learns which transaction, command-line run, result and rule is whose; a device's calls go to the request of that device under way (a group's are shared evenly by its members); getObjects, which names no device, goes to the request being asked that names the address. Minimum: what the flow calls with every poll answered at its first read (bench/access.ts MINIMUM, counted from the code; see the table of calls below).",
      'Approval → verified: from the approving click to the "verified: ALLOW" post in the thread (real seconds).',
    ],
    headers: [
      'kind',
      'requests',
      'outcomes',
      'SCC calls p50',
      'p95',
      'minimum p50',
      'approval → verified p50 s',
      'p95 s',
    ],
    rows: kinds.map((kind) => {
      const rs = ran.filter((r) => r.planned.kind === kind);
      const v = rs.filter((r) => r.outcome === 'verified');
      const w = v.map((r) => ((r.endedAt ?? 0) - (r.approvedAt ?? 0)) / 1000);
      const m = rs.map((r) => total(callsOf(r)));
      const min = rs.map((r) => total(minimumCalls(r.planned, r.outcome)));
      return [
        KIND_LABEL[kind],
        String(rs.length),
        outcomes(rs),
        num(percentile(m, 50), 1),
        num(percentile(m, 95), 1),
        num(percentile(min, 50)),
        w.length ? num(percentile(w, 50), 1) : '—',
        w.length ? num(percentile(w, 95), 1) : '—',
      ];
    }),
  };
  const staged = results.filter((r) => r.staged);
  const unverified = staged.filter((r) => r.outcome !== 'verified').length;
  const summary: Table = {
    title: 'Access requests: the checks',
    notes: [
      `Run time ${elapsedS.toFixed(0)} s. Deploys: every device deploy in the simulator's deployment records; the lines it added are the configuration after minus before, and a deploy carrying two requests' changes is one that added the remarks of two requests (each request's reason is unique) or more than one access rule. Rules left unverified: requests whose rule was staged without a "verified: ALLOW" post; rules on devices: fwbot's remarks in the devices' policies at the end.`,
    ],
    headers: ['measure', 'value'],
    rows: [
      ['requests', String(results.length)],
      ['outcomes', outcomes(results)],
      [
        'SCC calls per request p50 / p95 (measured)',
        `${num(percentile(measured, 50), 1)} / ${num(percentile(measured, 95), 1)}`,
      ],
      [
        'SCC calls per request p50 / p95 (minimum of the flow)',
        `${num(percentile(minimum, 50))} / ${num(percentile(minimum, 95))}`,
      ],
      [
        'SCC calls measured / minimum, all requests',
        `${num(measured.reduce((a, b) => a + b, 0))} / ${num(minimum.reduce((a, b) => a + b, 0))}`,
      ],
      [
        'SCC calls no request could be given',
        `${num(total(unattributed))}${
          total(unattributed)
            ? ` (${Object.entries(unattributed)
                .map(([op, n]) => `${op} ${num(n)}`)
                .join(', ')})`
            : ''
        }`,
      ],
      [
        'approval → verified p50 / p95 / max s',
        waits.length
          ? `${num(percentile(waits, 50), 1)} / ${num(percentile(waits, 95), 1)} / ${num(Math.max(...waits), 1)}`
          : 'none verified',
      ],
      ['device deploys', String(deploys.deploys)],
      ["deploys carrying two requests' changes", String(deploys.carryingTwo)],
      ['deploys carrying a fwbot remark of no request here', String(deploys.foreign)],
      ['rules staged / verified', `${staged.length} / ${count((r) => r.outcome === 'verified')}`],
      ['rules left unverified', String(unverified)],
      ["fwbot's rules on the devices at the end", String(rulesOnDevices)],
      ...results
        .filter((r) => r.outcome === 'stopped' || r.outcome === 'timed-out' || r.outcome === 'not-verified')
        .slice(0, 6)
        .map((r) => [
          `request ${r.planned.id} (${r.planned.kind}) ${r.outcome}`,
          (r.said ?? '').slice(0, 160).replace(/\|/g, '/').replace(/\n/g, ' '),
        ]),
      ...deploys.details.slice(0, 4).map((d) => ['deploy carrying two', d.replace(/\|/g, '/')]),
    ],
  };
  // Where the calls above the minimum go, for a request that was deployed and verified.
  const ops = new Set<string>();
  for (const r of verified) {
    for (const op of Object.keys(callsOf(r))) ops.add(op);
    for (const op of Object.keys(minimumCalls(r.planned, r.outcome))) ops.add(op);
  }
  const byOp: Table = {
    title: 'Access requests: SCC calls of a verified request, by operation',
    notes: [
      `Mean over the ${verified.length} verified requests, against the minimum of the flow for the same requests. Minimum: getDevices 1 and getObjects 1 per reused side or 2 per new one (resolveDevice, sideOf); the five interface lists; packet-tracer as executeCliCommand, getTransaction once, getCliResults; listAccessRules, listAccessGroups; getDevice once for the card's windows and three times on approval (the timing's windows, reread, reread's windows); fetchAccessRule for a deny rule; createObject per new object, createAccessRule; the calculation (calculate, getTransaction once, getAsaCommandsToApplyPendingChanges); the deploy; the \`deployment\` follow kind (getTransaction, getDeviceDeploymentRuns); the \`access-verify\` kind (getDeviceDeploymentRuns, executeCliCommand, getTransaction, getCliResults, listAccessRules to name the rule's line).`,
    ],
    headers: ['operation', 'measured mean', 'minimum mean'],
    rows: [...ops]
      .sort()
      .map((op) => [
        op,
        num(mean(verified.map((r) => callsOf(r)[op] ?? 0)), 2),
        num(mean(verified.map((r) => minimumCalls(r.planned, r.outcome)[op] ?? 0)), 2),
      ]),
  };
  return [summary, perKind, byOp];
}
