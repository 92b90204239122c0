// Seeded incident-response world: the remote-access VPN sessions on the portal tenant's headends (ASAs and
// FTDs whose deviceRoles say RA_VPN_HEADEND) and the VPN users' MFA events. One user (eve.kowalski) is
// signed in twice from abroad after denied second factors: what a responder looks at before acting. UIDs
// derive from their parts (stableUid) and values from a PRNG of their own, so the rest of the seeded world
// (and its UIDs, which goldens hold) is the same as without them.
import { SeededRandom, stableUid } from '../random.js';
import type { DeviceRecord, MfaEventRecord, SimState } from './model.js';
import { DEVICE_NAMES } from './seedInventory.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A headend of remote-access VPN sessions, as SCC's device roles say. */
export const isRaVpnHeadend = (record: DeviceRecord): boolean =>
  (record.device.deviceRoles ?? []).some((role) => role.endsWith('RA_VPN_HEADEND'));

interface Place {
  city: string;
  subdivision: string;
  country: string;
  /** Public addresses of that place (documentation ranges). */
  network: string;
}

const PLACES: Record<string, Place> = {
  paris: { city: 'Paris', subdivision: 'Île-de-France', country: 'France', network: '198.51.100.' },
  lyon: { city: 'Lyon', subdivision: 'Auvergne-Rhône-Alpes', country: 'France', network: '198.51.100.' },
  berlin: { city: 'Berlin', subdivision: 'Berlin', country: 'Germany', network: '203.0.113.' },
  austin: { city: 'Austin', subdivision: 'Texas', country: 'United States', network: '192.0.2.' },
  lagos: { city: 'Lagos', subdivision: 'Lagos', country: 'Nigeria', network: '203.0.113.' },
};

interface SessionPlan {
  user: string;
  device: string;
  place: keyof typeof PLACES;
  host: number;
  os: [string, string];
  /** How long before the world's start the user signed in. */
  loggedInAgo: number;
}

const USERS = {
  alice: 'alice.martin@acme.example',
  bob: 'bob.chen@acme.example',
  carla: 'carla.diaz@acme.example',
  dmitri: 'dmitri.ivanov@acme.example',
  eve: 'eve.kowalski@acme.example',
  farid: 'farid.haddad@acme.example',
} as const;

/** The seeded VPN users, by first name. */
export const VPN_USERS = USERS;

const SESSIONS: readonly SessionPlan[] = [
  {
    user: USERS.alice,
    device: DEVICE_NAMES.asaHq,
    place: 'paris',
    host: 24,
    os: ['windows', '11'],
    loggedInAgo: 3 * HOUR + 12 * MINUTE,
  },
  {
    user: USERS.bob,
    device: DEVICE_NAMES.asaHq,
    place: 'austin',
    host: 87,
    os: ['mac-intel', '14.5'],
    loggedInAgo: 47 * MINUTE,
  },
  {
    user: USERS.carla,
    device: DEVICE_NAMES.asaBranch,
    place: 'lyon',
    host: 140,
    os: ['windows', '10'],
    loggedInAgo: 6 * HOUR + 5 * MINUTE,
  },
  {
    user: USERS.dmitri,
    device: DEVICE_NAMES.ftdEdge1,
    place: 'berlin',
    host: 33,
    os: ['linux-64', '6.8'],
    loggedInAgo: 2 * HOUR + 30 * MINUTE,
  },
  {
    user: USERS.eve,
    device: DEVICE_NAMES.asaHq,
    place: 'lagos',
    host: 201,
    os: ['windows', '10'],
    loggedInAgo: 18 * MINUTE,
  },
  {
    user: USERS.eve,
    device: DEVICE_NAMES.ftdEdge1,
    place: 'lagos',
    host: 202,
    os: ['windows', '10'],
    loggedInAgo: 9 * MINUTE,
  },
  {
    user: USERS.farid,
    device: DEVICE_NAMES.ftdEdge2,
    place: 'paris',
    host: 61,
    os: ['apple-ios', '17.5'],
    loggedInAgo: 25 * MINUTE,
  },
];

interface MfaPlan {
  user: string;
  place: keyof typeof PLACES;
  host: number;
  ago: number;
  result: 'GRANTED' | 'DENIED';
  reason: string;
  secondFactor: string;
}

const MFA: readonly MfaPlan[] = [
  {
    user: USERS.alice,
    place: 'paris',
    host: 24,
    ago: 3 * HOUR + 13 * MINUTE,
    result: 'GRANTED',
    reason: 'user_approved',
    secondFactor: 'duo_push',
  },
  {
    user: USERS.bob,
    place: 'austin',
    host: 87,
    ago: 48 * MINUTE,
    result: 'GRANTED',
    reason: 'valid_passcode',
    secondFactor: 'sms_passcode',
  },
  {
    user: USERS.carla,
    place: 'lyon',
    host: 140,
    ago: 6 * HOUR + 6 * MINUTE,
    result: 'GRANTED',
    reason: 'user_approved',
    secondFactor: 'duo_push',
  },
  {
    user: USERS.dmitri,
    place: 'berlin',
    host: 33,
    ago: 2 * HOUR + 31 * MINUTE,
    result: 'GRANTED',
    reason: 'valid_passcode',
    secondFactor: 'hardware_token',
  },
  {
    user: USERS.eve,
    place: 'paris',
    host: 12,
    ago: 26 * HOUR,
    result: 'GRANTED',
    reason: 'user_approved',
    secondFactor: 'duo_push',
  },
  {
    user: USERS.eve,
    place: 'lagos',
    host: 201,
    ago: 31 * MINUTE,
    result: 'DENIED',
    reason: 'user_marked_fraud',
    secondFactor: 'duo_push',
  },
  {
    user: USERS.eve,
    place: 'lagos',
    host: 201,
    ago: 24 * MINUTE,
    result: 'DENIED',
    reason: 'invalid_passcode',
    secondFactor: 'sms_passcode',
  },
  {
    user: USERS.eve,
    place: 'lagos',
    host: 201,
    ago: 19 * MINUTE,
    result: 'GRANTED',
    reason: 'valid_passcode',
    secondFactor: 'sms_passcode',
  },
  {
    user: USERS.eve,
    place: 'lagos',
    host: 202,
    ago: 10 * MINUTE,
    result: 'GRANTED',
    reason: 'valid_passcode',
    secondFactor: 'sms_passcode',
  },
  {
    user: USERS.farid,
    place: 'paris',
    host: 61,
    ago: 26 * MINUTE,
    result: 'GRANTED',
    reason: 'user_approved',
    secondFactor: 'duo_push',
  },
];

const BROWSERS: Record<string, [string, string]> = {
  windows: ['Edge', '125.0.2535.67'],
  'mac-intel': ['Safari', '17.5'],
  'linux-64': ['Firefox', '126.0'],
  'apple-ios': ['Safari', '17.5'],
};

const location = (place: Place) => ({
  city: place.city,
  subdivision: place.subdivision,
  country: place.country,
});

/** The sessions and MFA events of the seed's portal tenant (nothing when its headends are not there). */
export function seedResponse(state: SimState): void {
  const rng = new SeededRandom(`response:${state.seed}`);
  const byName = new Map(
    [...state.devices.values()]
      .filter((d) => d.tenantUid === state.portalUid && isRaVpnHeadend(d))
      .map((d) => [d.device.name, d]),
  );
  for (const [i, plan] of SESSIONS.entries()) {
    const device = byName.get(plan.device);
    const place = PLACES[plan.place];
    if (device === undefined || place === undefined) continue;
    const uid = stableUid('ra-vpn-session', state.seed, String(i));
    const loginTime = state.startTime - plan.loggedInAgo;
    state.raVpnSessions.set(uid, {
      uid,
      tenantUid: state.portalUid,
      deviceUid: device.device.uid,
      username: plan.user,
      publicIp: `${place.network}${plan.host}`,
      assignedIpV4: `172.16.${10 + (i % 4)}.${20 + i}`,
      loginTime,
      lastActiveTime: state.startTime - rng.int(1, 120) * 1000,
      bytesRx: rng.int(200_000, 90_000_000),
      bytesTx: rng.int(100_000, 40_000_000),
      status: 'ACTIVE',
      location: location(place),
      os: { type: plan.os[0], version: plan.os[1] },
      auditSessionId: `0a640515${rng.hex(16)}`,
    });
  }
  const events: MfaEventRecord[] = [];
  for (const [i, plan] of MFA.entries()) {
    const place = PLACES[plan.place];
    if (place === undefined) continue;
    const os = SESSIONS.find((s) => s.user === plan.user)?.os ?? ['windows', '11'];
    const browser = BROWSERS[os[0]] ?? ['Chrome', '125.0.6422.142'];
    events.push({
      uid: stableUid('mfa-event', state.seed, String(i)),
      tenantUid: state.portalUid,
      username: plan.user,
      timestamp: state.startTime - plan.ago,
      result: plan.result,
      reason: plan.reason,
      secondFactor: plan.secondFactor,
      application: 'Acme Remote Access VPN',
      clientDevice: {
        uid: stableUid('mfa-client', plan.user, `${place.network}${plan.host}`),
        ipAddress: `${place.network}${plan.host}`,
        location: location(place),
        os: { type: os[0], version: os[1] },
        browser: { name: browser[0], version: browser[1] },
      },
    });
  }
  state.mfaEvents.push(...events.sort((a, b) => a.timestamp - b.timestamp));
}
