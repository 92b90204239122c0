// Remote-access VPN sessions and the users' MFA events, for a responder deciding whether to act: `/fw vpn
// sessions [query] [--user <name>] [--device <device>]`, `/fw vpn session <uid>`, `/fw vpn mfa <user>`, and
// the two calls that act on sessions: `/fw vpn refresh [device…]` (SCC reads the sessions from the
// headends again; changes nothing on a device) and `/fw vpn disconnect <user> [--device <device>]`, which
// ends a user's sessions and is governed with the responder's fast path, like a shun: an operator acts
// alone when the policy's `response.disconnect_alone` says so (the default), a second person approves
// otherwise, and every call is audited either way.
import { z } from 'zod';
import { defaultResponse } from '../config/sections/response.js';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import { code, counted } from '../render/format.js';
import { pageInfo } from '../render/list.js';
import { PAGE_SIZE } from '../render/paging.js';
import { untrusted } from '../render/untrusted.js';
import { renderMfaEvents, renderSession, renderSessionList } from '../render/vpnSessions.js';
import type { Device, RaVpnSession } from '../scc/generated/models.js';
import { deviceKind } from '../scc/kinds.js';
import { allOf, containing, exactLucene, fieldIs, toLucene } from '../scc/lucene.js';
import { list, offset, optionalText, text, uuid } from './args.js';
import { OFFSET, transactionTrack } from './common.js';
import { inventory } from './devices.js';
import { DeviceFacts, deviceFacts } from './deviceTarget.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';
import { type DeviceRequirement, resolveDevice, resolveDevices, type SccReader } from './resolve.js';

const HEADEND: DeviceRequirement = {
  kinds: ['asa', 'ftd'],
  why: 'remote-access VPN sessions end on ASAs and threat-defense devices (FTD) that are RA VPN headends',
};

/** A device SCC keeps remote-access VPN sessions of: its roles say it is a headend. */
const isHeadend = (device: Pick<Device, 'deviceRoles'>) =>
  (device.deviceRoles ?? []).some((role) => role.endsWith('RA_VPN_HEADEND'));

const DEVICE_FLAG = {
  name: 'device',
  kind: 'device' as const,
  flag: true,
  optional: true,
  description: 'only the sessions of this headend (name or UUID)',
};

/** The inventory's devices as facts by UID, for the sessions' headends (empty past the lookup budget). */
async function headendFacts(scc: SccReader): Promise<Map<string, DeviceFacts>> {
  const devices = (await inventory(scc)) ?? [];
  return new Map(
    devices.flatMap((d) =>
      d.uid ? [[d.uid, deviceFacts({ uid: d.uid, name: d.name, kind: deviceKind(d) })] as const] : [],
    ),
  );
}

/** Device names by UID, for the sessions' headends. */
async function deviceNames(scc: SccReader): Promise<Map<string, string>> {
  return new Map([...(await headendFacts(scc))].map(([uid, facts]) => [uid, facts.name]));
}

export const vpnSessions = defineOperation({
  id: 'vpn.sessions',
  words: ['vpn', 'sessions'],
  area: 'vpn',
  failure: 'Could not list the remote-access VPN sessions',
  summary: 'List remote-access VPN sessions: user, device, public address, location and how long',
  params: [
    {
      name: 'query',
      kind: 'query',
      optional: true,
      description: 'text in the user name or public address, or a Lucene query with field:value',
    },
    {
      name: 'user',
      kind: 'word',
      flag: true,
      optional: true,
      description: 'only this user’s sessions (part of the name)',
    },
    DEVICE_FLAG,
    OFFSET,
  ],
  args: z.object({ query: optionalText(), user: optionalText(), device: optionalText(), offset: offset() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getRaVpnSessions', 'getDevices'],
  examples: ['vpn sessions', 'vpn sessions --user eve.kowalski', 'vpn sessions 203.0.113 --device asa-hq-01'],
  run: async (ctx, args) => {
    const device = args.device ? await resolveDevice(ctx.scc, args.device, HEADEND) : undefined;
    const q = allOf(
      toLucene(args.query, ['username', 'publicIp']),
      args.user ? containing(args.user, 'username') : undefined,
      device ? fieldIs('deviceUid', device.uid) : undefined,
    );
    const query = { q, limit: PAGE_SIZE, offset: args.offset, sort: ['loginTime:DESC'] };
    const { data } = await ctx.scc.call('getRaVpnSessions', { query });
    const names = (data.items ?? []).length > 0 ? await deviceNames(ctx.scc) : new Map<string, string>();
    return { data, names, asked: { offset: args.offset, limit: PAGE_SIZE } };
  },
  render: ({ data, names, asked }, args, meta) => {
    const filter = [
      args.query,
      args.user ? `--user ${args.user}` : undefined,
      args.device ? `--device ${args.device}` : undefined,
    ]
      .filter(Boolean)
      .join(' ');
    return renderSessionList(
      {
        sessions: data.items ?? [],
        deviceNames: names,
        page: pageInfo(data, asked),
        filter: filter || undefined,
      },
      meta,
    );
  },
});

export const vpnSession = defineOperation({
  id: 'vpn.session',
  words: ['vpn', 'session'],
  area: 'vpn',
  failure: 'Could not show the remote-access VPN session',
  summary: 'Show one remote-access VPN session: addresses, times, traffic and client',
  params: [{ name: 'session', kind: 'uuid', description: 'UUID of the session (see `vpn sessions`)' }],
  args: z.object({ session: uuid() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getRaVpnSession', 'getDevice'],
  examples: ['vpn session 7131daad-e813-4b8f-8f42-be1e241e8cdb'],
  run: async (ctx, args) => {
    const { data: session } = await ctx.scc.call('getRaVpnSession', {
      path: { raVpnSessionUid: args.session },
    });
    let deviceName: string | undefined;
    try {
      deviceName = (await ctx.scc.call('getDevice', { path: { deviceUid: session.deviceUid } })).data.name;
    } catch {
      // The session outlived its device in the inventory: shown by the device's UID.
    }
    return { session, deviceName };
  },
  render: ({ session, deviceName }) => renderSession(session, deviceName),
});

export const vpnMfa = defineOperation({
  id: 'vpn.mfa',
  words: ['vpn', 'mfa'],
  area: 'vpn',
  failure: 'Could not list the MFA events',
  summary: 'Show a user’s MFA events, newest first: granted or denied, why, and from where',
  params: [{ name: 'user', kind: 'word', description: 'the user name, or part of it' }, OFFSET],
  args: z.object({ user: text(), offset: offset() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getMfaEvents'],
  examples: ['vpn mfa eve.kowalski', 'vpn mfa alice.martin@acme.example'],
  run: async (ctx, args) => {
    const asked = { offset: args.offset, limit: PAGE_SIZE };
    const query = { q: containing(args.user, 'username'), ...asked, sort: ['timestamp:DESC'] };
    return { data: (await ctx.scc.call('getMfaEvents', { query })).data, asked };
  },
  render: ({ data, asked }, args, meta) =>
    renderMfaEvents(args.user, data.items ?? [], pageInfo(data, asked), meta),
});

/** SCC refreshes up to this many headends per call here (its input has no limit; a page of the inventory). */
const MAX_REFRESH = 50;

export const vpnRefresh = defineOperation({
  id: 'vpn.refresh',
  words: ['vpn', 'refresh'],
  area: 'vpn',
  failure: 'Could not refresh the remote-access VPN sessions',
  summary: 'Ask SCC to read the remote-access VPN sessions from the headends again (all, or those given)',
  params: [
    {
      name: 'device',
      kind: 'device',
      variadic: true,
      optional: true,
      description: 'headend names or UUIDs (default: every headend)',
    },
  ],
  args: z.object({ device: list({ min: 0, max: MAX_REFRESH, what: 'devices' }) }),
  role: 'operator',
  approval: 'never',
  scc: ['refreshRaVpnSessionsByDevice', 'getDevices'],
  examples: ['vpn refresh', 'vpn refresh asa-hq-01 ftd-edge-01'],
  run: async (ctx, args) => {
    const named = await resolveDevices(ctx.scc, args.device, HEADEND);
    const notHeadends = named.filter((d) => !isHeadend(d.device));
    if (notHeadends.length > 0)
      throw new UserError(
        `${notHeadends.map((d) => d.name).join(', ')} ${notHeadends.length === 1 ? 'is' : 'are'} not a remote-access VPN headend: it has no sessions to refresh.`,
      );
    // Every headend when none is named: the devices whose roles say so (SCC's input needs at least one).
    const devices =
      args.device.length > 0
        ? named
        : ((await inventory(ctx.scc)) ?? [])
            .filter(isHeadend)
            .slice(0, MAX_REFRESH)
            .map((d) => ({ uid: d.uid ?? '', name: d.name }));
    if (devices.length === 0)
      throw new UserError('No device of the inventory is a remote-access VPN headend.');
    const body = { deviceUids: devices.map((d) => d.uid) };
    const { data } = await ctx.scc.call('refreshRaVpnSessionsByDevice', { body });
    return { devices, transaction: data, all: args.device.length === 0 };
  },
  render: ({ devices, transaction, all }, _args, meta) =>
    announcement(
      {
        sentence: `refresh the VPN sessions of ${all ? `every headend (${devices.map((d) => code(d.name)).join(', ')})` : devices.map((d) => code(d.name)).join(', ')}`,
        tense: 'asked',
        transaction,
        next: 'fwbot reports in this thread when SCC has read them; `/fw vpn sessions` then lists what it found.',
      },
      meta,
    ),
  track: ({ transaction }) => transactionTrack(transaction, 'refresh of the VPN sessions'),
});

// --- ending a user's sessions ---------------------------------------------------------------------------

const DisconnectFacts = z.object({
  username: z.string(),
  /** The headends where the user had active sessions when asked, with how many. */
  devices: z.array(DeviceFacts.extend({ sessions: z.number().int() })).min(1),
  /** The one headend asked for (`--device`), if any: then only its sessions are ended. */
  only: z.string().optional(),
});
type DisconnectFacts = z.infer<typeof DisconnectFacts>;

/** The user's active sessions (on one headend when given), by exact user name as SCC has it. */
async function activeSessions(
  ctx: OperationContext,
  username: string,
  deviceUid?: string,
): Promise<RaVpnSession[]> {
  const sessions: RaVpnSession[] = [];
  const q = allOf(
    exactLucene('username', username),
    'status:ACTIVE',
    deviceUid ? fieldIs('deviceUid', deviceUid) : undefined,
  );
  for await (const session of ctx.scc.paginate('getRaVpnSessions', { query: { q } })) sessions.push(session);
  return sessions;
}

/** The headends of `sessions`, with how many sessions each (a headend the inventory lacks is left out). */
function headendsOf(
  sessions: readonly RaVpnSession[],
  known: ReadonlyMap<string, DeviceFacts>,
): DisconnectFacts['devices'] {
  const counts = new Map<string, number>();
  for (const s of sessions) counts.set(s.deviceUid, (counts.get(s.deviceUid) ?? 0) + 1);
  return [...counts]
    .flatMap(([uid, sessions]) => {
      const facts = known.get(uid);
      return facts ? [{ ...facts, sessions }] : [];
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const vpnDisconnect = defineOperation({
  id: 'vpn.disconnect',
  words: ['vpn', 'disconnect'],
  area: 'vpn',
  failure: 'Could not end the user’s VPN sessions',
  summary: 'End a user’s remote-access VPN sessions, on every headend or one',
  params: [
    { name: 'user', kind: 'word', description: 'the user name exactly as `vpn sessions` shows it' },
    { ...DEVICE_FLAG, description: 'only on this headend (name or UUID)' },
  ],
  args: z.object({ user: text(), device: optionalText() }),
  role: 'operator',
  // Ending someone's access is a change to who may reach the network: governed, and audited on every call.
  // In an attack it must not wait, so the responder's fast path lets an operator do it alone when the
  // policy says so (`response.disconnect_alone`); otherwise a second person approves.
  approval: { default: 'four-eyes' },
  fastPath: {
    role: 'operator',
    which:
      'an operator ends a user’s sessions alone when `response.disconnect_alone` allows it (the default)',
    applies: (_args, policy) => (policy?.response ?? defaultResponse).disconnectAlone,
  },
  auditEveryCall: true,
  scc: ['getRaVpnSessions', 'getDevices', 'terminateRaVpnSessionsByDeviceAndUserName'],
  examples: [
    'vpn disconnect eve.kowalski@acme.example',
    'vpn disconnect eve.kowalski@acme.example --device asa-hq-01',
  ],
  target: {
    facts: DisconnectFacts,
    resolve: async (ctx, args) => {
      const device = args.device ? await resolveDevice(ctx.scc, args.device, HEADEND) : undefined;
      const sessions = await activeSessions(ctx, args.user, device?.uid);
      if (sessions.length === 0)
        throw new UserError(
          `${args.user} has no active VPN session${device ? ` on ${device.name}` : ''}: \`/fw vpn sessions --user ${args.user}\` finds the user name as SCC has it.`,
        );
      const known = device ? new Map([[device.uid, deviceFacts(device)]]) : await headendFacts(ctx.scc);
      const devices = headendsOf(sessions, known);
      if (devices.length === 0)
        throw new UserError(`The devices ${args.user}’s sessions end on are not in the inventory.`);
      return {
        facts: { username: args.user, devices, ...(device ? { only: device.uid } : {}) },
        raw: { user: args.user, ...(device ? { device: device.uid } : {}) },
      };
    },
    reread: async (ctx, facts) => {
      const sessions = await activeSessions(ctx, facts.username, facts.only);
      if (sessions.length === 0)
        return { found: false, reason: `${facts.username} has no active VPN session any more.` };
      const known = new Map(facts.devices.map((d) => [d.uid, deviceFacts(d)]));
      // A headend the user reached since is named from the inventory (by its UID if it is not there).
      if (sessions.some((s) => !known.has(s.deviceUid)))
        for (const [uid, device] of await headendFacts(ctx.scc)) if (!known.has(uid)) known.set(uid, device);
      for (const s of sessions)
        if (!known.has(s.deviceUid))
          known.set(s.deviceUid, deviceFacts({ uid: s.deviceUid, name: s.deviceUid, kind: 'asa' }));
      return { found: true, facts: { ...facts, devices: headendsOf(sessions, known) } };
    },
    compare: (before, after) => {
      const was = new Set(before.devices.map((d) => d.uid));
      return after.devices
        .filter((d) => !was.has(d.uid))
        .map((d) => `${before.username} now also has a session on ${d.name}, which was not approved.`);
    },
    describe: ({ username, devices }) => {
      const sessions = devices.reduce((n, d) => n + d.sessions, 0);
      return {
        action: `end ${counted(sessions, 'VPN session')} of ${code(username)} on ${devices.map((d) => code(d.name)).join(', ')}`,
        line: `VPN sessions of ${untrusted(username)} on ${devices.map((d) => untrusted(d.name)).join(', ')}`,
        fields: [
          { label: 'User', value: username },
          {
            label: 'Headends',
            value: devices.map((d) => `${d.name} (${counted(d.sessions, 'session')})`).join(', '),
          },
        ],
        warnings: [
          'Ending a session does not stop the user signing in again: look at `/fw vpn mfa` and the identity provider too.',
        ],
      };
    },
  },
  run: async (ctx, _args, { username, devices }) => {
    const transactions = [];
    for (const device of devices) {
      const path = { deviceUid: device.uid, userName: username };
      const { data } = await ctx.scc.call('terminateRaVpnSessionsByDeviceAndUserName', { path });
      transactions.push({ device, transaction: data });
    }
    return { username, transactions };
  },
  render: ({ username, transactions }, _args, meta) =>
    announcement(
      {
        sentence: `end the VPN sessions of *${untrusted(username)}* on ${transactions.map((t) => code(t.device.name)).join(', ')}`,
        tense: 'asked',
        ...(transactions.length === 1 ? { transaction: transactions[0]?.transaction } : {}),
        details:
          transactions.length > 1
            ? transactions.map((t) => [t.device.name, t.transaction.transactionUid])
            : [],
        next: 'fwbot reports in this thread when SCC has ended them.',
      },
      meta,
    ),
  track: ({ username, transactions }) =>
    transactions.flatMap((t) =>
      transactionTrack(t.transaction, `VPN sessions of ${username} on ${t.device.name}`),
    ),
});

const HeadendFacts = DeviceFacts.extend({ sessions: z.number().int() });

export const vpnDisconnectAll = defineOperation({
  id: 'vpn.disconnect-all',
  words: ['vpn', 'disconnect-all'],
  area: 'vpn',
  failure: 'Could not end the VPN sessions of the headend',
  summary: 'End every remote-access VPN session on one headend',
  params: [{ name: 'device', kind: 'device', description: 'the headend’s name or UUID' }],
  args: z.object({ device: text() }),
  role: 'operator',
  approval: { default: 'four-eyes' },
  auditEveryCall: true,
  scc: ['getDevices', 'getRaVpnSessions', 'terminateRaVpnSessionsByDevice'],
  examples: ['vpn disconnect-all ftd-edge-02'],
  target: {
    facts: HeadendFacts,
    resolve: async (ctx, args) => {
      const device = await resolveDevice(ctx.scc, args.device, HEADEND);
      const sessions = await activeOn(ctx, device.uid);
      if (sessions === 0) throw new UserError(`${device.name} has no active VPN session.`);
      return { facts: { ...deviceFacts(device), sessions }, raw: { device: device.uid } };
    },
    reread: async (ctx, facts) => {
      const sessions = await activeOn(ctx, facts.uid);
      return sessions === 0
        ? { found: false, reason: `${facts.name} has no active VPN session any more.` }
        : { found: true, facts: { ...facts, sessions } };
    },
    // More sessions than were approved are ended all the same: the approval was for the headend, all of it.
    compare: () => [],
    describe: (facts) => ({
      action: `end every VPN session on ${code(facts.name)} (${counted(facts.sessions, 'session')} now)`,
      line: `every VPN session on ${untrusted(facts.name)}`,
      fields: [
        { label: 'Headend', value: facts.name },
        { label: 'Active sessions', value: String(facts.sessions) },
      ],
      warnings: [':warning: Every remote user of this headend is cut off; they may sign in again at once.'],
    }),
  },
  run: async (ctx, _args, facts) => ({
    device: facts,
    transaction: (await ctx.scc.call('terminateRaVpnSessionsByDevice', { path: { deviceUid: facts.uid } }))
      .data,
  }),
  render: ({ device, transaction }, _args, meta) =>
    announcement(
      {
        sentence: `end every VPN session on ${code(device.name)}`,
        tense: 'asked',
        transaction,
        details: [['Active sessions when asked', device.sessions]],
        next: 'fwbot reports in this thread when SCC has ended them.',
      },
      meta,
    ),
  track: ({ device, transaction }) => transactionTrack(transaction, `every VPN session on ${device.name}`),
});

/** How many sessions are active on a headend (SCC's count of the query). */
async function activeOn(ctx: OperationContext, deviceUid: string): Promise<number> {
  const q = allOf(fieldIs('deviceUid', deviceUid), 'status:ACTIVE');
  const { data } = await ctx.scc.call('getRaVpnSessions', { query: { q, limit: 1 } });
  return data.count ?? data.items?.length ?? 0;
}

/** VPN sessions and MFA events, after Secure Client's operations in the vpn area (index.ts). */
export const VPN_SESSION_OPERATIONS: readonly Operation[] = [
  vpnSessions,
  vpnSession,
  vpnMfa,
  vpnRefresh,
  vpnDisconnect,
  vpnDisconnectAll,
];
