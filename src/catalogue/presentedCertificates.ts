// What an ASA presents at its management address, as `/fw devices accept-certificate` shows it before anyone
// accepts it (issue 38, item 3). SCC's API gives no certificate (its reference warns that
// bulkAcceptAsaCertificates accepts whatever the device presents), so fwbot looks itself through the
// CertificateProbe port: the look is kept in the request's facts, shown on the card, taken again right
// before the call, and a fingerprint that changed in between stops it.
import { z } from 'zod';
import { code, time } from '../render/format.js';
import { untrusted } from '../render/untrusted.js';
import type { CertificateProbe } from './services.js';

export const PresentedCertificateFacts = z.object({
  sha256: z.string().min(1),
  subject: z.string(),
  issuer: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  selfSigned: z.boolean(),
});

/** One device's look: where fwbot looked, and what it saw or why it saw nothing. */
export const CertificateLookFacts = z.object({
  address: z.string().optional(),
  certificate: PresentedCertificateFacts.optional(),
  unreachable: z.string().optional(),
});
export type CertificateLookFacts = z.infer<typeof CertificateLookFacts>;

/** The probe's look at `address`; without an address or a probe, why there is none. */
export async function lookAtCertificate(
  probe: CertificateProbe | undefined,
  address: string | null | undefined,
): Promise<CertificateLookFacts> {
  if (!address) return { unreachable: 'SCC records no management address for it' };
  if (!probe) return { address, unreachable: 'this fwbot process cannot open connections to devices' };
  const look = await probe.presented(address);
  return 'seen' in look ? { address, certificate: look.seen } : { address, unreachable: look.unreachable };
}

/** A name as node:crypto writes it (`CN=…` one per line), on one line. */
const oneLine = (name: string) => name.split('\n').filter(Boolean).join(', ');

/** The certificate a device presented, as the card shows it in a code block (exactly, to compare). */
export function certificateLines(name: string, look: CertificateLookFacts): string[] {
  const where = look.address ?? 'no address';
  const cert = look.certificate;
  if (!cert)
    return [`${name}  ${where}`, `  fwbot could not see its certificate: ${look.unreachable ?? 'unknown'}`];
  return [
    `${name}  ${where}`,
    `  SHA-256  ${cert.sha256}`,
    `  Subject  ${oneLine(cert.subject)}`,
    `  Issuer   ${cert.selfSigned ? 'itself (self-signed)' : oneLine(cert.issuer)}`,
    `  Valid    ${time(cert.validFrom)} to ${time(cert.validTo)}`,
  ];
}

/** What the approver is told of the devices whose certificate fwbot could not see. */
export function unseenWarning(unseen: readonly { name: string; look: CertificateLookFacts }[]): string[] {
  return unseen.map(
    ({ name, look }) =>
      `:warning: fwbot could not reach ${code(look.address ?? name)}: ${untrusted(look.unreachable ?? 'unknown')}. Check \`show crypto ca certificates\` on ${untrusted(name)} before approving.`,
  );
}

/**
 * Why the look right before the call stops it: the certificate seen on the card is no longer the one
 * presented, or fwbot can no longer see it to tell. A device fwbot could not see on the card is left to the
 * approver, who was told to check it on the ASA.
 */
export function certificateChanges(
  name: string,
  before: CertificateLookFacts,
  after: CertificateLookFacts,
): string[] {
  const was = before.certificate;
  if (!was) return [];
  const now = after.certificate;
  if (!now)
    return [
      `fwbot can no longer see the certificate of ${name} to check that it is the one approved (${after.unreachable ?? 'unknown'})`,
    ];
  if (now.sha256 === was.sha256) return [];
  return [
    `the certificate of ${name} changed since it was approved: now SHA-256 ${now.sha256}, not ${was.sha256}`,
  ];
}
