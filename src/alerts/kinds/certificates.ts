// Certificates: a device's management certificate (certificateExpiryDate) or Secure Client certificate
// (raVpnCertificateExpiryDate) expires within 30, 7 or 1 days, or has expired: one notice per threshold per
// certificate, keyed by the certificate's expiry date (a renewed certificate starts again). Read: the
// devices with a certificate expiring within 30 days, hourly.
import { z } from 'zod';
import { untrusted } from '../../render/untrusted.js';
import {
  ANY_READER,
  DeviceMemo,
  defineAlertKind,
  deviceChanges,
  deviceFinding,
  type Finding,
  isoOf,
  memoOf,
  type WatchedDevice,
} from './kind.js';

const DAY = 86_400_000;

/** The thresholds, least urgent first: a certificate is told as it crosses each. */
export const CERTIFICATE_BANDS = ['30 days', '7 days', '1 day', 'expired'] as const;
type Band = (typeof CERTIFICATE_BANDS)[number];

export function bandOf(expiry: string | undefined, now: number): Band | undefined {
  const at = Date.parse(expiry ?? '');
  if (!Number.isFinite(at)) return undefined;
  const left = at - now;
  if (left <= 0) return 'expired';
  if (left <= DAY) return '1 day';
  if (left <= 7 * DAY) return '7 days';
  if (left <= 30 * DAY) return '30 days';
  return undefined;
}

const Certificate = z.object({ band: z.enum(CERTIFICATE_BANDS), expires: z.string() });

const State = DeviceMemo.extend({ management: Certificate.optional(), secureClient: Certificate.optional() });
type State = z.infer<typeof State>;

const CERTIFICATES = [
  { which: 'management', words: 'management certificate', field: 'certificateExpiryDate' },
  { which: 'secureClient', words: 'Secure Client certificate', field: 'raVpnCertificateExpiryDate' },
] as const;

function observe(device: WatchedDevice, now: number): State | undefined {
  const state: State = memoOf(device);
  for (const { which, field } of CERTIFICATES) {
    const expires = device[field];
    const band = bandOf(expires, now);
    if (band && expires) state[which] = { band, expires };
  }
  return state.management || state.secureClient ? state : undefined;
}

export const certificates = defineAlertKind({
  kind: 'certificates',
  summary: 'a management or Secure Client certificate expires within 30, 7 or 1 days, or has expired',
  tokenRoles: ANY_READER,
  words: {
    opened: 'certificate expiring',
    closed: 'certificate renewed',
    noun: 'certificate',
    notice: 'certificate warning',
    now: ['certificate expiring or expired', 'certificates expiring or expired'],
  },
  source: {
    from: 'devices',
    q: (now) => {
      const until = isoOf(now + 30 * DAY);
      return `certificateExpiryDate:[* TO ${until}] OR raVpnCertificateExpiryDate:[* TO ${until}]`;
    },
  },
  acrossTenants: true,
  intervalMs: 60 * 60_000,
  state: State,
  // A certificate within 30 days of expiry (or expired) is a standing condition, told to a new subscription.
  current: () => true,
  detect(input) {
    const { profile, now } = input;
    const at = isoOf(now);
    const { next, changes } = deviceChanges(input, (device) => observe(device, now));
    const findings: Finding[] = [];
    for (const { uid, before, after } of changes) {
      if (!after || after === 'gone') continue;
      for (const { which, words, field } of CERTIFICATES) {
        const was = before?.[which];
        const is = after[which];
        if (!is) continue;
        // The same certificate (same expiry) already told at this threshold or a later one: nothing new.
        const sameCertificate = was?.expires === is.expires;
        if (sameCertificate && CERTIFICATE_BANDS.indexOf(was.band) >= CERTIFICATE_BANDS.indexOf(is.band))
          continue;
        const date = is.expires.slice(0, 10);
        findings.push(
          deviceFinding('certificates', profile, uid, after, {
            field,
            phase: 'notice',
            state: is.band,
            ...(sameCertificate && was ? { previous: was.band } : {}),
            headline:
              is.band === 'expired'
                ? `${untrusted(after.name)}: the ${words} has expired (${untrusted(date)})`
                : `${untrusted(after.name)}: the ${words} expires within ${is.band} (${untrusted(date)})`,
            at,
            keyTime: is.expires,
            incidentKey: `certificates:${profile}:${uid}:${which === 'management' ? 'management' : 'secure-client'}`,
          }),
        );
      }
    }
    return { next, findings };
  },
});
