// Permission refusals on Slack are commands too: `fwbot_commands_total{outcome="denied"}` counts them
// where the one check refuses (src/slack/run.ts), since a refused command never reaches the instrumented
// catalogue's execute(). Driven through Bolt with signed requests, wired as the bot wires it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics, type FwbotMetrics } from '../../src/observability/metrics.js';
import { type Harness, newTriggerId, startHarness, USERS } from '../slack/support/harness.js';

async function commandCount(metrics: FwbotMetrics, operation: string, outcome: string): Promise<number> {
  const counted = (await metrics.commands.get()).values.find(
    (v) => v.labels.operation === operation && v.labels.outcome === outcome,
  );
  return counted?.value ?? 0;
}

describe('denied commands on Slack', () => {
  let h: Harness;
  let metrics: FwbotMetrics;
  beforeAll(async () => {
    metrics = createMetrics({ processMetrics: false });
    h = await startHarness({ metrics });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('counts a change refused to a viewer as denied, once, and nothing else', async () => {
    const { responseUrl } = await h.command('tenants create acme-denied', { userId: USERS.viewer });
    await h.reply(responseUrl);
    expect(await commandCount(metrics, 'tenants.create', 'denied')).toBe(1);
    expect(await commandCount(metrics, 'tenants.create', 'ok')).toBe(0);
    expect(await metrics.text()).toContain(
      'fwbot_commands_total{operation="tenants.create",outcome="denied"} 1',
    );
  });

  it('counts a form refused to someone who may not use it', async () => {
    const { responseUrl } = await h.command('vpn upgrade', {
      userId: USERS.viewer,
      triggerId: newTriggerId(),
    });
    await h.reply(responseUrl);
    expect(await commandCount(metrics, 'vpn.upgrade', 'denied')).toBe(1);
    expect(h.slack.callsTo('views.open')).toHaveLength(0);
  });

  it('does not count a permitted command as denied', async () => {
    const { responseUrl } = await h.command('tenants list', { userId: USERS.viewer });
    await h.reply(responseUrl);
    expect(await commandCount(metrics, 'tenants.list', 'ok')).toBe(1);
    expect(await commandCount(metrics, 'tenants.list', 'denied')).toBe(0);
  });
});
