// The secrets in ASA configuration text, masked wherever fwbot shows such text: configuration diffs and
// snapshots, SCC's change log (its diffs and commands), the commands a deploy would run, what was deployed,
// and the answers of show commands. SCC's answers may carry them in clear (a pre-shared key, an SNMP
// community, a password hash, a RADIUS key), and a channel must not keep them. Each line keeps its keyword
// and the rest of its words; only the secret value becomes `*****`, so a reader still sees that a key is
// set, and a diff still shows that it changed. What the ASA already prints as `*****` stays as it is.
// Works on configuration lines and on the lines of a unified diff of them (`+`, `-` or a space first).
// Also the device-identifying parts of a command's answer: an activation key is always masked, serial
// numbers unless the deployment allows them. Pure functions over text.

export const MASK = '*****';

/** A rule: its pattern's first group is kept, the second is the secret; `when` narrows the lines it reads. */
interface SecretRule {
  pattern: RegExp;
  when?: RegExp;
}

/** An optional encryption type (`0`, `7`, `8`) written before some secrets. */
const TYPE = '(?:[0-9]\\s+)?';

const RULES: readonly SecretRule[] = [
  // `tunnel-group … ipsec-attributes` / ` ikev1 pre-shared-key K`, ` ikev2 remote-authentication pre-shared-key K`,
  // `failover ipsec pre-shared-key K`.
  { pattern: new RegExp(`(\\bpre-shared-key\\s+(?:hex\\s+)?${TYPE})(\\S+)`, 'g') },
  // `snmp-server community C`, `snmp-server host inside 10.1.1.1 [poll|trap] community C version 2c`; only
  // on snmp-server lines: a route map's `set community 65000:100` is no secret.
  { pattern: new RegExp(`(\\bcommunity\\s+${TYPE})(\\S+)`, 'g'), when: /\bsnmp-server\b/ },
  // `snmp-server user U G v3 auth sha A priv aes 128 P`.
  { pattern: /(\bauth\s+(?:md5|sha\S*)\s+)(\S+)/g, when: /\bsnmp-server\s+user\b/ },
  { pattern: /(\bpriv\s+(?:des|3des|aes(?:\s+\d+)?)\s+)(\S+)/g, when: /\bsnmp-server\s+user\b/ },
  // `enable password P encrypted`, `passwd P encrypted`, `username U password P privilege 15`,
  // ` ldap-login-password P`, `neighbor 10.0.0.1 password P`; not `password encryption aes` (a setting).
  { pattern: new RegExp(`(\\b(?:password|passwd)\\s+${TYPE})(?!encryption\\b)(\\S+)`, 'g') },
  // ` policy-server-secret S` and any other `…secret S`.
  { pattern: new RegExp(`(\\b[a-z-]*secret\\s+${TYPE})(\\S+)`, 'g') },
  // An aaa-server host's ` key K`, a cluster's ` key K`: a line of its own.
  { pattern: new RegExp(`^([+-]?\\s*key\\s+${TYPE})(\\S+)`) },
  // `aaa-server RADIUS (inside) host 10.1.1.1 [key] K [timeout 5]`: the key is the word after the host.
  {
    pattern: /^([+-]?\s*aaa-server\s+\S+\s+(?:\(\S+\)\s+)?host\s+\S+\s+(?:key\s+)?)(?!timeout\b)(\S+)/,
  },
  // ` radius-common-pw K`.
  { pattern: /(\bradius-common-pw\s+)(\S+)/g },
  // `ntp authentication-key 1 md5 K`, ` ospf authentication-key K`.
  {
    pattern: new RegExp(`(\\bauthentication-key\\s+(?:\\d+\\s+)?(?:(?:md5|sha\\S*)\\s+)?${TYPE})(\\S+)`, 'g'),
  },
  // ` ospf message-digest-key 1 md5 K`.
  { pattern: new RegExp(`(\\bmessage-digest-key\\s+\\d+\\s+(?:md5|sha\\S*)\\s+${TYPE})(\\S+)`, 'g') },
  // ` authentication key eigrp 100 K key-id 1`, ` rip authentication key K key_id 1`.
  { pattern: new RegExp(`(\\bauthentication\\s+key\\s+(?:eigrp\\s+\\d+\\s+)?${TYPE})(\\S+)`, 'g') },
  // A key chain's `  key-string K`.
  { pattern: new RegExp(`(\\bkey-string\\s+${TYPE})(\\S+)`, 'g') },
  // `failover key [hex] K`, PIX's `isakmp key K address …`.
  { pattern: /(\bfailover\s+key\s+(?:hex\s+)?)(\S+)/g },
  { pattern: /(\bisakmp\s+key\s+)(\S+)/g },
  // Credentials in a URL: `ftp://user:P@host/…`.
  { pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(?=@)/gi },
];

const alreadyMasked = (value: string) => /^\*+$/.test(value);

/** One line with the secret values of its secret-bearing settings masked. */
export function maskConfigLine(line: string): string {
  let out = line;
  for (const rule of RULES) {
    if (rule.when && !rule.when.test(out)) continue;
    out = out.replace(rule.pattern, (whole, keep: string, secret: string) =>
      alreadyMasked(secret) ? whole : `${keep}${MASK}`,
    );
  }
  return out;
}

/** ASA configuration text (or a diff of it) with every secret value masked; line ends kept as they were. */
export function maskConfigSecrets(text: string): string {
  return text
    .split('\n')
    .map((line) => maskConfigLine(line))
    .join('\n');
}

export interface DeviceOutputMasking {
  /** Serial numbers may be shown (the policy's `device_output.serial_numbers: shown`). */
  serialNumbers: boolean;
}

/**
 * A command's answer as a channel may keep it: configuration secrets masked, the activation key always
 * (`Running Permanent Activation Key: 0x… 0x…`), serial numbers unless allowed (`Serial Number: JAD…`,
 * and `show failover`'s `Serial Number: Ours JAD…, Mate JAD…`).
 */
export function maskDeviceOutput(text: string, masking: DeviceOutputMasking): string {
  return text
    .split('\n')
    .map((raw) => {
      let line = maskConfigLine(raw).replace(
        /(\bActivation Key(?: Value)?:[ \t]*)(\S.*?)(\r?)$/i,
        (whole, keep: string, key: string, cr: string) =>
          alreadyMasked(key) ? whole : `${keep}${MASK}${cr}`,
      );
      if (!masking.serialNumbers)
        line = line.replace(
          /(\bSerial Number:[ \t]*)(\S.*?)(\r?)$/i,
          (_whole, keep: string, value: string, cr: string) => {
            const pair = /\b(?:Ours|Mate)\s/.test(value);
            const masked = pair ? value.replace(/\b(Ours|Mate)\s+[^,\s]+/g, `$1 ${MASK}`) : MASK;
            return `${keep}${masked}${cr}`;
          },
        );
      return line;
    })
    .join('\n');
}
