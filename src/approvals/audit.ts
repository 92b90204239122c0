// The audit trail: one Redis stream entry per decision and execution (who, what, on what, when, outcome,
// transaction, and the change ticket and any break-glass reason of the request it belongs to), trimmed by
// age. Stream ids come from the injected clock, so retention is "older than N days" by the same time the
// records carry. Every text is redacted before it is written: command texts, break-glass reasons and SCC
// error messages are typed or echoed by people and systems that may paste a token.

import { z } from 'zod';
import type { AuditReader, AuditRecord } from '../catalogue/operation.js';
import { redactCommandText } from '../dispatch/commandSecrets.js';
import { AUDIT_ACTIONS, type AuditEntry } from '../dispatch/ports.js';
import type { RedisClient } from '../redis/connection.js';
import { RedisKeys } from '../redis/keys.js';
import { runScript } from '../redis/scripts.js';
import { mentionsAsText } from '../render/mrkdwn.js';
import { createRedactor, type Redact } from '../scc/redaction.js';
import type { ApprovalRequest } from './record.js';

export { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '../dispatch/ports.js';

const StoredAuditEntry = z.object({
  at: z.coerce.number().int(),
  actor: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  operationId: z.string(),
  target: z.string(),
  outcome: z.string(),
  approvalId: z.string().optional(),
  transactionUid: z.string().optional(),
  ticket: z.string().optional(),
  breakGlass: z.string().optional(),
});

const StreamEntries = z.array(z.tuple([z.string(), z.array(z.string())]));

/** Longer texts are cut: the audit trail says what happened, the thread has the detail. */
const MAX_FIELD = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What every audit record of one approval request carries, whoever writes it (the request, each approval,
 * a rejection, a cancel, the expiry, the hold, the execution): its id, its change ticket and its
 * break-glass reason, so that any one record read alone says under which ticket and whether outside the
 * change windows.
 */
export function requestTrail(
  request: ApprovalRequest,
): Pick<AuditEntry, 'approvalId' | 'ticket' | 'breakGlass'> {
  return {
    approvalId: request.id,
    ...(request.ticket ? { ticket: request.ticket } : {}),
    ...(request.breakGlass ? { breakGlass: request.breakGlass } : {}),
  };
}

export interface AuditTrailOptions {
  redis: RedisClient;
  prefix: string;
  retentionDays: number;
  clock: () => number;
  /** Known secret values (SCC and Slack tokens, signing secret) that must never be written. */
  secrets?: readonly string[];
  /** Told after each record is written (the App Homes refresh on approval changes). */
  onRecord?: (entry: AuditEntry) => void;
}

export class AuditTrail implements AuditReader {
  readonly #redis: RedisClient;
  readonly #key: string;
  readonly #retentionMs: number;
  readonly #clock: () => number;
  readonly #redact: Redact;
  readonly #onRecord: ((entry: AuditEntry) => void) | undefined;

  constructor(options: AuditTrailOptions) {
    this.#redis = options.redis;
    this.#key = new RedisKeys(options.prefix).audit();
    this.#retentionMs = options.retentionDays * DAY_MS;
    this.#clock = options.clock;
    this.#onRecord = options.onRecord;
    const known = createRedactor(options.secrets ?? []);
    this.#redact = (text) => redactCommandText(known(text));
  }

  get key(): string {
    return this.#key;
  }

  /**
   * Cleans a text for the trail (redacted, cut); exposed so the card and thread can show the same words.
   * A typed text keeps what was typed, marks included: the card shows it as typed (untrusted()).
   */
  clean(text: string): string {
    const redacted = this.#redact(text);
    return redacted.length > MAX_FIELD ? `${redacted.slice(0, MAX_FIELD - 1)}…` : redacted;
  }

  /**
   * A field as the trail keeps it: cleaned, with fwbot's own marks (a mention, a date for the reader's
   * zone) written as the words they stand for, since the trail is read outside Slack too.
   */
  #field(text: string): string {
    return this.clean(mentionsAsText(text));
  }

  async record(entry: AuditEntry): Promise<string> {
    const now = this.#clock();
    const fields: Record<string, string> = {
      at: String(now),
      actor: this.#field(entry.actor),
      action: entry.action,
      operationId: this.#field(entry.operationId),
      target: this.#field(entry.target),
      // Break-glass is said in the outcome too: it is the first thing a reviewer of the trail must see.
      outcome: this.#field(
        entry.breakGlass ? `${entry.outcome}; break-glass: ${entry.breakGlass}` : entry.outcome,
      ),
    };
    if (entry.approvalId) fields.approvalId = this.#field(entry.approvalId);
    if (entry.transactionUid) fields.transactionUid = this.#field(entry.transactionUid);
    if (entry.ticket) fields.ticket = this.#field(entry.ticket);
    if (entry.breakGlass) fields.breakGlass = this.#field(entry.breakGlass);
    const id = await runScript(
      this.#redis,
      'audit-append',
      [this.#key],
      [now, now - this.#retentionMs, ...Object.entries(fields).flat()],
    );
    this.#onRecord?.(entry);
    return z.string().parse(id);
  }

  /** Drops records older than the retention; also run by the sweeper, so a quiet stream ages too. */
  async trim(): Promise<number> {
    return this.#redis.xtrim(this.#key, 'MINID', this.#clock() - this.#retentionMs);
  }

  async latest(count: number): Promise<AuditRecord[]> {
    const entries = StreamEntries.parse(await this.#redis.xrevrange(this.#key, '+', '-', 'COUNT', count));
    return entries.map(([id, flat]) => {
      const fields: Record<string, string> = {};
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const name = flat[i];
        const value = flat[i + 1];
        if (name !== undefined && value !== undefined) fields[name] = value;
      }
      const stored = StoredAuditEntry.parse(fields);
      return {
        id,
        at: new Date(stored.at).toISOString(),
        actor: stored.actor,
        action: stored.action,
        operationId: stored.operationId,
        target: stored.target,
        outcome: stored.outcome,
        approvalId: stored.approvalId,
        transactionUid: stored.transactionUid,
        ...(stored.ticket ? { ticket: stored.ticket } : {}),
        ...(stored.breakGlass ? { breakGlass: stored.breakGlass } : {}),
      };
    });
  }
}
