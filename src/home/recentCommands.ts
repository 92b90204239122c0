// Each person's last commands and how they ended, for the App Home: one small Redis list per person,
// written by the dispatcher (every surface goes through it) and cut to the last ten on every write. The
// text is redacted like the audit trail's, and the list expires after a quiet month.
import { z } from 'zod';
import { redactCommandText } from '../dispatch/commandSecrets.js';
import type { CommandHistory, CommandRecord } from '../dispatch/ports.js';
import { pushBounded, readBounded } from '../redis/boundedList.js';
import type { RedisClient } from '../redis/connection.js';
import { RedisKeys } from '../redis/keys.js';
import type { RecentCommand } from './model.js';

export const RECENT_COMMANDS = 10;
const KEPT = { max: RECENT_COMMANDS, ttlMs: 30 * 24 * 60 * 60 * 1000 };
const MAX_TEXT = 300;

const Stored = z.object({
  at: z.number(),
  text: z.string(),
  outcome: z.enum(['ran', 'approval', 'reveal', 'queued', 'confirm', 'refused', 'failed']),
  detail: z.string(),
});

export interface RecentCommandsOptions {
  redis: RedisClient;
  /** The deployment's key prefix, e.g. `fwbot`. */
  prefix: string;
  clock?: () => number;
  /** Cleans a text before it is kept (default: the command-text redaction the audit trail also applies). */
  clean?: (text: string) => string;
  /** Told after each write: that person's Home has changed. */
  changed?: (userId: string) => void;
}

export class RecentCommands implements CommandHistory {
  readonly #options: RecentCommandsOptions;

  constructor(options: RecentCommandsOptions) {
    this.#options = options;
  }

  key(userId: string): string {
    return new RedisKeys(this.#options.prefix).homeRecent(userId);
  }

  async note(record: CommandRecord): Promise<void> {
    const { redis, clock = Date.now, clean = redactCommandText, changed } = this.#options;
    const entry: RecentCommand = {
      at: clock(),
      text: clean(record.text).slice(0, MAX_TEXT),
      outcome: record.outcome,
      detail: clean(record.detail).slice(0, MAX_TEXT),
    };
    await pushBounded(redis, this.key(record.userId), entry, KEPT);
    changed?.(record.userId);
  }

  /** Newest first; an unreadable entry is skipped. */
  async of(userId: string): Promise<RecentCommand[]> {
    return readBounded(this.#options.redis, this.key(userId), Stored, KEPT);
  }
}
