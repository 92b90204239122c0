import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { choice, flag, int, list, optionalBoolean, uuid } from '../../src/catalogue/args.js';
import { parseIpv4 } from '../../src/catalogue/interfaceFields.js';
import { UserRoleValues } from '../../src/scc/generated/inputs.js';

const issue = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

describe('argument rules', () => {
  it('reads whole numbers from text and names the range', () => {
    expect(int(64, 9198).parse(' 1500 ')).toBe(1500);
    expect(issue(int(64, 9198), '9199')).toBe('must be a whole number from 64 to 9198.');
    expect(issue(int(64, 9198), '15.5')).toBe('must be a whole number from 64 to 9198.');
    expect(issue(int(64, 9198), '')).toBe('is required.');
  });

  it('reads flags and checkboxes written in several ways', () => {
    expect(flag().parse(undefined)).toBe(false);
    expect(flag().parse('yes')).toBe(true);
    expect(optionalBoolean().parse('disabled')).toBe(false);
    expect(optionalBoolean().parse('')).toBeUndefined();
    expect(issue(optionalBoolean(), 'maybe')).toBe('must be yes or no.');
  });

  it('splits lists given as lines, commas or words, dropping blanks', () => {
    expect(list().parse('a@x.example\n b@x.example ,\n\n')).toEqual(['a@x.example', 'b@x.example']);
    expect(list().parse(['a', ' '])).toEqual(['a']);
    expect(issue(list({ min: 1, what: 'devices' }), '')).toBe('needs at least one.');
    expect(issue(list({ min: 2, what: 'devices' }), 'a')).toBe('needs at least 2 devices.');
  });

  it('checks UUIDs with an example of a good one', () => {
    expect(uuid().parse('3FA85F64-5717-4562-B3FC-2C963F66AFA6')).toBe('3FA85F64-5717-4562-B3FC-2C963F66AFA6');
    expect(issue(uuid(), 'abc')).toBe('must be a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6.');
  });

  it('takes enum values as people write them', () => {
    const role = choice(UserRoleValues, { prefix: 'ROLE_' });
    expect(role.parse('read-only')).toBe('ROLE_READ_ONLY');
    expect(role.parse('ROLE_ADMIN')).toBe('ROLE_ADMIN');
    expect(role.parse('vpn sessions manager')).toBe('ROLE_VPN_SESSIONS_MANAGER');
  });
});

describe('IPv4 settings', () => {
  it('reads a prefix, a netmask or dhcp', () => {
    expect(parseIpv4('10.1.0.1/24')).toEqual({
      ipType: 'STATIC',
      ipAddress: { ipAddress: '10.1.0.1', netmask: '255.255.255.0' },
    });
    expect(parseIpv4('10.1.0.1 255.255.255.128')).toEqual({
      ipType: 'STATIC',
      ipAddress: { ipAddress: '10.1.0.1', netmask: '255.255.255.128' },
    });
    expect(parseIpv4('10.1.0.1/0')?.ipAddress?.netmask).toBe('0.0.0.0');
    expect(parseIpv4('DHCP')).toEqual({ ipType: 'DHCP' });
  });

  it('refuses what is not an address with a mask', () => {
    for (const text of ['10.1.0.1', '10.1.0.256/24', '10.1.0.1/33', '10.1.0.1 255.0.255.0', 'inside']) {
      expect(parseIpv4(text), text).toBeUndefined();
    }
  });
});
