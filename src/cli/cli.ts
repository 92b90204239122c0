// `fwbot <words>`: one command of the catalogue, run once against the configured SCC profile, printed
// with the text renderer (or SCC's answer as JSON with --json). The person at the terminal holds the SCC
// token, so they hold every role and nobody else approves: calls that need a second person's approval on
// Slack say what they would do and run only with --yes. The same dispatcher as Slack's decides everything
// else (credential-looking text refused, arguments, secrets). Exit codes tell failures apart (see EXIT).
// Every form field is also a flag, so any command runs from argv alone; a command that would open its form
// on Slack asks the form's fields on a terminal (secrets without echo), and a form's secret field (a
// tenant's API token) is never an argument: it is typed at that prompt or read from stdin (`--<field>-stdin`).
// The CLI is in no channel and keeps no state of its own; the alerts commands read and change the bot's
// subscriptions and incidents in the bot's Redis, when the configuration names it (REDIS_URL…).
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import type { Logger } from 'pino';
import { createCertificateProbe } from '../app/certificateProbe.js';
import { createLogger } from '../app/logger.js';
import { readScheduledRuns } from '../app/scheduledReader.js';
import { type Catalogue, createCatalogue } from '../catalogue/index.js';
import type {
  CertificateProbe,
  ModalField,
  Operation,
  OperationContext,
  OperationServices,
  Outcome,
  RawArgs,
  TrackRequest,
} from '../catalogue/operation.js';
import { SccUserError } from '../catalogue/sccErrors.js';
import { TIMED_KINDS, timedRegistry } from '../catalogue/timed/index.js';
import { quoteToken } from '../catalogue/usage.js';
import { type Config, ConfigError, type Environment, loadConfig } from '../config.js';
import { FormAbandoned, fillForm, type Prompter } from '../console/forms.js';
import { Dispatcher } from '../dispatch/dispatcher.js';
import { governanceOf } from '../dispatch/governance.js';
import type { RequestContext } from '../dispatch/request.js';
import { MemoryRevealGrants } from '../dispatch/reveals.js';
import { heldDevicesOf, holderOf, kindOf } from '../follow/index.js';
import type { CommonState, Outcome as FollowOutcome, LaterWork } from '../follow/kind.js';
import { createJobs, type Jobs } from '../jobs/workers.js';
import { PermissionError, UsageError, UserError } from '../model/errors.js';
import { stripSentinels } from '../model/marks.js';
import type { View, ViewBlock } from '../model/view.js';
import { AccessControl } from '../policy/access.js';
import { plainMarkup, renderText } from '../render/text.js';
import { codeAsLiteral, revealInvisible, untrusted } from '../render/untrusted.js';
import { createSccClient, type SccClient } from '../scc/client.js';
import { SccApiError, SccError } from '../scc/errors.js';

/** Exit codes: distinct so scripts can tell a typo from a refusal from an SCC outage. */
export const EXIT = {
  ok: 0,
  /** A failure inside fwbot (the message says so). */
  internal: 1,
  /** Bad command, arguments or configuration. */
  usage: 2,
  /** SCC refused the token (401/403). */
  permission: 3,
  /** SCC answered with an error, or could not be reached. */
  scc: 4,
  /** A call that needs approval on Slack, without --yes: nothing was changed. */
  confirm: 5,
  /** Work the CLI followed to its end did not succeed (an access rule NOT verified): it says why. */
  followed: 6,
} as const;

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface CliOptions {
  env: Environment;
  io: CliIo;
  /** Where logs go (JSON lines); default stderr at LOG_LEVEL, or `warn` when it is unset. */
  log?: Logger;
  /**
   * Prompts on a terminal (secrets without echo), opened only when a command needs its form; absent
   * when stdin is not a terminal (then a form's fields must come as flags, a secret from stdin).
   */
  prompter?: () => Prompter & { close(): void };
  /** All of stdin, for `--<field>-stdin` (a secret piped in, never on the command line). */
  readStdin?: () => Promise<string>;
  /** Another key prefix in the bot's Redis than the bot's default (tests share one server). */
  redisPrefix?: string;
  /** The look at devices' certificates (default: a TLS handshake to each device's own address; tests: the simulator's). */
  certificates?: CertificateProbe;
  /** How long the CLI waits between reads of work it follows itself (default: the kind's schedule; tests: less). */
  followDelayMs?: number;
}

interface CliFlags {
  json: boolean;
  yes: boolean;
  help: boolean;
  profile: string | undefined;
  /** Secret form fields to read from stdin (`--api-token-stdin` → `api-token`). */
  stdin: string[];
  words: string[];
}

const USAGE = `usage: fwbot [--json] [--yes] [--profile NAME] [--FIELD-stdin] <command> [arguments]

Runs one fwbot command against SCC (the same commands as /fw in Slack) and prints the result.
  --json           print SCC's answer as JSON instead of the text view
  --yes, -y        run a call that needs approval on Slack (without it, fwbot says what it would do and stops)
  --profile NAME   use another SCC profile than \`default\` (FWBOT_PROFILES)
  --FIELD-stdin    read a secret field from stdin, e.g. \`fwbot tenants add --api-token-stdin < token.txt\`
  --help, -h       this text and the list of commands; after a command, that command's help

Every form field is also a flag (\`fwbot interfaces edit asa-hq-01 inside --mtu 9000\`). A command that
opens a form on Slack asks its fields here when stdin is a terminal (secrets are not echoed).

Configuration: SCC_API_TOKEN with SCC_REGION or SCC_BASE_URL, or FWBOT_PROFILES (see docs/operating/configuration.md).
Exit codes: 0 ok · 1 internal error · 2 usage or configuration · 3 SCC refused the token ·
            4 SCC error or unreachable · 5 a call that needs approval, without --yes ·
            6 work followed to its end did not succeed (an access rule not verified, an upgrade failed or not proven)`;

/** Our own flags anywhere before `--`; everything else is the command, passed on to the grammar. */
export function parseCliArgs(argv: readonly string[]): CliFlags {
  const flags: CliFlags = { json: false, yes: false, help: false, profile: undefined, stdin: [], words: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const stdinField = /^--([a-z][a-z0-9-]*)-stdin$/.exec(arg)?.[1];
    if (stdinField !== undefined) flags.stdin.push(stdinField);
    else if (arg === '--json') flags.json = true;
    else if (arg === '--yes' || arg === '-y') flags.yes = true;
    else if (arg === '--help' || arg === '-h') flags.help = true;
    else if (arg.startsWith('--profile=')) flags.profile = arg.slice('--profile='.length);
    else if (arg === '--profile') {
      flags.profile = argv[i + 1];
      i += 1;
      if (flags.profile === undefined) throw new UserError('--profile needs a profile name.');
    } else flags.words.push(arg);
  }
  return flags;
}

/** What the terminal can use of a view: links stay (as text), buttons that only Slack can press go. */
export function terminalView(view: View): View {
  const blocks: ViewBlock[] = [];
  for (const block of view.blocks) {
    if (block.kind !== 'actions') {
      blocks.push(block);
      continue;
    }
    for (const button of block.buttons) {
      if (button.url) blocks.push({ kind: 'context', text: `${button.label}: ${button.url}` });
    }
  }
  return { ...view, blocks };
}

function exitCodeOf(error: unknown): number {
  if (error instanceof PermissionError) return EXIT.permission;
  if (error instanceof FormAbandoned) return EXIT.usage;
  const scc = error instanceof SccUserError ? error.cause : error;
  if (scc instanceof SccApiError && (scc.status === 401 || scc.status === 403)) return EXIT.permission;
  if (error instanceof SccUserError || error instanceof SccError) return EXIT.scc;
  if (error instanceof UserError) return EXIT.usage;
  return EXIT.internal;
}

function messageOf(error: unknown): string {
  if (error instanceof UsageError) return `${error.message}${error.usage ? `\nusage: ${error.usage}` : ''}`;
  if (error instanceof UserError) return terminalText(error.message);
  if (error instanceof FormAbandoned) return `Nothing was done: ${error.message}.`;
  if (error instanceof SccError) return error.userMessage();
  return `fwbot failed: ${error instanceof Error ? error.message : String(error)}`;
}

function pickProfile(config: Config, wanted: string | undefined): string {
  if (wanted !== undefined) {
    if (config.profiles.has(wanted)) return wanted;
    throw new UserError(
      `There is no SCC profile named ${wanted}. Profiles: ${[...config.profiles.keys()].join(', ')}.`,
    );
  }
  if (config.profiles.has('default')) return 'default';
  const [only, ...others] = config.profiles.keys();
  if (only !== undefined && others.length === 0) return only;
  throw new UserError(`Choose a profile with --profile: ${[...config.profiles.keys()].join(', ')}.`);
}

function clientFor(config: Config, profile: string, log: Logger): SccClient {
  const settings = config.profiles.get(profile);
  if (!settings) throw new UserError(`There is no SCC profile named ${profile}.`);
  return createSccClient({
    baseUrl: settings.baseUrl,
    token: settings.token.reveal(),
    profile,
    timeouts: { defaultMs: config.scc.timeoutMs },
    ...(settings.lacks ? { lacks: settings.lacks } : {}),
    logger: log.child({ component: 'scc', profile }),
  });
}

/**
 * What SCC still does after the command returned (on Slack, a thread reports its end; here nothing does).
 * A staged change is not such work: it waits on the ASA until a deploy, and its view already says so in
 * the words Slack uses (render/changes.ts stagedNote: staged, not on the device, what a deploy would push,
 * `fwbot changes <asa>`).
 */
/**
 * Followed work the CLI follows itself, in the foreground, to its end: an access request's verification, and
 * a software upgrade's runs (then the proof after each, which the bot's workers would run as timed work).
 */
const FOLLOWED_HERE: ReadonlySet<string> = new Set([
  'access-verify',
  'deviceUpgradeRun',
  'mspDeviceUpgradeRun',
]);

/** The timed work a followed end hands on that the CLI runs itself, right there: the proof after an upgrade. */
const LATER_HERE = timedRegistry(
  TIMED_KINDS.filter((k) => k.kind === 'upgrade-proof' || k.kind === 'msp-upgrade-proof'),
);

function describeFollowUp(track: readonly TrackRequest[]): string | undefined {
  // An access request's deploy is followed here, by its verification, which waits for it.
  const verifying = track.some((t) => FOLLOWED_HERE.has(t.kind));
  const working = track.filter(
    (t) => t.kind !== 'staged' && !FOLLOWED_HERE.has(t.kind) && !(verifying && t.kind === 'deployment'),
  );
  if (working.length === 0) return undefined;
  const what = working.map((t) => t.label).join('; ');
  return `SCC goes on working on it (${what}); the CLI does not follow it, so nothing more is reported here.`;
}

/**
 * Follows work to its end in the foreground, as the bot's tracking worker would (one step at a time, on the
 * kind's schedule), and prints how each ended: an access request's verification, run by the CLI since its
 * thread is this terminal. The device holds the work kept end with it. False when any did not succeed.
 */
async function followHere(
  track: readonly TrackRequest[],
  deps: {
    profile: string;
    scc: SccClient;
    services: OperationServices;
    options: CliOptions;
    log: Logger;
    /** An operation's context on the profile, for the work an end hands on (the proof's reads). */
    context: () => OperationContext;
  },
): Promise<boolean> {
  const { io } = deps.options;
  let succeeded = true;
  for (const request of track) {
    const kind = kindOf(request.kind);
    io.stderr(`Following ${request.label} until it ends…`);
    const started = Date.now();
    let delay = kind.poll.firstDelayMs;
    let state: CommonState = { step: 0, failures: 0, startedAt: started, legStartedAt: started };
    let outcome: FollowOutcome | undefined;
    while (outcome === undefined) {
      const step = await kind.step(
        {
          profile: deps.profile,
          client: deps.scc,
          clientOf: () => deps.scc,
          resolveTenantProfile: async () => undefined,
          now: Date.now(),
        },
        request,
        state,
      );
      if (step.kind === 'end') {
        outcome = step.outcome;
        break;
      }
      state = { ...step.state, step: state.step + 1 };
      if (Date.now() - started > kind.poll.deadlineMs) {
        outcome = { status: 'failed', text: `fwbot stopped following ${request.label}: it took too long.` };
        break;
      }
      const wait = deps.options.followDelayMs ?? step.delayMs ?? delay;
      delay = Math.min(delay * kind.poll.factor, kind.poll.capMs);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    io.stdout(terminalText(plainMarkup(outcome.text)));
    if (outcome.status !== 'succeeded') succeeded = false;
    await releaseHeld(request, deps);
    for (const later of kind.later?.(request, outcome) ?? [])
      if (!(await runLaterHere(later, deps))) succeeded = false;
  }
  return succeeded;
}

/**
 * What a followed end hands on, run here as the bot's timed work would run it (the proof after an upgrade,
 * after its delay): what it says is printed. False when it says something differs or was not proven.
 */
async function runLaterHere(
  later: LaterWork,
  deps: {
    profile: string;
    scc: SccClient;
    options: CliOptions;
    log: Logger;
    context: () => OperationContext;
  },
): Promise<boolean> {
  const { io } = deps.options;
  const kind = LATER_HERE.get(later.kind);
  if (!kind) {
    io.stderr(`fwbot would then run ${later.kind}, which the CLI does not: nothing more is reported here.`);
    return true;
  }
  const payload = kind.payload.parse(later.payload);
  const what = kind.describe(payload);
  io.stderr(`Then ${what}…`);
  await new Promise((resolve) => setTimeout(resolve, deps.options.followDelayMs ?? later.delayMs));
  const now = Date.now();
  const said: string[] = [];
  const outcome = await kind.run(
    {
      item: {
        id: `${kind.kind}~${deps.profile}~${kind.id(payload)}`,
        kind: kind.kind,
        profile: deps.profile,
        key: kind.id(payload),
        owner: 'cli',
        dueAt: now,
        attempt: 1,
        round: 0,
      },
      op: deps.context(),
      clientOf: () => deps.scc,
      profiles: () => [deps.profile],
      now: () => Date.now(),
      log: deps.log,
      say: async (_key, message) => {
        const text = typeof message === 'string' ? terminalText(plainMarkup(message)) : printable(message);
        said.push(text);
        io.stdout(text);
      },
      sayDirectly: async () => {},
      rolesLost: async () => undefined,
      committing: async () => {},
      audit: async () => {},
    },
    payload,
  );
  if (said.length === 0) io.stdout(`${what}: ${outcome.summary}`);
  // The proof's summary names what differs, was not upgraded or could not be proven.
  return (
    outcome.status === 'done' && !/differs|not upgraded|not proven|nothing to prove/.test(outcome.summary)
  );
}

/** The holds the followed work kept: its own devices' (or its holder's), released at its end. */
async function releaseHeld(
  request: TrackRequest,
  deps: { profile: string; services: OperationServices; log: Logger },
): Promise<void> {
  const holder = holderOf(request);
  const holds = deps.services.holds;
  if (!holder || !holds) return;
  try {
    const devices = heldDevicesOf(request);
    if (devices === undefined) await holds.release(holder);
    else for (const uid of devices) await holds.forceRelease(deps.profile, uid, holder);
  } catch (error) {
    deps.log.warn({ err: error, holder }, 'device holds not released; they lapse at their end');
  }
}

/** Hints written for Slack name its slash command (`/fw changes …`); on the terminal the command is fwbot. */
export function terminalText(text: string): string {
  return text.replace(/`\/fw(?=[ `])/g, '`fwbot');
}

/** A view as the terminal prints it. */
function printable(view: View): string {
  return terminalText(renderText(terminalView(view)).trimEnd());
}

/**
 * The CLI's dispatcher: the same one as Slack's, for one person with their own SCC token. That person holds
 * every role on the chosen profile; there is nobody else to approve, so a governed call says what it
 * would do and runs only with --yes. Secrets are shown on the terminal at once (nothing is stored).
 */
function cliDispatcher(
  user: string,
  profile: string,
  scc: SccClient,
  catalogue: Catalogue,
  config: Config,
  services: OperationServices,
  log: Logger,
) {
  const everything = { viewer: [user], operator: [user], approver: [user], admin: [user] };
  const access = new AccessControl({
    policy: { workspace: everything, channels: new Map() },
    // A channel an operation names (`alerts subscribe … C0…`) uses the profile the bot gives it.
    channels: new Map([...config.channelBindings, [CLI_CHANNEL, { profile }]]),
    profiles: [...config.profiles.keys()],
  });
  return new Dispatcher({
    access,
    scc: { names: () => [profile], get: () => scc },
    lookup: (id) => catalogue.get(id),
    // The policy file's rules hold here too: without approvers, four-eyes means "only with --yes".
    governance: governanceOf(catalogue.operations, config.approvals.operations),
    reveals: new MemoryRevealGrants(),
    // Tickets are asked for here as in Slack: the CLI's changes belong to the change process too.
    policy: {
      changes: config.changes,
      deviceOutput: config.deviceOutput,
      response: config.response,
      accessRequests: config.accessRequests,
      upgrades: config.upgrades,
    },
    services,
    log,
  });
}

/**
 * The Redis-backed services the CLI can serve over the bot's Redis (when it is configured): the alerts,
 * the configuration snapshots the bot keeps around deploys, its scheduled runs (listed; a cancel is
 * refused, since only the requester or an approver, known by their Slack ids, may cancel one), and its
 * timed work: what the CLI schedules there (a shun's end) the bot's workers run when it is due; the device
 * holds (an access request holds its ASA there, as the bot's requests do, so neither's changes ride in the
 * other's deploy) and the records of the access rules fwbot created.
 */
const CLI_SERVICES = ['alerts', 'snapshots', 'scheduled', 'timed', 'holds', 'accessRecords'] as const;

/** Whether the environment names the bot's Redis (REDIS_URL has a default the CLI must not guess from). */
function namesRedis(env: Environment): boolean {
  return ['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES'].some((name) => env[name]?.trim());
}

const CLI_CHANNEL = 'cli';

/** What the command line asked for, and how its arguments arrive (typed, piped secrets, or a form). */
interface CliCall {
  op: Operation;
  raw: RawArgs;
  text: string;
  /** Ask the operation's form on the terminal before running (the command gave nothing it needs). */
  form: boolean;
  /** Some arguments came another way than the command line (stdin, the form): a `form` entry. */
  viaForm: boolean;
}

async function runCommand(
  catalogue: Catalogue,
  call: CliCall,
  flags: CliFlags,
  options: CliOptions,
  config: Config,
): Promise<number> {
  const { op, text } = call;
  let { raw } = call;
  const { io } = options;
  const requestId = randomBytes(6).toString('hex');
  const log = (
    options.log ?? createLogger(options.env.LOG_LEVEL ? config.logLevel : 'warn', process.stderr)
  ).child({
    requestId,
    surface: 'cli',
    operationId: op.id,
  });
  const profile = pickProfile(config, flags.profile);
  const scc = clientFor(config, profile, log);
  const user = `cli:${userInfo().username}`;
  // In no channel: CLI_CHANNEL only says where its roles and profile are looked up.
  const actor = { userId: user, channelId: CLI_CHANNEL, noChannel: true } as const;
  const request: RequestContext = { requestId, actor, log };
  // Only a command that needs them, or a call that uses them (an upgrade's --at), opens the bot's Redis
  // (same deployment and key prefix as the bot); such a call without one named runs without (or is refused).
  const jobs: Jobs | undefined =
    op.needs.length > 0 || (op.uses(raw).length > 0 && namesRedis(options.env))
      ? createJobs({
          redisUrl: config.redis,
          ...(options.redisPrefix === undefined ? {} : { prefix: options.redisPrefix }),
          logger: log.child({ component: 'jobs' }),
          snapshotRetentionDays: config.changes.snapshotRetentionDays,
        })
      : undefined;
  const held = op.needs.includes('scheduled')
    ? readScheduledRuns({
        redis: config.redis,
        prefix: options.redisPrefix,
        lookup: (id) => catalogue.get(id),
      })
    : undefined;
  // The look at a device's certificate needs no Redis: the CLI shows it before `--yes` as the bot's card does.
  const services: OperationServices = {
    certificates: options.certificates ?? createCertificateProbe(),
    ...(jobs
      ? {
          alerts: jobs.alerts,
          snapshots: jobs.snapshots,
          timed: jobs.timed,
          holds: jobs.holds,
          accessRecords: jobs.accessRecords,
        }
      : {}),
    ...(held ? { scheduled: held.scheduled } : {}),
  };
  const dispatcher = cliDispatcher(user, profile, scc, catalogue, config, services, log);
  try {
    if (call.form) {
      const prompter = options.prompter?.();
      if (!prompter) throw new Error('a form needs a terminal'); // runCli checked there is one
      try {
        raw = await fillForm(prompter, op, dispatcher.context(request, profile), raw);
      } finally {
        prompter.close();
      }
    }
    const entry = call.form || call.viaForm ? 'form' : 'command';
    const result = await dispatcher.dispatch(
      { op, raw, commandText: `fwbot ${text}`, entry, confirmed: flags.yes },
      request,
    );
    if (result.kind === 'confirm') {
      const { description } = result;
      // As the approval card shows it (values from SCC or typed as typed, render/untrusted.ts), made plain.
      io.stderr(`Not done: this would ${plainMarkup(codeAsLiteral(description.action))}.`);
      for (const field of description.fields)
        io.stderr(`  ${plainMarkup(untrusted(field.label))}: ${plainMarkup(untrusted(field.value))}`);
      for (const warning of description.warnings)
        io.stderr(`  ${plainMarkup(warning.replace(/^:\w+: /, 'Warning: '))}`);
      if (description.code)
        io.stderr(revealInvisible(description.code, { keepLines: true }).text.replace(/^/gm, '    '));
      for (const note of description.notes ?? []) io.stderr(`  ${plainMarkup(note)}`);
      io.stderr('Run it again with --yes to do it.');
      return EXIT.confirm;
    }
    let outcome: Outcome;
    let secretView: View | undefined;
    if (result.kind === 'outcome') {
      // A governed secret (four-eyes, confirmed with --yes) ran at once: its secret came with the outcome.
      ({ secretView, ...outcome } = result.outcome);
    } else if (result.kind === 'reveal') {
      // The one person at the terminal is the requester: the grant is used at once, by them.
      const revealed = await dispatcher.reveal(result.grantId, request);
      outcome = revealed.outcome;
      secretView = revealed.secretView;
    } else throw new Error(`the CLI cannot deliver a ${result.kind} result`);
    if (flags.json) {
      io.stdout(`${JSON.stringify(outcome.result ?? null, null, 2)}`);
    } else if (secretView) {
      // The secret once, on the terminal of the person holding the SCC token, then what a channel would
      // have learnt (that it was shown once, privately), which is true by then. Never logged.
      io.stdout(printable(secretView));
      io.stdout(`\n${printable(outcome.view)}`);
    } else {
      io.stdout(printable(outcome.view));
    }
    const followUp = describeFollowUp(outcome.track);
    if (followUp) io.stderr(followUp);
    const here = outcome.track.filter((t) => FOLLOWED_HERE.has(t.kind));
    if (here.length > 0) {
      const context = () => dispatcher.context(request, profile);
      const ended = await followHere(here, { profile, scc, services, options, log, context });
      if (!ended) return EXIT.followed;
    }
    return EXIT.ok;
  } finally {
    await scc.close();
    await jobs?.close();
    await held?.close();
  }
}

/** Runs the CLI; resolves with the exit code (main.ts sets it on the process). */
export async function runCli(argv: readonly string[], options: CliOptions): Promise<number> {
  const { io } = options;
  // The commands that read the bot's Redis are the bot's (audit, watches), except the alerts and the
  // configuration snapshots, which the CLI serves over that Redis when the configuration names it.
  const catalogue = createCatalogue({ command: 'fwbot', services: CLI_SERVICES });
  try {
    // Where the command line enters: fwbot's mark characters go (render/mrkdwn.ts), as from Slack and the console.
    const flags = parseCliArgs(argv.map(stripSentinels));
    if (flags.help && flags.words.length > 0) {
      // `fwbot interfaces edit --help`: that command's help, its flags in the usage line.
      io.stdout(renderText(terminalView(catalogue.help(flags.words.join(' ')))).trimEnd());
      return EXIT.ok;
    }
    if (flags.help || flags.words.length === 0) {
      io.stdout(`${USAGE}\n\n${renderText(terminalView(catalogue.help())).trimEnd()}`);
      return flags.help ? EXIT.ok : EXIT.usage;
    }
    const text = flags.words.map(quoteToken).join(' ');
    const call = await argumentsOf(catalogue, text, flags, options);
    if (call.op.needs.length > 0 && !namesRedis(options.env)) {
      io.stderr(
        `\`fwbot ${call.op.words.join(' ')}\` needs the Redis the bot uses: set REDIS_URL (or REDIS_SENTINELS or REDIS_CLUSTER_NODES) as the bot has it.`,
      );
      return EXIT.usage;
    }
    let config: Config;
    try {
      config = loadConfig(options.env, { require: { scc: true } });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      io.stderr(`fwbot cannot run: the configuration has problems.\n${error.message}`);
      return EXIT.usage;
    }
    return await runCommand(catalogue, call, flags, options, config);
  } catch (error) {
    io.stderr(messageOf(error));
    return exitCodeOf(error);
  }
}

/** A form's fields that are never typed on a command line (a tenant's API token). */
function secretFields(op: Operation): ModalField[] {
  const fields = op.modal?.fields;
  return Array.isArray(fields) ? fields.filter((field: ModalField) => field.input === 'secret') : [];
}

/**
 * The command's arguments, checked before any configuration is read: from argv, plus the secrets piped
 * in with `--<field>-stdin`. A command that would open its form asks it when there is a terminal;
 * otherwise what is missing is a usage error that names the flags (and how to pipe a secret).
 */
async function argumentsOf(
  catalogue: Catalogue,
  text: string,
  flags: CliFlags,
  options: CliOptions,
): Promise<CliCall> {
  const parsed = catalogue.parse(text);
  const { op } = parsed;
  const raw: RawArgs = { ...parsed.raw };
  const secrets = secretFields(op);
  for (const name of flags.stdin) {
    if (!secrets.some((field) => field.name === name)) {
      const known = secrets.map((field) => `--${field.name}-stdin`);
      const hint = known.length > 0 ? ` It reads ${known.join(', ')}.` : ' It reads no secret from stdin.';
      throw new UsageError(
        op.id,
        [{ arg: undefined, message: `unknown flag --${name}-stdin.${hint}` }],
        catalogue.usage(op),
      );
    }
    raw[name] = await readSecret(options, name);
  }
  const piped = flags.stdin.length > 0;
  if (parsed.modal && !piped && options.prompter) return { op, raw, text, form: true, viaForm: true };
  const issues = op.validate(raw);
  if (issues.length > 0) {
    const ways = secrets.filter((field) => raw[field.name] === undefined);
    const notes = ways.map((field) => ({
      arg: field.name,
      message: `is never typed on the command line: pipe it with --${field.name}-stdin, or run fwbot on a terminal to be asked for it (not echoed).`,
    }));
    throw new UsageError(op.id, [...issues, ...notes], catalogue.usage(op));
  }
  return { op, raw, text, form: false, viaForm: piped };
}

/** The first line of stdin: a secret piped in (`< token.txt`, `pass show … |`), never echoed. */
async function readSecret(options: CliOptions, name: string): Promise<string> {
  if (!options.readStdin) throw new UserError(`--${name}-stdin: there is no stdin to read.`);
  const value = (await options.readStdin()).split(/\r?\n/)[0]?.trim() ?? '';
  if (value === '') throw new UserError(`--${name}-stdin: stdin held nothing.`);
  return value;
}
