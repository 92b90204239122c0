// Slack's pace per channel, shared by every worker process through Redis: a call into a channel reserves
// the next free slot or learns how long to wait. Redis's own clock decides, so workers on hosts whose
// clocks differ still agree.
import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';

// Returns 0 and books the slot when it is free, else the milliseconds until it is.
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nextAt = tonumber(redis.call('GET', KEYS[1]) or '0')
if nextAt > now then return nextAt - now end
local interval = tonumber(ARGV[1])
if interval > 0 then redis.call('SET', KEYS[1], now + interval, 'PX', interval + 1000) end
return 0`;

// Pushes the next free slot to now + ARGV[1] unless it is already later (after a 429).
const HOLD_OFF = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ = now + tonumber(ARGV[1])
local nextAt = tonumber(redis.call('GET', KEYS[1]) or '0')
if until_ > nextAt then redis.call('SET', KEYS[1], until_, 'PX', tonumber(ARGV[1]) + 1000) end
return 0`;

export class SlackPace {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  /** 0 when the call may go now (the slot is booked), else how many ms to wait. */
  async reserve(method: string, channelId: string, intervalMs: number): Promise<number> {
    const wait = await this.redis.eval(
      RESERVE,
      1,
      this.keys.slackPace(method, channelId),
      String(intervalMs),
    );
    return Number(wait);
  }

  async holdOff(method: string, channelId: string, delayMs: number): Promise<void> {
    await this.redis.eval(HOLD_OFF, 1, this.keys.slackPace(method, channelId), String(Math.ceil(delayMs)));
  }
}
