// Device holds in Redis (the DeviceHolds service of src/catalogue/deviceHolds.ts): one hash per profile with
// four fields per held device (the hold as JSON, its holder's id, since, until), a set of the profiles with
// holds (and one of their hashes), and per holder the set of profiles it holds devices on. A device is held
// whatever profile holds it: its UUID is the same seen from its tenant's profile or from the MSP portal's, so
// an upgrade started from the portal freezes the device for the tenant's own deploys and access requests. Taking, releasing, extending and an admin's
// forced release are each one Lua step over the profile's hash, so of two takers exactly one wins and only
// a holder (or the admin who saw that holder) releases. Times are the caller's clock: a hold past its
// `until` is free to take, whether or not anyone cleared it.
import {
  type DeviceHold,
  DeviceHold as DeviceHoldSchema,
  type DeviceHolds,
  type HoldRequest,
  type HoldTaken,
} from '../catalogue/deviceHolds.js';
import { jsonValue } from '../model/json.js';
import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';
import { runScript } from '../redis/scripts.js';

/** A hold as its hash fields hold it; undefined when they do not parse. */
function holdOf(json: string | undefined, since: string | undefined, until: string | undefined) {
  const parsed = DeviceHoldSchema.safeParse({
    ...(jsonValue(json ?? '') as object),
    since: Number(since),
    until: Number(until),
  });
  return parsed.success ? parsed.data : undefined;
}

export class RedisDeviceHolds implements DeviceHolds {
  /** Whether the hashes of profiles holding devices before `holdHashes` existed are in it (once per process). */
  #hashesKnown = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  async take(request: HoldRequest, now: number): Promise<HoldTaken> {
    const { profile, holder, reason } = request;
    const args: (string | number)[] = [now, holder.id, profile, request.until];
    for (const device of request.devices)
      args.push(
        device.uid,
        JSON.stringify({ profile, deviceUid: device.uid, device: device.name, holder, reason }),
      );
    await this.#knowHashes();
    const reply = await runScript(
      this.redis,
      'holds-take',
      [
        this.keys.deviceHolds(profile),
        this.keys.holderProfiles(holder.id),
        this.keys.holdProfiles(),
        this.keys.holdHashes(),
      ],
      args,
    );
    const [status, uid] = Array.isArray(reply) ? reply.map(String) : [];
    if (status === 'taken') return { taken: true };
    const by = (await this.#everyHold()).find(
      (hold) => hold.deviceUid === uid && hold.holder.id !== holder.id,
    );
    if (!by) throw new Error(`a hold on ${uid} won, and is gone`);
    return { taken: false, by };
  }

  /** Under any profile: `profile` is the caller's, kept for the interface's sake. */
  async heldBy(_profile: string, deviceUids: readonly string[], now: number, except?: string) {
    const wanted = new Set(deviceUids);
    return (await this.#everyHold()).find(
      (hold) => wanted.has(hold.deviceUid) && hold.until > now && hold.holder.id !== except,
    );
  }

  /** Whether any live hold is on any profile: a device may be held from another profile than the caller's. */
  async anyOn(_profile: string, now: number): Promise<boolean> {
    return (await this.#everyHold()).some((hold) => hold.until > now);
  }

  async extend(holderId: string, until: number): Promise<number> {
    let count = 0;
    for (const profile of await this.redis.smembers(this.keys.holderProfiles(holderId)))
      count += Number(
        await runScript(this.redis, 'holds-extend', [this.keys.deviceHolds(profile)], [holderId, until]),
      );
    return count;
  }

  async release(holderId: string): Promise<DeviceHold[]> {
    const released: DeviceHold[] = [];
    const profiles = this.keys.holderProfiles(holderId);
    for (const profile of await this.redis.smembers(profiles)) {
      released.push(...(await this.#release(profile, holderId, '')));
      await this.redis.srem(profiles, profile);
    }
    return released;
  }

  async forceRelease(profile: string, deviceUid: string, holderId: string) {
    const [released] = await this.#release(profile, holderId, deviceUid);
    return released;
  }

  async list(now: number, profile?: string): Promise<DeviceHold[]> {
    const profiles = profile === undefined ? await this.redis.smembers(this.keys.holdProfiles()) : [profile];
    const holds: DeviceHold[] = [];
    for (const one of profiles) holds.push(...(await this.#holds(one)));
    return holds.filter((hold) => hold.until > now).sort((a, b) => a.since - b.since);
  }

  async #release(profile: string, holderId: string, uid: string): Promise<DeviceHold[]> {
    const reply = await runScript(
      this.redis,
      'holds-release',
      [this.keys.deviceHolds(profile)],
      [holderId, uid],
    );
    const fields = Array.isArray(reply) ? reply.map(String) : [];
    const released: DeviceHold[] = [];
    for (let i = 0; i + 2 < fields.length; i += 3) {
      const hold = holdOf(fields[i], fields[i + 1], fields[i + 2]);
      if (hold) released.push(hold);
    }
    return released;
  }

  /** Every profile's holds as stored, lapsed ones included. */
  async #everyHold(): Promise<DeviceHold[]> {
    const holds: DeviceHold[] = [];
    for (const profile of await this.redis.smembers(this.keys.holdProfiles()))
      holds.push(...(await this.#holds(profile)));
    return holds;
  }

  /** Holds taken before `holdHashes` was kept: their profiles' hashes join it, so a take sees them. */
  async #knowHashes(): Promise<void> {
    if (this.#hashesKnown) return;
    const profiles = await this.redis.smembers(this.keys.holdProfiles());
    if (profiles.length > 0)
      await this.redis.sadd(this.keys.holdHashes(), ...profiles.map((p) => this.keys.deviceHolds(p)));
    this.#hashesKnown = true;
  }

  /** Every hold of a profile as stored, lapsed ones included. */
  async #holds(profile: string): Promise<DeviceHold[]> {
    const hash = await this.redis.hgetall(this.keys.deviceHolds(profile));
    const holds: DeviceHold[] = [];
    for (const [field, json] of Object.entries(hash)) {
      if (!field.startsWith('d:')) continue;
      const uid = field.slice(2);
      const hold = holdOf(json, hash[`s:${uid}`], hash[`u:${uid}`]);
      if (hold) holds.push(hold);
    }
    return holds;
  }
}
