// Device holds: a device frozen or locked for a change in progress (a deploy running; later an access
// request from staging to verification, an upgrade). A hold names its holder (what kind of work, its id,
// who asked, where it speaks), why, since when and until when at the latest: a hold always lapses, so a
// holder that dies never freezes a device for ever. The kinds of holders are declared here once, each with
// what an approved call meeting its hold does (waits its turn, or is refused); the store is src/jobs/
// deviceHolds.ts (the DeviceHolds service), and where calls meet holds is src/dispatch/holds.ts, from the
// devices an operation declares it changes (OperationSpec.changes).
import { z } from 'zod';
import { code, time } from '../render/format.js';
import { userMention } from '../render/mrkdwn.js';
import { untrusted } from '../render/untrusted.js';

/** A kind of holder, declared once. */
export interface HoldKind {
  readonly kind: string;
  /** How a sentence names the holder: `a deploy`. */
  readonly noun: string;
  /**
   * What an approved call on a device it holds does right before it runs: `wait` (it is held back and tried
   * again until the hold ends: work that ends in minutes) or `refuse` (nothing runs; its thread says why).
   * A call asked for while the device is held is refused at once, whatever the kind.
   */
  readonly others: 'wait' | 'refuse';
  /** The longest a hold of this kind lasts unless renewed: its `until` when it is taken. */
  readonly maxMs: number;
}

const MINUTE = 60_000;

/** Every kind of holder (issue 36's access requests and issue 37's upgrades add theirs here). */
export const HOLD_KINDS = {
  /**
   * A deploy holds its devices from the moment its approved run is claimed until its deployment run ends,
   * so nothing staged meanwhile silently misses it or joins it unseen. It ends in minutes: others wait.
   * At the latest when following its run gives up (2 h), and a quarter of an hour more.
   */
  deploy: { kind: 'deploy', noun: 'a deploy', others: 'wait', maxMs: 135 * MINUTE },
  /**
   * A software upgrade holds its devices from the moment its approved run is claimed until its upgrade runs
   * end: SCC's advice is no configuration change during an upgrade, and it lasts up to an hour or more, so
   * others are refused rather than kept waiting. At the latest when following its runs gives up (12 h), and
   * a quarter of an hour more.
   */
  /**
   * An access request holds its device from the moment its approved run is claimed (it stages the rule)
   * until its rule is verified after the deploy: the per-device change lock, so two requests' changes never
   * go in one deploy and nothing else is staged between. Others wait their turn. At the latest when
   * following its verification gives up (2 h), and a quarter of an hour more.
   */
  access: { kind: 'access', noun: 'an access request', others: 'wait', maxMs: 135 * MINUTE },
  upgrade: { kind: 'upgrade', noun: 'a software upgrade', others: 'refuse', maxMs: 735 * MINUTE },
} as const satisfies Record<string, HoldKind>;

export type HoldKindName = keyof typeof HOLD_KINDS;

export function holdKindOf(kind: string): HoldKind | undefined {
  return (HOLD_KINDS as Record<string, HoldKind>)[kind];
}

/** A device a call changes, as operations name it. */
export interface HeldDevice {
  uid: string;
  name: string;
}

/** Who holds a device: the kind of work, its id (which its own later calls carry), who asked, where it speaks. */
export const Holder = z.object({
  kind: z.string().min(1),
  id: z.string().min(1),
  requesterId: z.string().min(1),
  /** The thread its work is told in (a card's, an announcement's), when there is one. */
  channelId: z.string().optional(),
  threadTs: z.string().optional(),
});
export type Holder = z.infer<typeof Holder>;

/** One device's hold, as the store keeps it and `/fw holds` lists it. */
export const DeviceHold = z.object({
  profile: z.string(),
  deviceUid: z.string(),
  device: z.string(),
  holder: Holder,
  /** Why, in a line: `deploy to asa-hq-01`. */
  reason: z.string(),
  since: z.number().int(),
  /** When it lapses unless its holder renews or releases it first. */
  until: z.number().int(),
});
export type DeviceHold = z.infer<typeof DeviceHold>;

/** A hold to take on devices: every one, or none. */
export interface HoldRequest {
  profile: string;
  devices: readonly HeldDevice[];
  holder: Holder;
  reason: string;
  until: number;
}

export type HoldTaken = { taken: true } | { taken: false; by: DeviceHold };

/**
 * Holds on devices, kept per profile (src/jobs/deviceHolds.ts) and met under any: a device's UUID is the same
 * from its tenant's profile and from the MSP portal's, so a hold taken from one stops calls from the other.
 * Taking is atomic over the devices asked for; a holder's own take is a renewal; only the holder releases its
 * holds, except an admin's forced release.
 */
export interface DeviceHolds {
  /** Every device held by this holder, or none: another holder's live hold wins, and is returned. */
  take(request: HoldRequest, now: number): Promise<HoldTaken>;
  /** The first live hold on these devices whose holder is not `except`, taken under any profile. */
  heldBy(
    profile: string,
    deviceUids: readonly string[],
    now: number,
    except?: string,
  ): Promise<DeviceHold | undefined>;
  /** Whether any live hold is on any profile (so a call, when none is, need not name its devices). */
  anyOn(profile: string, now: number): Promise<boolean>;
  /** Moves the end of every hold of this holder (renewing a long one, or shortening it). */
  extend(holderId: string, until: number): Promise<number>;
  /** Releases every hold of this holder, and only those: what it held. */
  release(holderId: string): Promise<DeviceHold[]>;
  /** An admin's release of one device's hold, only if it is still this holder's (the one they saw). */
  forceRelease(profile: string, deviceUid: string, holderId: string): Promise<DeviceHold | undefined>;
  /** Live holds, of one profile or every one, the oldest first. */
  list(now: number, profile?: string): Promise<DeviceHold[]>;
}

/** `a deploy (request ap-1f…, asked by @alice)`. */
export function holderWords(hold: DeviceHold): string {
  const kind = holdKindOf(hold.holder.kind);
  return `${kind?.noun ?? hold.holder.kind} (request ${code(hold.holder.id)}, asked by ${userMention(hold.holder.requesterId)})`;
}

/**
 * The one sentence a call meeting a hold is told: the device, the holder and why, since and until when.
 * `then` finishes it: what happens to the call.
 */
export function heldSentence(hold: DeviceHold, then: string): string {
  return `${untrusted(hold.device)} is held by ${holderWords(hold)} since ${time(new Date(hold.since).toISOString())}, until it ends (at the latest ${time(new Date(hold.until).toISOString())}): ${untrusted(hold.reason)}; ${then}`;
}
