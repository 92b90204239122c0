// `/sim …` in the demo's console: what happens outside fwbot, made to happen in the built-in simulator so
// that alerts can be seen without waiting for a real firewall to fail. Each word is one of the simulator's
// admin routes (docs/developing/simulator.md); the answer is one line. Only the demo has these: fwbot itself
// never calls the simulator's admin routes.
import { request } from 'undici';
import type { WorldControls } from '../console/runner.js';

const USAGE = [
  '/sim offline <device> [UNREACHABLE|BAD_CREDENTIALS|NEW_CERT_DETECTED]   the device stops answering SCC',
  '/sim online <device>                 it comes back',
  '/sim connector <name> stop|start     a Secure Device Connector stops (its devices become unreachable) or starts again',
  '/sim conflict <device>               someone changes the ASA on its console (SCC detects a conflict)',
  '/sim failover <device> [switch|fail-active|fail-standby|recover]   an HA pair fails over',
  '/sim cert <device> <days> [vpn]      its management (or Secure Client) certificate expires in <days>',
  '/sim stage <device> [user]           someone stages a change in SCC’s UI and does not deploy it',
  '/sim acl <device> access-list <name> [line <n>] extended …   someone adds an access-list line in SCC’s UI and deploys it',
  '/sim acl <device> remove <name> <line>   someone removes that line of an access list',
].join('\n');

const CONNECTIVITY = ['UNREACHABLE', 'BAD_CREDENTIALS', 'NEW_CERT_DETECTED', 'UNKNOWN', 'PENDING_SETUP'];
const FAILOVER = ['switch', 'fail-active', 'fail-standby', 'recover'];

class Refused extends Error {}

/** A device as typed: a name or uid, in the characters device names have (it goes into a URL path). */
function deviceOf(word: string | undefined): string {
  if (!word || !/^[A-Za-z0-9._:-]{1,128}$/.test(word))
    throw new Refused(`Which device? ${USAGE.split('\n')[0]}`);
  return encodeURIComponent(word);
}

export function simulatorControls(simUrl: string): WorldControls {
  const post = async (path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const answer = await request(`${simUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const data = (await answer.body.json().catch(() => ({}))) as Record<string, unknown>;
    if (answer.statusCode >= 400) {
      const message = typeof data.errorMsg === 'string' ? data.errorMsg : `HTTP ${answer.statusCode}`;
      throw new Refused(`The simulator refused: ${message}`);
    }
    return data;
  };

  return {
    usage: USAGE,
    async run(words) {
      const [what, first, second, third] = words;
      try {
        switch (what) {
          case 'offline': {
            const state = (second ?? 'UNREACHABLE').toUpperCase();
            if (!CONNECTIVITY.includes(state))
              return `A device goes offline as one of ${CONNECTIVITY.join(', ')}.`;
            await post(`/_sim/devices/${deviceOf(first)}/connectivity`, { connectivityState: state });
            return `${first} is ${state} in SCC now; fwbot's next scan tells the channels subscribed to connectivity.`;
          }
          case 'online':
            await post(`/_sim/devices/${deviceOf(first)}/connectivity`, { connectivityState: 'ONLINE' });
            return `${first} is ONLINE again; its incident closes with its duration at the next scan.`;
          case 'connector': {
            if (
              !first ||
              !/^[A-Za-z0-9._:-]{1,128}$/.test(first) ||
              (second !== 'stop' && second !== 'start')
            )
              return 'Which connector, and stop or start? e.g. /sim connector sdc-branch stop (/fw connectors lists them)';
            const status = second === 'stop' ? 'INACTIVE' : 'ACTIVE';
            const done = await post(`/_sim/connectors/${encodeURIComponent(first)}/status`, { status });
            const devices = Array.isArray(done.devices) ? done.devices.join(', ') : '';
            return second === 'stop'
              ? `${first} stopped: SCC marks it INACTIVE and ${devices} unreachable; the next scan tells one incident about the connector.`
              : `${first} is ACTIVE again and ${devices} as before; its incident closes at the next scan.`;
          }
          case 'conflict':
            await post(`/_sim/devices/${deviceOf(first)}/out-of-band`, {});
            return `${first} was changed on its console: SCC detects a conflict.`;
          case 'failover': {
            const action = second ?? 'switch';
            if (!FAILOVER.includes(action)) return `A failover is one of ${FAILOVER.join(', ')}.`;
            const done = await post(`/_sim/devices/${deviceOf(first)}/failover`, { action });
            return `${first}: ${String(done.asaFailoverState ?? action)}.`;
          }
          case 'cert': {
            const days = Number(second);
            if (!Number.isInteger(days) || Math.abs(days) > 3650)
              return 'How many days until it expires? e.g. /sim cert asa-hq-01 5';
            const field = third === 'vpn' ? 'raVpnCertificateExpiresInDays' : 'certificateExpiresInDays';
            await post(`/_sim/devices/${deviceOf(first)}/certificates`, { [field]: days });
            return `${first}'s ${third === 'vpn' ? 'Secure Client' : 'management'} certificate expires in ${days} days.`;
          }
          case 'stage': {
            const username = second && /^[A-Za-z0-9._@-]{1,64}$/.test(second) ? second : undefined;
            await post(`/_sim/devices/${deviceOf(first)}/stage`, username ? { username } : {});
            return `A change to ${first} is staged in SCC by ${username ?? 'admin@customer.example'}, not deployed.`;
          }
          case 'acl': {
            const device = deviceOf(first);
            const rest = words.slice(2);
            if (rest[0] === 'remove') {
              const line = Number(rest[2]);
              if (!rest[1] || !Number.isInteger(line) || line < 1)
                return 'Which line of which list? e.g. /sim acl asa-hq-01 remove outside_access_in 1';
              await post(`/_sim/devices/${device}/access-list/remove`, { acl: rest[1], line });
              return `Line ${line} of ${rest[1]} on ${first} is removed, as if in SCC’s UI and deployed; the change log records it.`;
            }
            const text = rest.join(' ');
            if (!text.startsWith('access-list ') || text.length > 512)
              return 'Which line? e.g. /sim acl asa-hq-01 access-list outside_access_in line 1 extended deny tcp host 198.51.100.7 object WEB-01 eq https';
            await post(`/_sim/devices/${device}/access-list`, { text });
            return `${first} has the line now, as if added in SCC’s UI and deployed: ${text}`;
          }
          default:
            return USAGE;
        }
      } catch (error) {
        if (error instanceof Refused) return error.message;
        throw error;
      }
    },
  };
}
