// What fwbot keeps of each workspace that installed it (OAuth mode), in Redis: Bolt's InstallationStore
// (written by the install callback, read by Bolt's authorize on every request) and the InstallationTokens
// port the Slack clients read (src/slackApi/installationTokens.ts). A workspace's install is keyed by its
// team id; an Enterprise Grid org-wide install by its organization's id. Every record is encrypted at
// rest with AES-256-GCM under FWBOT_INSTALL_KEY, with its key name as additional data, so a dump of Redis
// holds no token and a record moved under another workspace's key does not decrypt. Removing a record
// (uninstall, revoked tokens) is announced on a Redis channel, so every fwbot process drops what it
// cached for that workspace.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { RedisClient } from '../redis/connection.js';
import { RedisKeys } from '../redis/keys.js';
import type {
  InstallationRemoved,
  InstallationTokens,
  WorkspaceRef,
} from '../slackApi/installationTokens.js';
import type { InstalledIdentity } from './installationBinding.js';

/** AES-256 keys are 32 bytes. */
export const INSTALL_KEY_BYTES = 32;
const IV_BYTES = 12;
const RECORD_VERSION = 1;

/** The stored form: nothing in it is readable without the key. */
const SealedRecord = z.object({
  v: z.literal(RECORD_VERSION),
  iv: z.string(),
  tag: z.string(),
  data: z.string(),
});

/** What the Redis channel of removals carries: which install went, and which process said so. */
const RemovedMessage = z.object({
  from: z.string(),
  teamId: z.string().optional(),
  enterpriseId: z.string().optional(),
});

/** A workspace's install (by team id), or an organization's org-wide install (by enterprise id). */
export type InstallationKey = { kind: 'team'; teamId: string } | { kind: 'enterprise'; enterpriseId: string };

export interface RedisInstallationsOptions {
  redis: RedisClient;
  /** The deployment's key prefix, e.g. `fwbot`. */
  prefix: string;
  /** FWBOT_INSTALL_KEY: 32 bytes. */
  key: Buffer;
  log: Logger;
  /**
   * A connection of its own for the removals channel (a subscribed connection can do nothing else). Made on
   * the first onRemoved(); without it, removals are heard only from this process.
   */
  subscriber?: () => RedisClient;
}

function keyOfQuery(
  query: Pick<InstallationQuery<boolean>, 'teamId' | 'enterpriseId' | 'isEnterpriseInstall'>,
) {
  if (query.isEnterpriseInstall) {
    if (query.enterpriseId === undefined)
      throw new Error('an org-wide install query without an enterprise id');
    return { kind: 'enterprise', enterpriseId: query.enterpriseId } as const;
  }
  if (query.teamId === undefined) throw new Error('an installation query without a team id');
  return { kind: 'team', teamId: query.teamId } as const;
}

function keyOfInstallation(installation: Installation): InstallationKey {
  return keyOfQuery({
    teamId: installation.team?.id,
    enterpriseId: installation.enterprise?.id,
    isEnterpriseInstall: installation.isEnterpriseInstall === true,
  });
}

export class RedisInstallations implements InstallationStore, InstallationTokens {
  readonly #redis: RedisClient;
  readonly #keys: RedisKeys;
  readonly #key: Buffer;
  readonly #log: Logger;
  readonly #subscriber: (() => RedisClient) | undefined;
  readonly #listeners = new Set<InstallationRemoved>();
  /** Tells this process's own announcements from other processes'. */
  readonly #self = randomBytes(8).toString('hex');
  #subscribed: RedisClient | undefined;

  constructor(options: RedisInstallationsOptions) {
    if (options.key.length !== INSTALL_KEY_BYTES)
      throw new Error(`the installation key must be ${INSTALL_KEY_BYTES} bytes`);
    this.#redis = options.redis;
    this.#keys = new RedisKeys(options.prefix);
    this.#key = options.key;
    this.#log = options.log;
    this.#subscriber = options.subscriber;
  }

  /** The Redis key of an install; exported for tests that read Redis raw. */
  redisKey(key: InstallationKey): string {
    return this.#keys.slackInstallation(key);
  }

  get #channel(): string {
    return this.#keys.slackInstallationsRemoved();
  }

  async storeInstallation(installation: Installation): Promise<void> {
    const key = keyOfInstallation(installation);
    const name = this.redisKey(key);
    await this.#redis.set(name, this.#seal(name, JSON.stringify(installation)));
    this.#log.info({ installation: key }, 'stored a Slack installation');
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation> {
    const found = await this.#read(keyOfQuery(query));
    // Bolt's authorize turns this into "no listener runs": a workspace fwbot is not installed in.
    if (found === undefined) throw new Error('fwbot is not installed in this workspace');
    return found;
  }

  /**
   * Who the installation a request is served by is (the workspace binding's InstallationOf): found as
   * fetchInstallation finds it; undefined when there is none, or the query names none.
   */
  async identity(query: {
    teamId?: string | undefined;
    enterpriseId?: string | undefined;
    orgWide: boolean;
  }): Promise<InstalledIdentity | undefined> {
    let key: InstallationKey;
    try {
      key = keyOfQuery({
        teamId: query.teamId,
        enterpriseId: query.enterpriseId,
        isEnterpriseInstall: query.orgWide,
      });
    } catch {
      return undefined;
    }
    const found = await this.#read(key);
    if (found === undefined) return undefined;
    return {
      teamId: found.team?.id,
      enterpriseId: found.enterprise?.id,
      orgWide: found.isEnterpriseInstall === true,
    };
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    await this.remove(keyOfQuery(query));
  }

  /** Drops an install and tells every process; true when there was one. */
  async remove(key: InstallationKey): Promise<boolean> {
    const removed = (await this.#redis.del(this.redisKey(key))) > 0;
    const ref: WorkspaceRef =
      key.kind === 'team' ? { teamId: key.teamId } : { enterpriseId: key.enterpriseId };
    this.#notify(ref);
    await this.#redis.publish(this.#channel, JSON.stringify({ from: this.#self, ...ref }));
    this.#log.info({ installation: key, removed }, 'removed a Slack installation');
    return removed;
  }

  /**
   * Forgets the user token of an install, keeping its bot token (tokens_revoked for people only). fwbot
   * asks for no user scope, so this is there for installs that carried one anyway.
   */
  async forgetUserToken(key: InstallationKey): Promise<void> {
    const found = await this.#read(key);
    if (found?.user.token === undefined) return;
    const { token: _token, refreshToken: _refresh, expiresAt: _expires, ...user } = found.user;
    await this.storeInstallation({ ...found, user: { ...user, token: undefined } });
  }

  async botToken(team: WorkspaceRef): Promise<string | undefined> {
    if (team.teamId !== undefined) {
      const own = await this.#read({ kind: 'team', teamId: team.teamId });
      if (own?.bot?.token !== undefined) return own.bot.token;
    }
    if (team.enterpriseId !== undefined) {
      const org = await this.#read({ kind: 'enterprise', enterpriseId: team.enterpriseId });
      if (org?.bot?.token !== undefined) return org.bot.token;
    }
    return undefined;
  }

  onRemoved(listener: InstallationRemoved): () => void {
    this.#listeners.add(listener);
    this.#subscribe();
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Closes the removals channel's connection, if one was made. */
  async close(): Promise<void> {
    const subscribed = this.#subscribed;
    this.#subscribed = undefined;
    if (subscribed) await subscribed.quit().catch(() => undefined);
  }

  #subscribe(): void {
    if (this.#subscribed !== undefined || this.#subscriber === undefined) return;
    const connection = this.#subscriber();
    this.#subscribed = connection;
    connection.on('message', (channel: string, message: string) => {
      if (channel !== this.#channel) return;
      const parsed = RemovedMessage.safeParse(safeJson(message));
      if (!parsed.success || parsed.data.from === this.#self) return;
      const { from: _from, ...ref } = parsed.data;
      this.#notify(ref);
    });
    connection.subscribe(this.#channel).catch((error: unknown) => {
      this.#log.error({ err: error }, 'cannot hear of Slack uninstalls made through other fwbot processes');
    });
  }

  #notify(removed: WorkspaceRef): void {
    for (const listener of this.#listeners) {
      try {
        listener(removed);
      } catch (error) {
        this.#log.error({ err: error }, 'a listener of Slack uninstalls failed');
      }
    }
  }

  async #read(key: InstallationKey): Promise<Installation | undefined> {
    const name = this.redisKey(key);
    const stored = await this.#redis.get(name);
    if (stored === null) return undefined;
    // A record that does not open (another key, or tampered with) is no installation: say so, never its content.
    const opened = this.#open(name, stored);
    if (opened === undefined) {
      this.#log.error(
        { installation: key },
        'a stored Slack installation cannot be decrypted with FWBOT_INSTALL_KEY (another key, or altered); treated as not installed',
      );
      return undefined;
    }
    // The record is fwbot's own JSON of Bolt's Installation, authenticated by GCM: its shape is what was stored.
    return JSON.parse(opened) as Installation;
  }

  #seal(name: string, plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(name, 'utf8'));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return JSON.stringify({
      v: RECORD_VERSION,
      iv: iv.toString('base64'),
      tag: tag.toString('base64'),
      data: data.toString('base64'),
    });
  }

  #open(name: string, stored: string): string | undefined {
    const sealed = SealedRecord.safeParse(safeJson(stored));
    if (!sealed.success) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(sealed.data.iv, 'base64'));
      decipher.setAAD(Buffer.from(name, 'utf8'));
      decipher.setAuthTag(Buffer.from(sealed.data.tag, 'base64'));
      const data = Buffer.from(sealed.data.data, 'base64');
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
