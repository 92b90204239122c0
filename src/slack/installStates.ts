// The state parameter of the OAuth install flow (/slack/install → Slack → /slack/oauth_redirect), kept in
// Redis instead of Bolt's default signed, self-contained value: a state is a random value fwbot issued,
// good for ten minutes and for ONE callback (read and deleted in one step), so a replayed or forged
// callback is refused in any fwbot process. Bolt also checks that the browser presenting it is the one
// it was given to (a cookie).
import { randomBytes } from 'node:crypto';
import type { InstallURLOptions, StateStore } from '@slack/bolt';
import { z } from 'zod';
import type { RedisClient } from '../redis/connection.js';
import { RedisKeys } from '../redis/keys.js';

/** How long an install may take between /slack/install and Slack's redirect back (Bolt's cookie lives as long). */
export const STATE_TTL_SECONDS = 600;

/** @slack/oauth's code for a state it cannot verify, so its failure handling treats ours the same. */
export const INVALID_STATE = 'slack_oauth_invalid_state';

export class InvalidInstallState extends Error {
  readonly code = INVALID_STATE;
  constructor() {
    super('the install state is not one fwbot issued, has expired, or was used already');
    this.name = 'InvalidInstallState';
  }
}

/** What an issued state stands for: the install URL's options (scopes, redirect URI, metadata). */
const StoredOptions = z
  .object({
    scopes: z.union([z.string(), z.array(z.string())]),
    teamId: z.string().optional(),
    redirectUri: z.string().optional(),
    userScopes: z.union([z.string(), z.array(z.string())]).optional(),
    metadata: z.string().optional(),
  })
  .strip();

/** States are base64url of 32 random bytes: anything else is refused before Redis is asked. */
const STATE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export class RedisInstallStates implements StateStore {
  readonly #redis: RedisClient;
  readonly #keys: RedisKeys;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#keys = new RedisKeys(prefix);
  }

  #key(state: string): string {
    return this.#keys.slackOAuthState(state);
  }

  async generateStateParam(installOptions: InstallURLOptions, _now: Date): Promise<string> {
    const state = randomBytes(32).toString('base64url');
    await this.#redis.set(this.#key(state), JSON.stringify(installOptions), 'EX', STATE_TTL_SECONDS);
    return state;
  }

  async verifyStateParam(_now: Date, state: string): Promise<InstallURLOptions> {
    if (!STATE_SHAPE.test(state)) throw new InvalidInstallState();
    // GETDEL: the first callback with this state takes it; a second one finds nothing.
    const stored = await this.#redis.getdel(this.#key(state));
    if (stored === null) throw new InvalidInstallState();
    const options = StoredOptions.safeParse(JSON.parse(stored));
    if (!options.success) throw new InvalidInstallState();
    return options.data;
  }
}
