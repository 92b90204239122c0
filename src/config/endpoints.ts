// Where fwbot connects: SCC regions and their base URLs, the SCC profile (endpoint + token) a client is
// made from, and the rules for URLs given by hand (SCC base URL, Slack Web API URL, Redis URL). Plain
// http is allowed only to loopback addresses, because these connections carry bearer tokens.
import type { SccOperationId } from '../scc/operationTypes.js';
import { baseUrlForRegion, SCC_REGION_NAMES, type SccRegion } from '../scc/regions.js';
import { accept, type Checked, refuse } from './issues.js';
import type { Secret } from './secret.js';

// The region table belongs to the SCC client (src/scc/regions.ts); configuration only validates names.
export const sccRegions: readonly SccRegion[] = SCC_REGION_NAMES;
export type { SccRegion };
export const sccBaseUrlForRegion = baseUrlForRegion;

/** One SCC account fwbot can act on: where its API is and the token to use there. */
export interface SccProfile {
  readonly name: string;
  /** Without a trailing slash: paths are appended as `${baseUrl}/v1/…`. */
  readonly baseUrl: string;
  readonly token: Secret;
  /** The environment variable the token came from, to name it when SCC refuses the token. */
  readonly tokenVariable: string;
  /** Present when the base URL comes from the region (absent when a base URL was given). */
  readonly region?: SccRegion;
  /** `env`: the `default` profile from SCC_API_TOKEN; `file`: a profile of the FWBOT_PROFILES file. */
  readonly source: 'env' | 'file';
  /**
   * SCC operations the profile says its SCC does not have yet (`legacy_tenant_removal`): its client
   * answers `offers(…)` with false for them, and operations fall back to the older call.
   */
  readonly lacks?: readonly SccOperationId[];
}

function isSccRegion(text: string): text is SccRegion {
  return (sccRegions as readonly string[]).includes(text);
}

/** Region names are case-insensitive: people write EU as often as eu. */
export function checkRegion(raw: string): Checked<SccRegion> {
  const region = raw.trim().toLowerCase();
  return isSccRegion(region)
    ? accept(region)
    : refuse(`is not an SCC region; use one of ${sccRegions.join(', ')}`);
}

/** 127.0.0.0/8, ::1 and localhost. The WHATWG parser has already normalised 127.1, 0x7f.1 and [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

interface HttpEndpoint {
  readonly url: URL;
  /** Path without trailing slashes: '' for the root. */
  readonly path: string;
}

function checkHttpEndpoint(raw: string): Checked<HttpEndpoint> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse('must start with https:// (or http:// for a loopback address)');
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('must not contain a user name or password');
  }
  if (url.search !== '' || url.hash !== '') {
    return refuse('must not have a query (?…) or a fragment (#…)');
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return refuse(
      'uses plain http:// to a host that is not a loopback address, so the token would cross the network ' +
        'unencrypted; use https://, or http:// only with 127.0.0.1, ::1 or localhost',
    );
  }
  return accept({ url, path: url.pathname.replace(/\/+$/, '') });
}

const REAL_SCC_HOST = /^api\.[a-z]+\.security\.cisco\.com$/;

/** An SCC API base URL, returned without a trailing slash so paths can be appended as `${base}/v1/…`. */
export function checkSccBaseUrl(raw: string): Checked<string> {
  const endpoint = checkHttpEndpoint(raw);
  if (!endpoint.ok) return endpoint;
  const { url, path } = endpoint.value;
  // The vendor's hosts serve the API under /firewall; without it every call would be a 404.
  if (REAL_SCC_HOST.test(url.hostname) && path === '') {
    return refuse("points at an SCC API host without the /firewall path that SCC's API lives under");
  }
  return accept(`${url.protocol}//${url.host}${path}`);
}

/**
 * A Slack Web API base URL, returned with exactly one trailing slash because the Web API client appends
 * method names to it (`…/api/chat.postMessage`). A bare host means its /api/ path, as on slack.com.
 */
export function checkSlackApiUrl(raw: string): Checked<string> {
  const endpoint = checkHttpEndpoint(raw);
  if (!endpoint.ok) return endpoint;
  const { url, path } = endpoint.value;
  return accept(`${url.protocol}//${url.host}${path === '' ? '/api' : path}/`);
}

export interface RedisEndpoint {
  readonly url: string;
  /** The URL with any password masked, for logs and status pages. */
  readonly display: string;
  /**
   * How the connection travels: TLS (rediss://), or clear text to loopback, to a private address (a
   * warning at start-up), or to any other address (refused unless REDIS_ALLOW_PLAINTEXT=on).
   */
  readonly transport: 'tls' | 'loopback' | 'private' | 'public';
}

/**
 * RFC 1918 and unique-local / link-local IPv6 addresses, and single-label host names (a container's or
 * a LAN's own name, e.g. compose's `redis`): networks the operator owns, where clear text is their call.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  if (host.includes(':')) return /^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host);
  return !host.includes('.');
}

export function checkRedisUrl(raw: string): Checked<RedisEndpoint> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('is not a URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    return refuse('must start with redis:// (or rediss:// for TLS)');
  }
  if (url.hostname === '') return refuse('has no host name');
  if (!/^(\/\d*)?$/.test(url.pathname)) return refuse('may end only with a database number, such as /0');
  const masked = new URL(url.href);
  if (masked.password !== '') masked.password = '***';
  const transport =
    url.protocol === 'rediss:'
      ? 'tls'
      : isLoopbackHost(url.hostname)
        ? 'loopback'
        : isPrivateHost(url.hostname)
          ? 'private'
          : 'public';
  return accept({ url: url.href, display: masked.href, transport });
}
