// External selects in forms: devices, tenants and interfaces looked up as the user types, answered
// within Slack's 3 seconds (the answer is the ack), after the same permission check as everything else.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, newTriggerId, startHarness, USERS } from './support/harness.js';
import { type OpenedModal, suggestionPayload } from './support/modals.js';

interface OptionsAnswer {
  options: { text: { text: string }; value: string }[];
}

describe('select options', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ optionsDeadlineMs: 1000 });
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
  });

  async function form(text: string): Promise<OpenedModal> {
    const triggerId = newTriggerId();
    await h.command(text, { userId: USERS.operator, triggerId });
    return h.openedModal(triggerId);
  }

  async function suggest(modal: OpenedModal, kind: string, typed: string, userId: string = USERS.operator) {
    const started = Date.now();
    const http = await h.interact(suggestionPayload(modal, userId, `fw.select.${kind}`, `f.${kind}`, typed));
    expect(http.status).toBe(200);
    return { answer: http.json() as OptionsAnswer, ms: Date.now() - started };
  }

  it('offers tenants matching what is typed, by name or display name, valued by UUID', async () => {
    const modal = await form('tenants users add contoso-eu');
    const { answer } = await suggest(modal, 'tenant', 'europe');
    expect(answer.options).toEqual([
      {
        text: { type: 'plain_text', text: 'Contoso Europe (contoso-eu)', emoji: true },
        value: h.sim.tenantUid('contoso-eu'),
      },
    ]);
  });

  it('offers devices, and the whole list (≤ 100) before anything is typed', async () => {
    const modal = await form('tenants users add contoso-eu');
    const all = await suggest(modal, 'device', '');
    expect(all.answer.options.map((o) => o.text.text)).toContain('asa-hq-01 · ASA');
    expect(all.answer.options.length).toBeLessThanOrEqual(100);
    const some = await suggest(modal, 'device', 'ftd');
    expect(some.answer.options.map((o) => o.value)).toEqual(
      expect.arrayContaining([h.sim.deviceUid('ftd-edge-01'), h.sim.deviceUid('ftd-lab-03')]),
    );
    expect(some.answer.options.every((o) => o.text.text.startsWith('ftd-'))).toBe(true);
  });

  it('offers the interfaces of the form’s device', async () => {
    const modal = await form('interfaces edit asa-hq-01 inside');
    const { answer } = await suggest(modal, 'interface', 'gig');
    const labels = answer.options.map((o) => o.text.text);
    expect(labels).toContain('inside (GigabitEthernet1/2) · physical interface');
    expect(labels.every((label) => label.includes('GigabitEthernet'))).toBe(true);
  });

  it('answers within the deadline with no options when SCC is too slow', async () => {
    const modal = await form('tenants users add contoso-eu');
    h.sim.faults.add({ path: '^/v1/msp/', latencyMs: 2500 });
    const { answer, ms } = await suggest(modal, 'tenant', '');
    expect(answer.options).toEqual([]);
    expect(ms).toBeLessThan(2500);
    await h.waitForLog('passed its deadline');
  });

  it('offers nothing to someone without a role, and asks SCC nothing', async () => {
    const modal = await form('tenants users add contoso-eu');
    const restricted = await startHarness({
      policy: {
        workspace: { viewer: [USERS.viewer], operator: [], approver: [], admin: [] },
        channels: new Map(),
      },
    });
    try {
      const http = await restricted.interact(
        suggestionPayload(modal, USERS.outsider, 'fw.select.tenant', 'f.tenant', ''),
      );
      expect(http.json()).toEqual({ options: [] });
      expect(restricted.sim.requestLog.list()).toHaveLength(0);
    } finally {
      await restricted.stop();
    }
  });
});
