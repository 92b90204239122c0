// Drill: 100,000 generated inputs through the real Slack surface (createFwbotApp, Bolt's own dispatch
// via app.processEvent): /fw text and modal submissions. No crash (no listener error, no rejection),
// every message and modal bound for Slack within Slack's limits, and no SCC request made for an input
// the grammar or the operation's validation refuses. Slack is an in-memory stand-in for fetch (both the
// Web API and response_url go through it); SCC is the simulator, each request counted against the
// input that caused it (AsyncLocalStorage through the client's onCall hook).
import { AsyncLocalStorage } from 'node:async_hooks';
import fc from 'fast-check';
import { pino } from 'pino';
import { sccClientsFrom } from '../../src/app/sccClients.js';
import { createCatalogue } from '../../src/catalogue/index.js';
import { containsCredential } from '../../src/dispatch/commandSecrets.js';
import { Dispatcher } from '../../src/dispatch/dispatcher.js';
import { governanceOf } from '../../src/dispatch/governance.js';
import { extractProfileFlag } from '../../src/dispatch/profileFlag.js';
import { MemoryRevealGrants } from '../../src/dispatch/reveals.js';
import { AccessControl } from '../../src/policy/access.js';
import { UserGroupDirectory } from '../../src/policy/userGroups.js';
import { createSccClient } from '../../src/scc/client.js';
import { startSimulator } from '../../src/simulator/index.js';
import { createFwbotApp } from '../../src/slack/app.js';
import { decodeMetadata } from '../../src/slack/views/metadata.js';
import { rawFromState } from '../../src/slack/views/values.js';
import type { Drill } from './drill.js';
import { type ModalInput, modalInputs, textInputs, viewSubmission } from './fuzzInputs.js';
import { messageViolations, modalViolations } from './slackLimits.js';

const USER = 'U0FUZZER01';
// On the stand-in Slack API's origin: fwbot posts only to response URLs there or on *.slack.com.
const RESPONSE_URL = 'https://slack.invalid/response';

interface Trace {
  scc: number;
  violations: string[];
  sent: number;
  /** Handed to the approval gate, whose answer is the approval card (or, if it throws, a private reply). */
  approvals: number;
}

export interface FuzzResult {
  inputs: number;
  invalid: number;
  crashes: string[];
  overLimits: string[];
  sccFromInvalid: string[];
  /** /fw inputs that got no Slack call and no ack error, by label (to reproduce them). */
  silent: string[];
  /** Inputs handed to the approval gate (destructive operations with valid arguments). */
  toApprovals: number;
  /** Error-level log lines (failures answered with an internal-error reference, not crashes). */
  internalErrors: string[];
}

function parseBody(body: unknown): Record<string, unknown> {
  const raw = body instanceof URLSearchParams ? body.toString() : typeof body === 'string' ? body : '';
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch {
    const out: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(raw)) {
      try {
        out[k] = v.startsWith('{') || v.startsWith('[') ? JSON.parse(v) : v;
      } catch {
        out[k] = v;
      }
    }
    return out;
  }
}

/** Runs `runs` inputs (split 70 % text, 30 % forms) and reports what broke. */
export async function fuzzSurface(runs: number, seed = 8): Promise<FuzzResult> {
  const traces = new AsyncLocalStorage<Trace>();
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const trace = traces.getStore();
    const args = parseBody(init?.body);
    const method = url.startsWith(RESPONSE_URL) ? 'response_url' : (/\/api\/([\w.]+)/.exec(url)?.[1] ?? url);
    if (trace) {
      trace.sent += 1;
      if (method.startsWith('views.'))
        trace.violations.push(
          ...modalViolations((args.view ?? {}) as Record<string, unknown>).map((v) => `${method}: ${v}`),
        );
      else if (method === 'response_url' || method.startsWith('chat.'))
        trace.violations.push(...messageViolations(args).map((v) => `${method}: ${v}`));
    }
    const answer =
      method === 'conversations.open'
        ? { ok: true, channel: { id: 'D0FUZZ01' } }
        : method === 'files.getUploadURLExternal'
          ? { ok: true, upload_url: `${RESPONSE_URL}/upload`, file_id: 'F0FUZZ' }
          : {
              ok: true,
              channel: 'C0FUZZ01',
              ts: '1700000000.000100',
              message_ts: '1700000000.000100',
              view: { id: 'V0FUZZ', hash: 'h' },
              user_id: 'U0FWBOT',
              bot_id: 'B0FWBOT',
              // auth.test: the workspace the inputs come from, the one fwbot then serves.
              team_id: 'T0FAKE',
              files: [],
            };
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  const sim = await startSimulator({ port: 0, clock: 'manual' });
  const errors: string[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => errors.push(line) });
  const client = createSccClient({
    baseUrl: sim.url,
    token: sim.tokens.superAdmin,
    profile: 'default',
    retry: { maxAttempts: 1 },
    onCall: () => {
      const trace = traces.getStore();
      if (trace) trace.scc += 1;
    },
  });
  const catalogue = createCatalogue();
  const everyone = [USER];
  const access = new AccessControl(
    {
      policy: {
        workspace: { viewer: ['*'], operator: everyone, approver: everyone, admin: everyone },
        channels: new Map(),
      },
      channels: new Map(),
      profiles: ['default'],
    },
    new UserGroupDirectory({ log, fetchMembers: async () => [] }),
  );
  const scc = sccClientsFrom(new Map([['default', client]]));
  const dispatcher = new Dispatcher({
    access,
    scc,
    lookup: (id) => catalogue.get(id),
    governance: governanceOf(catalogue.operations, {}),
    // The real gate answers by posting the approval card or throws (answered privately; test/slack/
    // routing.test.ts). This stand-in posts nothing, so a hand-off is counted as the input's answer.
    approvals: {
      request: async () => {
        const trace = traces.getStore();
        if (trace) trace.approvals += 1;
        return { approvalId: 'ap-fuzz' };
      },
    },
    reveals: new MemoryRevealGrants(),
    log,
  });
  const fwbot = createFwbotApp(
    {
      catalogue,
      scc,
      access,
      tracker: { follow: async () => undefined, speakIn: async () => undefined },
      dispatcher,
      // Every input carries a fresh trigger id: nothing to dedupe, and no map growing with 100,000 keys.
      dedupe: { firstSight: async () => true },
      log,
    },
    { botToken: 'xoxb-fuzz', signingSecret: 'fuzz-secret', slackApiUrl: 'https://slack.invalid/api/' },
  );
  const result: FuzzResult = {
    inputs: 0,
    invalid: 0,
    crashes: [],
    overLimits: [],
    sccFromInvalid: [],
    silent: [],
    toApprovals: 0,
    internalErrors: errors,
  };
  const textInvalid = (text: string): boolean => {
    if (containsCredential(text)) return true;
    try {
      const { text: rest, profile } = extractProfileFlag(text);
      if (profile !== undefined && profile !== 'default') return true;
      const parsed = catalogue.parse(rest);
      return !parsed.modal && parsed.op.validate(parsed.raw).length > 0;
    } catch {
      return true;
    }
  };
  const modalInvalid = (input: ModalInput): boolean => {
    const meta = decodeMetadata(input.metadata);
    const op = meta ? catalogue.get(meta.operationId) : undefined;
    if (!meta || !op) return true;
    return op.validate({ ...meta.prefilled, ...rawFromState(input.values as never).raw }).length > 0;
  };
  const texts = fc.sample(textInputs(catalogue), { numRuns: Math.round(runs * 0.7), seed });
  const forms = fc.sample(modalInputs(catalogue, RESPONSE_URL), {
    numRuns: runs - texts.length,
    seed: seed + 1,
  });
  type Job = { label: string; invalid: boolean; body: Record<string, unknown> };
  let n = 0;
  const jobs: Job[] = [
    ...texts.map((text) => {
      n += 1;
      return {
        label: `text ${JSON.stringify(text.slice(0, 80))}`,
        invalid: textInvalid(text),
        body: {
          command: '/fw',
          text,
          user_id: USER,
          channel_id: 'C0FUZZ01',
          team_id: 'T0FAKE',
          trigger_id: `t${n}`,
          response_url: `${RESPONSE_URL}/${n}`,
        },
      };
    }),
    ...forms.map((form) => {
      n += 1;
      return {
        label: `form ${form.op?.id} ${JSON.stringify(form.values).slice(0, 120)}`,
        invalid: modalInvalid(form),
        body: { payload: viewSubmission(form, `t${n}`, USER) },
      };
    }),
  ];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next];
      next += 1;
      if (!job) continue;
      const trace: Trace = { scc: 0, violations: [], sent: 0, approvals: 0 };
      const errorsBefore = errors.length;
      let acked: unknown;
      const payload = job.body.payload ?? job.body;
      try {
        await traces.run(trace, () =>
          fwbot.app.processEvent({
            body: payload as Record<string, unknown>,
            ack: async (response?: unknown) => {
              acked = response;
            },
          }),
        );
      } catch (error) {
        result.crashes.push(`${job.label}: ${error instanceof Error ? error.message : String(error)}`);
      }
      // Error logs cannot be tied to one of 16 concurrent inputs; crashes are Bolt's "unhandled" ones.
      for (const line of errors.slice(errorsBefore))
        if (line.includes('unhandled error in a Slack listener')) result.crashes.push(line.slice(0, 300));
      const ackBody = acked as
        | { errors?: Record<string, string>; view?: Record<string, unknown> }
        | undefined;
      const errorsAck = ackBody?.errors;
      for (const message of Object.values(errorsAck ?? {}))
        if (message.length > 2000) trace.violations.push('field error over 2000 chars');
      // Slack shows nothing for an empty errors map: the form would just sit there.
      if (errorsAck !== undefined && Object.keys(errorsAck).length === 0)
        trace.violations.push('empty errors map (nothing shown)');
      if (ackBody?.view)
        trace.violations.push(...modalViolations(ackBody.view).map((v) => `ack update: ${v}`));
      if (trace.approvals > 0) result.toApprovals += 1;
      const answered = trace.sent > 0 || trace.approvals > 0 || acked !== undefined;
      if (!answered && !job.label.startsWith('form')) result.silent.push(job.label);
      result.inputs += 1;
      if (job.invalid) result.invalid += 1;
      if (trace.violations.length > 0) result.overLimits.push(`${job.label}: ${trace.violations.join('; ')}`);
      if (job.invalid && trace.scc > 0) result.sccFromInvalid.push(`${job.label}: ${trace.scc} SCC requests`);
    }
  };
  try {
    await Promise.all(Array.from({ length: 16 }, worker));
  } finally {
    globalThis.fetch = realFetch;
    await client.close();
    await sim.stop();
  }
  return result;
}

export const fuzzDrill: Drill = {
  name: 'fuzz',
  summary:
    'fast-check over /fw text and modal submissions: 100,000 inputs, no crash, within limits, no SCC call from invalid input',
  async run() {
    const started = Date.now();
    const r = await fuzzSurface(Number(process.env.FUZZ_RUNS ?? 100_000));
    const examples = (list: string[]) => list.slice(0, 3).map((line) => `  e.g. ${line.slice(0, 300)}`);
    return {
      did: [
        `${r.inputs} inputs (${r.invalid} refused by the grammar or validation, ${r.toApprovals} handed to the approval gate) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
      ],
      lost: 0,
      duplicated: 0,
      findings: [
        `crashes: ${r.crashes.length}`,
        ...examples(r.crashes),
        `replies over Slack's limits: ${r.overLimits.length}`,
        ...examples(r.overLimits),
        `SCC requests made for refused input: ${r.sccFromInvalid.length}`,
        ...examples(r.sccFromInvalid),
        `/fw commands that got no reply at all: ${r.silent.length}`,
        ...examples(r.silent),
        `internal errors logged (answered with a reference, not crashes): ${r.internalErrors.length}`,
        ...examples([
          ...new Set(r.internalErrors.map((line) => /"message":"([^"]*)"/.exec(line)?.[1] ?? line)),
        ]),
      ],
      failed: r.crashes.length + r.overLimits.length + r.sccFromInvalid.length + r.silent.length > 0,
    };
  },
};
