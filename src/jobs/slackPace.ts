// Slack's pace per channel, shared by every worker process through Redis: a call into a channel reserves
// the next free slot or learns how long to wait. Redis's own clock decides, so workers on hosts whose
// clocks differ still agree.
import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';
import { runScript } from '../redis/scripts.js';

export class SlackPace {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  /** 0 when the call may go now (the slot is booked), else how many ms to wait. */
  async reserve(method: string, channelId: string, intervalMs: number): Promise<number> {
    const wait = await runScript(
      this.redis,
      'pace-reserve',
      [this.keys.slackPace(method, channelId)],
      [intervalMs],
    );
    return Number(wait);
  }

  async holdOff(method: string, channelId: string, delayMs: number): Promise<void> {
    await runScript(
      this.redis,
      'pace-hold-off',
      [this.keys.slackPace(method, channelId)],
      [Math.ceil(delayMs)],
    );
  }
}
