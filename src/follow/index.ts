// The registry of followed work: the one list of kinds, and everything derived from it. An operation's
// `track()` returns TrackRequests; the tracking queue (src/jobs/) parses them with TrackRequestSchema,
// keys its jobs with followedId(), parses its jobs with parseTrackJob() and runs a kind's step through
// kindOf(); an approval keeps them with the same schema; the audit trail records sccIdOf(). Adding a kind
// is adding its file and its line below (docs/developing/add-a-follow-kind.md).
import { z } from 'zod';
import { accessVerify } from './accessVerify.js';
import { cdfmc } from './cdfmc.js';
import { deployment } from './deployment.js';
import { deviceUpgradeRun } from './deviceUpgradeRun.js';
import { gateway } from './gateway.js';
import {
  CommonState,
  type FollowKind,
  type FollowSettings,
  type PollSchedule,
  type RequestSchema,
} from './kind.js';
import { mspDeviceUpgradeRun } from './mspDeviceUpgradeRun.js';
import { mspUpgradeRun } from './mspUpgradeRun.js';
import { ruleVerify } from './ruleVerify.js';
import { staged } from './staged.js';
import { transaction } from './transaction.js';
import { upgradeRun } from './upgradeRun.js';

/** Every kind of followed work, in the order the docs list them. */
export const FOLLOW_KINDS = [
  transaction,
  cdfmc,
  gateway,
  upgradeRun,
  deployment,
  staged,
  mspUpgradeRun,
  deviceUpgradeRun,
  accessVerify,
  mspDeviceUpgradeRun,
  ruleVerify,
];

type Kind = (typeof FOLLOW_KINDS)[number];

/** What to follow when SCC answers 202: one of the kinds' requests. */
export type TrackRequest = z.infer<Kind['request']>;
export type TrackKind = TrackRequest['kind'];

/** A kind with its types erased, as the worker runs it (its request and state are parsed with its schemas). */
export type AnyFollowKind = FollowKind<RequestSchema, z.ZodObject>;

const KINDS = FOLLOW_KINDS as readonly AnyFollowKind[];

export const TRACK_KINDS = FOLLOW_KINDS.map((kind) => kind.kind) as [TrackKind, ...TrackKind[]];

export const TrackRequestSchema = z.discriminatedUnion(
  'kind',
  FOLLOW_KINDS.map((kind) => kind.request) as unknown as [Kind['request'], ...Kind['request'][]],
) as unknown as z.ZodType<TrackRequest>;

const byKind = new Map<string, AnyFollowKind>(KINDS.map((kind) => [kind.kind, kind]));

export function kindOf(name: string): AnyFollowKind {
  const kind = byKind.get(name);
  if (!kind) throw new Error(`no follow kind ${name}`);
  return kind;
}

/** What identifies a followed thing within its kind and profile: one tracking job per followed thing. */
export function followedId(request: TrackRequest): string {
  return kindOf(request.kind).id(request);
}

/** The SCC id a follow is about (a transaction or a gateway request), for the audit trail. */
export function sccIdOf(request: TrackRequest): string | undefined {
  return kindOf(request.kind).sccId(request);
}

/** How a thread names the followed thing when fwbot has to speak about following it. */
export function describeFollowed(request: TrackRequest): string {
  return kindOf(request.kind).describe(request);
}

/** The holder whose device holds end with the followed work, when its kind keeps some (a deploy's). */
export function holderOf(request: TrackRequest): string | undefined {
  return kindOf(request.kind).holder?.(request);
}

/** The devices whose holds end with the followed work; undefined: every hold of its holder. */
export function heldDevicesOf(request: TrackRequest): readonly string[] | undefined {
  return kindOf(request.kind).heldDevices?.(request);
}

/** The ids of the other followed things whose ends the holder's holds also wait for (same kind). */
export function holderSiblingsOf(request: TrackRequest): readonly string[] {
  return kindOf(request.kind).holderSiblings?.(request) ?? [];
}

/** Each kind's poll schedule, as it declares it. */
export function pollSchedules(): Record<TrackKind, PollSchedule> {
  return Object.fromEntries(KINDS.map((kind) => [kind.kind, kind.poll])) as Record<TrackKind, PollSchedule>;
}

/** The poll schedules that settings of the configuration give some kinds (the others keep theirs). */
export function configuredPollSchedules(settings: FollowSettings): Partial<Record<TrackKind, PollSchedule>> {
  return Object.fromEntries(
    KINDS.flatMap((kind) => (kind.configured ? [[kind.kind, kind.configured(settings)]] : [])),
  );
}

/** A tracking job as it is stored: the profile that follows it, the request, and its kind's state. */
export interface TrackJob {
  profile: string;
  request: TrackRequest;
  state: CommonState & Record<string, unknown>;
}

const JobEnvelope = z.object({ profile: z.string().min(1), request: TrackRequestSchema, state: z.unknown() });

/**
 * Parses a tracking job: its request with the kinds' schemas, then its state with its kind's (the common
 * fields and the kind's own, kept flat, as every version of fwbot stored them).
 */
export function parseTrackJob(
  data: unknown,
): { success: true; data: TrackJob } | { success: false; error: z.ZodError } {
  const envelope = JobEnvelope.safeParse(data);
  if (!envelope.success) return envelope;
  const state = CommonState.extend(kindOf(envelope.data.request.kind).state.shape).safeParse(
    envelope.data.state,
  );
  if (!state.success) return state;
  return { success: true, data: { ...envelope.data, state: state.data as TrackJob['state'] } };
}

export type {
  FollowSettings,
  LaterWork,
  StepContext,
  StepResult,
  TenantProfileResolver,
  Took,
} from './kind.js';
export { CommonState, Outcome, PollSchedule } from './kind.js';
