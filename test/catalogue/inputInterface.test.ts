// The input interface of a trace without --in: the interface whose connected subnet holds the source, the
// most specific when several do; none when no subnet holds it or two equally specific ones do.
import { describe, expect, it } from 'vitest';
import { inferInputInterface } from '../../src/catalogue/inputInterface.js';
import type { AsaInterface } from '../../src/scc/generated/models.js';

function v4(name: string, ipAddress: string, netmask: string, enabled = true): AsaInterface {
  return { name, enabled, ipv4: { ipType: 'STATIC', ipAddress: { ipAddress, netmask } } };
}

describe('the input interface of a trace', () => {
  const interfaces = [
    v4('outside', '203.0.113.2', '255.255.255.0'),
    v4('inside', '10.1.0.1', '255.255.0.0'),
    v4('users', '10.1.100.1', '255.255.255.0'),
    v4('old', '10.9.0.1', '255.255.255.0', false),
    { name: 'v6', ipv6: { ipAddresses: [{ ipAddress: '2001:db8:10::1', netmask: '64' }] } },
    { name: 'bad name', ipv4: { ipAddress: { ipAddress: '192.0.2.1', netmask: '255.255.255.0' } } },
  ] satisfies AsaInterface[];

  it('takes the most specific connected subnet that holds the source', () => {
    expect(inferInputInterface('10.1.100.25', interfaces)).toBe('users');
    expect(inferInputInterface('10.1.7.9', interfaces)).toBe('inside');
    expect(inferInputInterface('203.0.113.77', interfaces)).toBe('outside');
  });

  it('reads IPv6 prefixes given as lengths', () => {
    expect(inferInputInterface('2001:db8:10::25', interfaces)).toBe('v6');
    expect(inferInputInterface('2001:db8:11::25', interfaces)).toBeUndefined();
  });

  it('finds none for a source no subnet holds, a disabled interface, or a name fwbot would not send', () => {
    expect(inferInputInterface('198.51.100.7', interfaces)).toBeUndefined();
    expect(inferInputInterface('10.9.0.5', interfaces)).toBeUndefined();
    expect(inferInputInterface('192.0.2.5', interfaces)).toBeUndefined();
  });

  it('finds none when two interfaces hold the source equally specifically', () => {
    const twice = [v4('a', '10.5.0.1', '255.255.255.0'), v4('b', '10.5.0.2', '255.255.255.0')];
    expect(inferInputInterface('10.5.0.9', twice)).toBeUndefined();
  });
});
