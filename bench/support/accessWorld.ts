// The world the access benchmark and the access drill run access requests in: the SCC simulator with
// `count` ASAs (asa-dc-03, whose seeded policy has what placing a rule needs, and clones of it), the
// attributing SCC proxy in front of it, a profiles file whose policy lets one person ask and another
// approve and whose `access:` section refuses telnet, and the real fwbot: a Slack-facing front
// (`npm start` with BOT_WORKERS=off) and a worker process (`npm run worker`), both on the proxy. Requests
// go in as signed `/fw access request` commands; approvals are a second person's click on the card.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedCall } from '../../test/support/fakeSlack.js';
import { postSigned, slashCommandBody } from '../../test/support/slackRequests.js';
import { buttons, clickBody } from '../drills/approvals.js';
import { DRILL_SIGNING_SECRET, type FwbotProcess, startFwbot } from '../drills/fwbotProcess.js';
import { cloneAsas } from './asaClones.js';
import { stopChild } from './processes.js';
import { type BeforeAnswer, type SccProxy, sccOperationOf, startSccProxy } from './sccProxy.js';
import { startWorld, type World } from './world.js';

export const REQUESTER = 'U0ACCREQ01';
export const APPROVER = 'U0ACCAPP01';

/** The `access:` section the benchmark's requests are checked against (docs/using/access-requests.md). */
export const ACCESS_POLICY = [
  'access:',
  '  organisation_networks: [10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16]',
  '  forbidden_services:',
  '    - { name: telnet, protocol: tcp, ports: [23], action: refuse }',
  '    - { name: SMB, protocol: tcp, ports: [445, 139], from: outside, action: refuse }',
];

export interface AccessWorld {
  world: World;
  proxy: SccProxy;
  devices: string[];
  front: FwbotProcess;
  worker: ChildProcess;
  /** Starts another worker process (after a kill). */
  startWorker(): Promise<ChildProcess>;
  stop(): Promise<void>;
}

export async function startAccessWorld(options: {
  devices: number;
  speed: number;
  env?: Record<string, string>;
  /** See startSccProxy. */
  beforeAnswer?: BeforeAnswer;
}): Promise<AccessWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'fwbot-bench-access-'));
  const profiles = join(dir, 'profiles.yml');
  await writeFile(
    profiles,
    [
      'policy:',
      '  workspace:',
      '    viewer: "*"',
      `    operator: [${REQUESTER}]`,
      `    approver: [${APPROVER}]`,
      ...ACCESS_POLICY,
      '',
    ].join('\n'),
  );
  const world = await startWorld({ sim: { clock: 'real', speed: options.speed } });
  const devices = cloneAsas(world.sim, 'asa-dc-03', options.devices, 'asa-acc');
  const uids = new Map(devices.map((name) => [world.sim.deviceUid(name).toLowerCase(), name]));
  const proxy = await startSccProxy(world.sim.url, uids, sccOperationOf(), {
    ...(options.beforeAnswer ? { beforeAnswer: options.beforeAnswer } : {}),
  });
  const env = { SCC_BASE_URL: proxy.url, ...options.env };
  const front = await startFwbot(world, { profilesFile: profiles, env: { ...env, BOT_WORKERS: 'off' } });
  const startWorker = async () =>
    (await startFwbot(world, { profilesFile: profiles, env, entry: 'src/entry/worker.ts' })).child;
  const worker = await startWorker();
  const started: ChildProcess[] = [worker];
  return {
    world,
    proxy,
    devices,
    front,
    worker,
    async startWorker() {
      const child = await startWorker();
      started.push(child);
      return child;
    },
    async stop() {
      for (const child of [front.child, ...started]) await stopChild(child, 'SIGKILL');
      await proxy.stop();
      await world.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Card {
  ts: string;
  args: Record<string, unknown>;
  at: number;
}

/** How an ask ended: a card to approve, or a reply (no change needed, refused) and no card. */
export type Asked = { kind: 'card'; card: Card } | { kind: 'reply'; text: string; at: number };

const textOf = (call: RecordedCall): string => {
  const blocks = Array.isArray(call.args.blocks) ? JSON.stringify(call.args.blocks) : '';
  return `${String(call.args.text ?? '')}\n${blocks}`;
};

/**
 * Asks `/fw <text>` as the requester in `channel`; resolves with the approval card posted there, or with
 * the reply sent to the command's response_url when no card comes (anything but an acknowledgement).
 */
export async function ask(aw: AccessWorld, channel: string, text: string, boundMs: number): Promise<Asked> {
  const slack = aw.world.slack;
  const responseUrl = slack.responseUrl();
  const responseId = responseUrl.slice(responseUrl.lastIndexOf('/') + 1);
  const sent = await postSigned(
    aw.front.eventsUrl,
    DRILL_SIGNING_SECRET,
    // A trigger id of its own: asks sent in the same millisecond would otherwise share one, and fwbot
    // rightly drops a command whose trigger it has seen (Slack's retry).
    slashCommandBody({
      text,
      userId: REQUESTER,
      channelId: channel,
      responseUrl,
      triggerId: `trigger-ask-${responseId}`,
    }),
  );
  if (sent.status !== 200) throw new Error(`/fw ${text}: HTTP ${sent.status}`);
  const deadline = Date.now() + boundMs;
  for (;;) {
    for (const call of slack.calls) {
      if (call.status !== 200) continue;
      if (
        call.method === 'chat.postMessage' &&
        call.args.channel === channel &&
        call.args.thread_ts === undefined &&
        String(call.args.text ?? '').startsWith('Approval needed')
      ) {
        const ts = [...slack.messages().entries()]
          .find(([key, m]) => key.startsWith(`${channel}/`) && m.text === call.args.text)?.[0]
          .split('/')[1];
        if (ts) return { kind: 'card', card: { ts, args: call.args, at: call.at } };
      }
      if (call.method === 'response_url' && call.args.responseUrlId === responseId) {
        const said = textOf(call);
        // Anything but the acknowledgement that a card is on its way ends the ask.
        if (!/Asked for approval|approval card|Working on it/i.test(said))
          return { kind: 'reply', text: String(call.args.text ?? said), at: call.at };
      }
    }
    if (Date.now() > deadline) {
      const seen = slack.calls
        .filter(
          (c) =>
            c.args.channel === channel ||
            (c.method === 'response_url' && c.args.responseUrlId === responseId),
        )
        .map((c) => `${c.method} ${c.status}: ${String(c.args.text ?? '').slice(0, 200)}`);
      throw new Error(
        `no card and no answer to /fw ${text} within ${boundMs} ms; seen: ${seen.join(' / ') || 'nothing'}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The approver presses Approve on the card; resolves with the real time of the click. */
export async function approve(aw: AccessWorld, channel: string, card: Card, i: number): Promise<number> {
  const button = buttons(card.args).find((b) => b.action_id?.startsWith('fw.approval.approve'));
  if (!button) throw new Error('the card has no Approve button');
  const at = Date.now();
  const res = await postSigned(
    aw.front.eventsUrl,
    DRILL_SIGNING_SECRET,
    clickBody(APPROVER, channel, card, button, i, aw.world.slack.url),
  );
  if (res.status !== 200) throw new Error(`approve: HTTP ${res.status}`);
  return at;
}

/** Every accepted post in the card's thread so far. */
export function threadPosts(aw: AccessWorld, channel: string, card: Card): RecordedCall[] {
  return aw.world.slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' &&
      c.status === 200 &&
      c.args.channel === channel &&
      c.args.thread_ts === card.ts,
  );
}

export const postText = (call: RecordedCall): string => String(call.args.text ?? '');
