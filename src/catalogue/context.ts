// What a run of an operation is given (the dispatcher builds it: src/dispatch/context.ts): the profile's
// SCC client, who asks, the request's id and logger, the clock, and what the deployment gives operations,
// its Redis-backed services and its policy. Handlers never reach for globals, the machine's clock included.
import type { Logger } from 'pino';
import type {
  AccessRequestPolicy,
  ChangeSettings,
  DeviceOutputSettings,
  ResponseSettings,
  UpgradeSettings,
} from '../config/profilesFileSchema.js';
import type { Actor } from '../model/types.js';
import type { SccClient } from '../scc/client.js';
import type { OperationServices, PersonToCheck, ThreadPlace } from './services.js';

/** Everything an operation may use; handlers never reach for globals. */
export interface OperationContext {
  scc: SccClient;
  profile: string;
  actor: Actor;
  requestId: string;
  log: Logger;
  /**
   * The time now (ms since the epoch), from the one clock the approvals' executor and the queues also read:
   * whatever an operation decides or shows about time (a window open now, when `--at` is, when something
   * was staged) reads it here, so a driven test clock and a card never disagree.
   */
  now(): number;
  signal?: AbortSignal;
  /** Services behind Redis that a few operations need (watches, audit); absent where not running. */
  services?: OperationServices;
  /** What the deployment's policy file decides for some operations (absent: the defaults). */
  policy?: OperationPolicy;
  /** Who approved the call, when it runs after an approval. */
  approvedBy?: string;
  /**
   * The approval the call runs under (the approvals' executor sets it): its card's thread, where work the
   * call leaves for later speaks, and the grants that work re-checks when it runs (the requester's role,
   * each approver's side).
   */
  approval?: { thread?: ThreadPlace; people: readonly PersonToCheck[] };
  /** The change ticket the call is made under (`--ticket`, checked by the dispatcher against the policy). */
  ticket?: string;
  /**
   * The managed tenant the channel is scoped to, in a customer channel (the dispatcher sets it from the
   * channel's binding; `profile` is then that tenant's own): what the channel may be shown stays inside it.
   */
  channelTenant?: string;
}

/** Settings of the policy file that change what an operation does (src/approvals/settings.ts). */
export interface OperationPolicy {
  /** An approved interface deletion is deployed with it when nothing else is pending on the device. */
  deployWithChange?: boolean;
  /** The change process (the file's `changes`: tickets, windows, snapshot retention). */
  changes?: ChangeSettings;
  /** What is shown of devices' answers (the file's `device_output`; absent: serial numbers masked). */
  deviceOutput?: DeviceOutputSettings;
  /** The responder's fast path (the file's `response`; absent: the default, 4h). */
  response?: ResponseSettings;
  /** The access requests' risk policy and recertification (the file's `access`; absent: no rules). */
  accessRequests?: AccessRequestPolicy;
  /** What is checked after a software upgrade (the file's `upgrades`; absent: no smoke traces). */
  upgrades?: UpgradeSettings;
}
