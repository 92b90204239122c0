// Secret values in ASA configuration, masked line by line over real configuration kept in
// test/fixtures/asa-config/ (a 9.0 firewall's running configuration, an ASA's tunnel groups it already
// masked itself, a vendor's 9.6 VPN guide, NTP and SNMPv3 lines from an ASA STIG and a runbook): no secret
// survives, every other word of every line stays, what the ASA printed as ***** stays; the same on diff
// lines. Then each kind of secret-bearing line the rules know, in the command reference's own forms, and
// lines that only look like one. And device output: the activation key always, serial numbers unless
// allowed, over real `show version` and `show failover` answers (test/fixtures/show/).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MASK, maskConfigLine, maskConfigSecrets, maskDeviceOutput } from '../../src/model/configSecrets.js';

const FIXTURES = join(import.meta.dirname, '../fixtures');

function fixture(dir: string, name: string): { head: string[]; body: string } {
  const lines = readFileSync(join(FIXTURES, dir, name), 'utf8').split('\n');
  const end = lines.indexOf('# ---');
  return { head: lines.slice(0, end), body: lines.slice(end + 1).join('\n') };
}

const configs = readdirSync(join(FIXTURES, 'asa-config')).filter((n) => n.endsWith('.txt'));

describe('masking secrets in real ASA configuration', () => {
  for (const name of configs) {
    it(`masks every secret of ${name} and keeps everything else`, () => {
      const { head, body } = fixture('asa-config', name);
      const secrets = (head.find((l) => l.startsWith('# secrets: '))?.slice(11) ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      const masked = maskConfigSecrets(body);
      for (const secret of secrets) expect(masked, secret).not.toContain(secret);
      const before = body.split('\n');
      const after = masked.split('\n');
      expect(after).toHaveLength(before.length);
      for (const [i, line] of before.entries()) {
        const was = line.split(/(\s+)/);
        const now = (after[i] ?? '').split(/(\s+)/);
        // The same words in the same places, save the secrets, which became the mask.
        expect(now.length, line).toBe(was.length);
        for (const [j, word] of was.entries()) {
          if (now[j] === word) continue;
          expect(now[j], line).toBe(MASK);
          // Only a secret is masked: no other word of the line.
          expect(secrets, line).toContain(word);
        }
        // What the ASA masked itself is left as it printed it.
        if (line.includes('*****')) expect(after[i]).toBe(line);
      }
    });
  }

  it('changes nothing in a configuration without secrets', () => {
    const { body } = fixture('asa-config', 'asa-tunnel-group-asa-masked.txt');
    expect(maskConfigSecrets(body)).toBe(body);
  });

  it('masks the lines of a unified diff of configurations, keeping its marks', () => {
    const diff = [
      '@@ -12,4 +12,4 @@',
      ' tunnel-group 203.0.113.9 ipsec-attributes',
      '- ikev1 pre-shared-key OldKey1',
      '+ ikev1 pre-shared-key NewKey2',
      '-snmp-server community public',
      '+snmp-server community n0tpublic',
      '+ key RadiusKey3',
    ].join('\n');
    expect(maskConfigSecrets(diff)).toBe(
      [
        '@@ -12,4 +12,4 @@',
        ' tunnel-group 203.0.113.9 ipsec-attributes',
        '- ikev1 pre-shared-key *****',
        '+ ikev1 pre-shared-key *****',
        '-snmp-server community *****',
        '+snmp-server community *****',
        '+ key *****',
      ].join('\n'),
    );
  });
});

describe('the secret-bearing lines of ASA configuration', () => {
  const cases: [string, string][] = [
    ['enable password 8Ry2YjIyt7RRXU24 encrypted', 'enable password ***** encrypted'],
    ['passwd 2KFQnbNIdI.2KYOU encrypted', 'passwd ***** encrypted'],
    ['username admin password Pa$$w0rd123 privilege 15', 'username admin password ***** privilege 15'],
    [' ldap-login-password LdapPass1', ' ldap-login-password *****'],
    [' ikev1 pre-shared-key cisco123', ' ikev1 pre-shared-key *****'],
    [
      ' ikev2 local-authentication pre-shared-key hex 0a1b2c',
      ' ikev2 local-authentication pre-shared-key hex *****',
    ],
    [' pre-shared-key 0 cisco', ' pre-shared-key 0 *****'],
    ['failover ipsec pre-shared-key 8 Fo1Ipsec', 'failover ipsec pre-shared-key 8 *****'],
    ['snmp-server community c0mmun1ty', 'snmp-server community *****'],
    [
      'snmp-server host inside 10.1.1.1 community Ho5tComm version 2c',
      'snmp-server host inside 10.1.1.1 community ***** version 2c',
    ],
    [
      'snmp-server user u1 grp v3 auth sha AuthPw1 priv aes 256 PrivPw1',
      'snmp-server user u1 grp v3 auth sha ***** priv aes 256 *****',
    ],
    [' key RadKey1', ' key *****'],
    [
      'aaa-server TAC (inside) host 10.1.1.5 TacKey9 timeout 5',
      'aaa-server TAC (inside) host 10.1.1.5 ***** timeout 5',
    ],
    ['aaa-server TAC (inside) host 10.1.1.5 key TacKey9', 'aaa-server TAC (inside) host 10.1.1.5 key *****'],
    [' radius-common-pw RadCommon1', ' radius-common-pw *****'],
    ['ntp authentication-key 1 md5 NtpKey1', 'ntp authentication-key 1 md5 *****'],
    [' ospf authentication-key OspfKey1', ' ospf authentication-key *****'],
    [' ospf message-digest-key 1 md5 Md5Key1', ' ospf message-digest-key 1 md5 *****'],
    [' authentication key eigrp 100 EigrpKey1 key-id 1', ' authentication key eigrp 100 ***** key-id 1'],
    ['  key-string ChainKey1', '  key-string *****'],
    ['failover key FoKey1', 'failover key *****'],
    ['failover key hex 0123456789abcdef', 'failover key hex *****'],
    [' neighbor 198.51.100.1 password BgpKey1', ' neighbor 198.51.100.1 password *****'],
    [' policy-server-secret SsoSecret1', ' policy-server-secret *****'],
    [
      'backup-package location ftp://admin:FtpPw1@192.0.2.10/backups',
      'backup-package location ftp://admin:*****@192.0.2.10/backups',
    ],
  ];
  for (const [line, masked] of cases)
    it(`masks ${line.trim()}`, () => expect(maskConfigLine(line)).toBe(masked));

  const untouched = [
    'password encryption aes',
    'password-policy minimum-length 12',
    ' password-storage enable',
    'username jdoe nopassword',
    'ssh key-exchange group dh-group14-sha256',
    ' ikev2 local-authentication pre-shared-key',
    ' authentication pre-share',
    ' set community 65000:100',
    'aaa-server RADIUS protocol radius',
    'aaa-server RADIUS (inside) host 10.1.1.5',
    'snmp-server enable traps snmp authentication linkup linkdown coldstart',
    'ntp trusted-key 1',
    'ntp authentication-key 1 md5 *****',
    'username admin password ***** pbkdf2 privilege 15',
    'access-list outside_access_in extended permit tcp any object WEB-01 eq https',
  ];
  for (const line of untouched)
    it(`leaves ${line.trim()} as it is`, () => expect(maskConfigLine(line)).toBe(line));
});

describe('device output', () => {
  const version = fixture('show', 'show-version-isa3000-916-activation-key.txt').body;
  const failover = fixture('show', 'show-failover-asa5516-active-standby.txt').body;

  it('masks the activation key always and the serial number by default (show version)', () => {
    const masked = maskDeviceOutput(version, { serialNumbers: false });
    expect(masked).toContain('\nSerial Number: *****\n');
    expect(masked).toContain('\nRunning Permanent Activation Key: *****\n');
    expect(masked).not.toContain('9AT1L9EX0DF');
    // A sentence about the key is no key.
    expect(masked).toContain('The Running Activation Key feature: 2 security contexts exceed the limit');
    const shown = maskDeviceOutput(version, { serialNumbers: true });
    expect(shown).toContain('\nSerial Number: 9AT1L9EX0DF\n');
    expect(shown).toContain('\nRunning Permanent Activation Key: *****\n');
  });

  it('masks both units’ serial numbers (show failover), and nothing else', () => {
    const masked = maskDeviceOutput(failover, { serialNumbers: false });
    expect(masked).toContain('\nSerial Number: Ours *****, Mate *****\n');
    const rest = (text: string) => text.split('\n').filter((l) => !l.startsWith('Serial Number:'));
    expect(rest(masked)).toEqual(rest(failover));
  });

  it('keeps CRLF line ends', () => {
    expect(
      maskDeviceOutput('Serial Number: JAD1\r\nRunning Activation Key: 0x1 0x2\r\n', {
        serialNumbers: false,
      }),
    ).toBe('Serial Number: *****\r\nRunning Activation Key: *****\r\n');
  });
});
