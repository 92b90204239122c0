// Kinds of timed work for the tests of the mechanism (src/jobs/timed/), declared like the product's
// (src/catalogue/timed/): one that changes SCC past its point of no return (creates a VLAN interface, which
// the simulator counts and keeps, so exactly-once is seen in SCC itself) and tells whether an interrupted run
// took effect; one that speaks, re-checks people and waits for change windows; one that comes round again;
// one that refuses. Free of vitest imports: the crash tests' child processes load it too.
import { z } from 'zod';
import {
  type AnyTimedKind,
  defineTimedKind,
  PersonToCheckSchema,
} from '../../../src/catalogue/timed/index.js';
import { UserError } from '../../../src/model/errors.js';
import type { SccClient } from '../../../src/scc/client.js';

async function vlanExists(scc: SccClient, deviceUid: string, vlanId: number): Promise<boolean> {
  const { data } = await scc.call('getAsaVlanInterfaces', {
    path: { deviceUid },
    query: { q: `vlanId:${vlanId}`, limit: '10' },
  });
  return (data.items ?? []).some((item) => item.vlanId === vlanId);
}

export const vlanKind = defineTimedKind({
  kind: 'test-vlan',
  payload: z.object({ deviceUid: z.string(), device: z.string(), vlanId: z.number().int() }),
  id: (payload) => `${payload.deviceUid}:${payload.vlanId}`,
  describe: (payload) => `VLAN ${payload.vlanId} on ${payload.device}`,
  devices: (payload) => [{ uid: payload.deviceUid, name: payload.device }],
  async run(ctx, payload) {
    await ctx.committing();
    await ctx.op.scc.call('createAsaVlanInterface', {
      path: { deviceUid: payload.deviceUid },
      body: { vlanId: payload.vlanId },
    });
    await ctx.say('created', `created VLAN ${payload.vlanId} on ${payload.device}`);
    return { status: 'done', summary: `VLAN ${payload.vlanId} created` };
  },
  interrupted: async (ctx, payload) =>
    (await vlanExists(ctx.op.scc, payload.deviceUid, payload.vlanId)) ? 'took-effect' : 'not-done',
});

const WindowSchema = z.object({
  timeZone: z.string(),
  open: z.array(z.object({ days: z.array(z.string()), from: z.string(), to: z.string() })),
});

export const noteKind = defineTimedKind({
  kind: 'test-note',
  payload: z.object({
    note: z.string(),
    people: z.array(PersonToCheckSchema).default([]),
    /** A policy window of one device it waits for, when given. */
    window: WindowSchema.optional(),
  }),
  id: (payload) => payload.note,
  describe: (payload) => `note ${payload.note}`,
  windows: async (_ctx, payload) =>
    payload.window ? [{ device: 'asa-hq-01', windows: [{ kind: 'policy', ...payload.window }] }] : [],
  async run(ctx, payload) {
    const lost = await ctx.rolesLost(payload.people);
    await ctx.say('note', lost ? `${payload.note}: ${lost}` : `${payload.note}: everyone still holds`);
    return { status: 'done', summary: lost ? `said, ${lost}` : 'said' };
  },
  interrupted: 'run-again',
});

export const periodicKind = defineTimedKind({
  kind: 'test-periodic',
  payload: z.object({ name: z.string(), everyMs: z.number().int().positive(), rounds: z.number().int() }),
  id: (payload) => payload.name,
  describe: (payload) => `periodic ${payload.name}`,
  async run(ctx, payload) {
    await ctx.say('round', `round ${ctx.item.round + 1} of ${payload.name}`);
    if (ctx.item.round + 1 >= payload.rounds) return { status: 'done', summary: 'last round' };
    return { status: 'again', at: ctx.now() + payload.everyMs, summary: `round ${ctx.item.round + 1} done` };
  },
  interrupted: 'run-again',
});

export const refusingKind = defineTimedKind({
  kind: 'test-refusing',
  payload: z.object({ name: z.string() }),
  id: (payload) => payload.name,
  describe: (payload) => `refusing ${payload.name}`,
  async run() {
    throw new UserError('the device said no.');
  },
  interrupted: 'run-again',
});

export const TEST_TIMED_KINDS = [vlanKind, noteKind, periodicKind, refusingKind] as unknown as AnyTimedKind[];
