// The simulated ASAs' management HTTPS, where fwbot looks at the certificate a device presents before its
// acceptance is approved: one TLS server for all of them, started with the simulator on a port of its own.
// The server name of the handshake says which device is meant: its SCC `address` written as one DNS label
// (`198.51.100.30:443` → `198-51-100-30-443.mgmt.sim`), and `managementRoute` sends a probe's handshake for
// an address there. It presents the device's key pair (state/managementCertificates.ts) and nothing else:
// the handshake ends the exchange. An unknown name, a device that is not an ASA, one SCC finds UNREACHABLE
// or one whose management is closed to others than SCC (`managementClosed`) gets no certificate: the
// handshake is cut, as an ASA out of reach would give none.
import type { AddressInfo, Socket } from 'node:net';
import { createSecureContext, createServer, type SecureContext, type Server } from 'node:tls';
import {
  MANAGEMENT_KEY_PAIRS,
  type ManagementKeyPair,
  presentedKeyPair,
} from './state/managementCertificates.js';
import type { SimState } from './state/model.js';

const SUFFIX = '.mgmt.sim';

/** The server name a device's management address is reached by here. */
export function managementServerName(address: string): string {
  return `${address
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')}${SUFFIX}`;
}

/**
 * Where a handshake for a management address goes in this simulator (its management endpoint's port): what
 * fwbot's certificate probe takes as its `route` in tests and the demo.
 */
export function managementRoute(port: number): (address: string) => {
  host: string;
  port: number;
  servername: string;
} {
  return (address) => ({ host: '127.0.0.1', port, servername: managementServerName(address) });
}

export interface ManagementEndpoint {
  readonly port: number;
  close(): Promise<void>;
}

export async function startManagementEndpoint(
  world: () => SimState,
  host: string,
): Promise<ManagementEndpoint> {
  const contexts = new Map<ManagementKeyPair, SecureContext>(
    MANAGEMENT_KEY_PAIRS.map((pair) => [pair, createSecureContext({ cert: pair.cert, key: pair.key })]),
  );
  const server: Server = createServer({
    SNICallback: (servername, done) => {
      const name = servername.toLowerCase();
      const device = [...world().devices.values()].find(
        (d) => d.device.address && managementServerName(d.device.address) === name,
      );
      if (
        device === undefined ||
        device.kind !== 'ASA' ||
        device.device.connectivityState === 'UNREACHABLE' ||
        device.managementClosed === true
      ) {
        done(new Error(`no simulated ASA answers as ${servername}`), undefined);
        return;
      }
      const pair = presentedKeyPair(device);
      done(null, contexts.get(pair) ?? createSecureContext(pair));
    },
  });
  // A handshake cut on purpose, or a client that leaves early, is nothing to report.
  server.on('tlsClientError', () => {});
  server.on('secureConnection', (socket) => socket.end());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
