// The look at the certificate a device presents (the CertificateProbe port of src/catalogue/services.ts): a
// TLS handshake to the device's management address (SCC's `address`, `host:port`), the peer certificate read
// and the connection closed. No data is sent and nothing is trusted: the certificate is taken whatever it is
// (rejectUnauthorized false), since the point is to show it to a person who decides. The server name goes
// only to a DNS name (RFC 6066 forbids an address in SNI). Every failure becomes one plain sentence.
import type { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { connect } from 'node:tls';
import type { CertificateLook, CertificateProbe, PresentedCertificate } from '../catalogue/operation.js';

/** Where a TLS handshake for an address goes: the address itself, or elsewhere (the simulator, a lab). */
export interface CertificateRoute {
  host: string;
  port: number;
  /** The server name sent (SNI); absent: none. */
  servername?: string | undefined;
}

export interface CertificateProbeOptions {
  /** How long a handshake may take, connection included (default 5 s). */
  timeoutMs?: number;
  /** Sends the handshake for an address elsewhere (the simulator's management endpoint); default: to it. */
  route?: (address: string) => CertificateRoute;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const HTTPS_PORT = 443;
const DNS_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/**
 * `host:port`, `[v6]:port`, a bare IPv6 address or a host alone (port 443) → where to connect, or why not.
 * A host that is neither an IP address nor a DNS name is refused before anything is sent.
 */
export function parseManagementAddress(address: string): CertificateRoute | { problem: string } {
  const text = address.trim();
  let host = text;
  let port = String(HTTPS_PORT);
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1] ?? '';
    port = bracketed[2] ?? port;
  } else if (isIP(text) !== 6) {
    const colon = text.lastIndexOf(':');
    if (colon >= 0) {
      host = text.slice(0, colon);
      port = text.slice(colon + 1);
    }
  }
  const portNumber = /^\d{1,5}$/.test(port) ? Number(port) : Number.NaN;
  if (!(portNumber >= 1 && portNumber <= 65_535)) return { problem: `its port “${port}” is not a TCP port` };
  if (isIP(host) !== 0) return { host, port: portNumber };
  if (!DNS_NAME.test(host)) return { problem: `“${host}” is neither an IP address nor a DNS name` };
  return { host, port: portNumber, servername: host.replace(/\.$/, '') };
}

/** The certificate as fwbot shows it. */
export function describeCertificate(certificate: X509Certificate): PresentedCertificate {
  return {
    sha256: certificate.fingerprint256,
    subject: certificate.subject,
    issuer: certificate.issuer,
    validFrom: new Date(certificate.validFrom).toISOString(),
    validTo: new Date(certificate.validTo).toISOString(),
    // Not checkIssued: OpenSSL's issuer check wants keyCertSign, which an ASA's own certificate lacks.
    selfSigned: certificate.subject === certificate.issuer && certificate.verify(certificate.publicKey),
  };
}

/** A socket error in words a person reads on the card. */
function reasonOf(error: unknown, timeoutMs: number): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (nothing listens on that port)';
    case 'ETIMEDOUT':
    case 'FWBOT_TIMEOUT':
      return `no TLS handshake within ${timeoutMs / 1000} s`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its name does not resolve';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'there is no route to it from fwbot';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'it closed the connection during the TLS handshake';
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
      return 'it does not answer in TLS on that port';
  }
  const message = error instanceof Error ? error.message : String(error);
  return `the TLS handshake failed (${message})`;
}

export function createCertificateProbe(options: CertificateProbeOptions = {}): CertificateProbe {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    presented(address: string): Promise<CertificateLook> {
      const parsed = parseManagementAddress(address);
      if ('problem' in parsed)
        return Promise.resolve({ unreachable: `its address cannot be used: ${parsed.problem}` });
      const route = options.route ? options.route(address) : parsed;
      return new Promise<CertificateLook>((resolve) => {
        let settled = false;
        const socket = connect({
          host: route.host,
          port: route.port,
          ...(route.servername === undefined ? {} : { servername: route.servername }),
          rejectUnauthorized: false,
        });
        const settle = (look: CertificateLook) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          socket.destroy();
          resolve(look);
        };
        // One bound for the connection and the handshake together (socket.setTimeout only counts idleness).
        const timer = setTimeout(
          () => settle({ unreachable: reasonOf({ code: 'FWBOT_TIMEOUT' }, timeoutMs) }),
          timeoutMs,
        );
        socket.once('secureConnect', () => {
          const peer = socket.getPeerX509Certificate();
          settle(
            peer
              ? { seen: describeCertificate(peer) }
              : { unreachable: 'it completed the TLS handshake without presenting a certificate' },
          );
        });
        socket.once('error', (error) => settle({ unreachable: reasonOf(error, timeoutMs) }));
        socket.once('close', () => settle({ unreachable: reasonOf({ code: 'ECONNRESET' }, timeoutMs) }));
      });
    },
  };
}
