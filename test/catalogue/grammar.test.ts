import { describe, expect, it } from 'vitest';
import { createGrammar } from '../../src/catalogue/grammar.js';
import { createCatalogue } from '../../src/catalogue/index.js';
import type { ModalField } from '../../src/catalogue/operation.js';
import { tokenize } from '../../src/catalogue/tokens.js';
import { UsageError, UserError } from '../../src/model/errors.js';
import { fixtureCatalogue } from './fixtures.js';

const grammar = createGrammar(fixtureCatalogue);

function parse(text: string) {
  const { op, raw, modal } = grammar.parse(text);
  return { id: op.id, raw, modal };
}

function failure(text: string): UserError {
  try {
    grammar.parse(text);
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error(`"${text}" parsed without an error`);
}

describe('tokenize', () => {
  it('splits on whitespace and groups quoted text', () => {
    expect(tokenize(`a "b c" 'd e' f\\ g`).map((t) => t.value)).toEqual(['a', 'b c', 'd e', 'f g']);
  });

  it('reads the typographic quotes phones type', () => {
    expect(tokenize('create “Acme Europe” ‘x y’').map((t) => t.value)).toEqual([
      'create',
      'Acme Europe',
      'x y',
    ]);
  });

  it('unescapes inside double quotes only', () => {
    expect(tokenize(`"a \\"b\\"" 'c\\d'`).map((t) => t.value)).toEqual(['a "b"', 'c\\d']);
  });

  it('refuses an unclosed quote, saying where it opened', () => {
    expect(() => tokenize('tenants show "acme')).toThrow('A quote opened at character 14 is never closed.');
  });

  it('marks quoted tokens, so they are never taken for words or flags', () => {
    expect(tokenize('"--x" show').map((t) => t.quoted)).toEqual([true, false]);
  });
});

describe('grammar: words', () => {
  it('matches the longest run of words', () => {
    expect(parse('tenants users add acme bob@x.example').id).toBe('tenants.users.add');
    expect(parse('tenants users acme').id).toBe('tenants.users');
    expect(parse('interfaces show asa1 inside').id).toBe('interfaces.show');
  });

  it('ignores the case of words', () => {
    expect(parse('Tenants LIST').id).toBe('tenants.list');
  });

  it('answers an empty command and a bare group with help', () => {
    expect(parse('')).toEqual({ id: 'help', raw: {}, modal: false });
    expect(parse('tenants')).toEqual({ id: 'help', raw: { topic: 'tenants' }, modal: false });
  });

  it('offers the nearest command for a typo at the top level', () => {
    const error = failure('tenats list');
    expect(error.message).toBe('There is no command “tenats”. Did you mean `/fw tenants`?');
    expect(error.choices).toEqual(['tenants']);
  });

  it('offers the nearest command for a typo inside a group, transpositions included', () => {
    const error = failure('tenants lsit');
    expect(error.message).toBe('`/fw tenants` has no command “lsit”. Did you mean `/fw tenants list`?');
    expect(error.choices).toEqual(['tenants list']);
  });

  it('points to help when nothing is close', () => {
    expect(failure('frobnicate').message).toBe('There is no command “frobnicate”. See `/fw help`.');
  });

  it('takes a near-miss of a word for a typo even where an argument could stand, unless quoted', () => {
    const error = failure('interfaces shwo asa1 inside');
    expect(error.message).toContain('Did you mean `/fw interfaces show`?');
    expect(parse('interfaces "shwo" inside').raw).toEqual({ device: 'shwo', query: 'inside' });
  });
});

describe('grammar: arguments', () => {
  it('binds an optional keyword only when it is one of its choices', () => {
    expect(parse('interfaces asa1 vlan guest').raw).toEqual({ device: 'asa1', kind: 'vlan', query: 'guest' });
    expect(parse('interfaces asa1 guest').raw).toEqual({ device: 'asa1', query: 'guest' });
    expect(parse('interfaces asa1 VLAN').raw).toEqual({ device: 'asa1', kind: 'vlan' });
  });

  it('takes a near-miss of a keyword for a typo, but not a name that extends it', () => {
    expect(failure('interfaces asa1 vlna').message).toBe(
      '`kind`: did you mean “vlan”? (To search for “vlna”, quote it.)',
    );
    expect(parse('interfaces asa1 vlan10').raw).toEqual({ device: 'asa1', query: 'vlan10' });
  });

  it('gives a query the rest of the line as typed', () => {
    expect(parse('tenants list region:EU AND name:acme*').raw).toEqual({ query: 'region:EU AND name:acme*' });
    expect(parse('tenants list "acme eu"').raw).toEqual({ query: 'acme eu' });
  });

  it('gives a query the rest of the line as typed when the text starts with spaces', () => {
    expect(parse('   tenants list name:acme*').raw).toEqual({ query: 'name:acme*' });
  });

  it('reads a lone surrogate (a broken emoji) as U+FFFD, so no later step meets malformed text', () => {
    const { raw } = parse('tenants list acme \uD83D');
    expect(raw).toEqual({ query: 'acme \uFFFD' });
    expect(() => encodeURIComponent(String(raw.query))).not.toThrow();
    expect(parse('interfaces \uDC00asa1').raw).toEqual({ device: '\uFFFDasa1' });
  });

  it('reads declared flags after a query, leaving the query as typed', () => {
    expect(parse('tenants list acme eu --offset 25').raw).toEqual({ query: 'acme eu', offset: '25' });
  });

  it('keeps a JSON body whole, spaces and quotes included', () => {
    const { raw } = parse('gateway run fmc post /api/x {"name": "a b", "n": [1, 2]} --async');
    expect(raw).toEqual({
      device: 'fmc',
      method: 'POST',
      link: '/api/x',
      body: '{"name": "a b", "n": [1, 2]}',
      async: true,
    });
  });

  it('keeps the quotes of a JSON body written without spaces', () => {
    expect(parse('gateway run fmc POST /api/x {"name":"lab"}').raw.body).toBe('{"name":"lab"}');
  });

  it('collects a variadic argument, flags anywhere', () => {
    expect(parse('vpn upgrade a --version 5.1 b c').raw).toEqual({ device: ['a', 'b', 'c'], version: '5.1' });
    expect(parse('tenants users remove acme bob@x.example carol@x.example').raw).toEqual({
      tenant: 'acme',
      username: ['bob@x.example', 'carol@x.example'],
    });
  });

  it('reads --flag value, --flag=value and boolean flags', () => {
    expect(parse('tenants create acme --display-name "Acme Europe" --trial').raw).toEqual({
      name: 'acme',
      'display-name': 'Acme Europe',
      trial: true,
    });
    expect(parse('tenants create acme --display-name=Acme --trial=false').raw).toEqual({
      name: 'acme',
      'display-name': 'Acme',
      trial: false,
    });
  });

  it('treats everything after -- as arguments', () => {
    expect(parse('tenants create -- --odd').raw).toEqual({ name: '--odd' });
  });

  it('names an unknown flag and suggests the nearest', () => {
    const error = failure('tenants create acme --display acme');
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('Unknown flag --display. Did you mean --display-name?');
  });

  it('lists the flags when an unknown one is not close to any', () => {
    expect(failure('tenants create acme --zzz').message).toBe(
      'Unknown flag --zzz. Flags: --display-name, --trial, --ticket.',
    );
  });

  it('refuses a flag without its value, given twice, or a boolean with a value', () => {
    expect(failure('tenants create acme --display-name').message).toBe('--display-name needs a value.');
    expect(failure('tenants create a --display-name x --display-name y').message).toContain('is given twice');
    expect(failure('tenants create a --trial=maybe').message).toContain('takes no value');
  });

  it('gives a missing argument the usage line of the command', () => {
    const error = failure('interfaces show asa1');
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('Missing `interface`: interface name or UUID.');
    expect((error as UsageError).usage).toBe('/fw interfaces show <device> <interface>');
  });

  it('refuses a wrong choice with the nearest one', () => {
    expect(failure('gateway run fmc FETCH /x').message).toBe(
      '`method`: “FETCH” is not one of GET, POST, PUT, DELETE.',
    );
    expect(failure('gateway run fmc GTE /x').message).toContain('Did you mean “GET”?');
  });

  it('refuses extra arguments', () => {
    expect(failure('interfaces show asa1 inside extra').message).toBe(
      'Too many arguments: extra. (Quote a value that has spaces.)',
    );
  });
});

describe('grammar: modals', () => {
  it('opens the modal of an `empty` command when nothing follows it', () => {
    expect(parse('tenants create')).toEqual({ id: 'tenants.create', raw: {}, modal: true });
    expect(parse('tenants create acme').modal).toBe(false);
    expect(parse('vpn upgrade').modal).toBe(true);
  });

  it('opens an `incomplete` modal prefilled, letting it fill arguments its fields cover', () => {
    expect(parse('tenants users add acme')).toEqual({
      id: 'tenants.users.add',
      raw: { tenant: 'acme' },
      modal: true,
    });
    expect(parse('tenants users add')).toEqual({ id: 'tenants.users.add', raw: {}, modal: true });
  });

  it('runs an `incomplete` command from the text once it gives all the operation needs', () => {
    expect(parse('tenants users add acme bob@x.example')).toEqual({
      id: 'tenants.users.add',
      raw: { tenant: 'acme', username: ['bob@x.example'] },
      modal: false,
    });
  });

  it('still asks for arguments a modal cannot fill', () => {
    expect(failure('tenants users remove acme').message).toBe('Missing `username`: usernames.');
  });
});

describe('grammar: forms or flags (the real catalogue)', () => {
  const real = createCatalogue();
  const decide = (text: string) => {
    const { op, raw, modal } = real.parse(text);
    return { id: op.id, raw, modal };
  };

  it('reads an access request without <asa> when --devices takes its place, anywhere on the line', () => {
    expect(
      decide('access request --devices name:asa-* udp 10.1.0.0/24 10.9.9.9 514 --reason syslog'),
    ).toEqual({
      id: 'access.request',
      raw: {
        devices: 'name:asa-*',
        protocol: 'udp',
        source: '10.1.0.0/24',
        destination: '10.9.9.9',
        port: '514',
        reason: 'syslog',
      },
      modal: false,
    });
    expect(decide('access request ip 10.1.0.0/24 10.9.9.9 --reason x --devices=branch').raw).toMatchObject({
      devices: 'branch',
      protocol: 'ip',
      source: '10.1.0.0/24',
      destination: '10.9.9.9',
    });
    // Without it, the ASA is the first word; a quoted "--devices" is a value, not the flag.
    expect(decide('access request asa-dc-03 ip 10.1.0.0/24 10.9.9.9 --reason "--devices"').raw).toMatchObject(
      {
        asa: 'asa-dc-03',
        reason: '--devices',
      },
    );
  });

  it('opens the Request access form for `access request` alone', () => {
    expect(decide('access request')).toEqual({ id: 'access.request', raw: {}, modal: true });
  });

  it('opens an interface form when only the target is typed, as before', () => {
    expect(decide('interfaces create vlan asa-hq-01').modal).toBe(true);
    expect(decide('interfaces create etherchannel asa-hq-01').modal).toBe(true);
    expect(decide('interfaces create subinterface asa-hq-01 inside').modal).toBe(true);
    expect(decide('interfaces edit asa-hq-01 inside').modal).toBe(true);
  });

  it('runs from the text as soon as one field flag is given', () => {
    expect(
      decide('interfaces create vlan asa-hq-01 --vlan-id 30 --name guest --ipv4 10.30.0.1/24 --enabled'),
    ).toEqual({
      id: 'interfaces.create.vlan',
      raw: { device: 'asa-hq-01', 'vlan-id': '30', name: 'guest', ipv4: '10.30.0.1/24', enabled: true },
      modal: false,
    });
    expect(decide('interfaces edit asa-hq-01 inside --mtu 9000')).toEqual({
      id: 'interfaces.edit',
      raw: { device: 'asa-hq-01', interface: 'inside', mtu: '9000' },
      modal: false,
    });
    expect(decide('interfaces edit asa-hq-01 inside --enabled=false').raw.enabled).toBe(false);
    expect(
      decide('interfaces create etherchannel asa-hq-01 --members Gi1/6,Gi1/7 --lacp-mode PASSIVE').raw,
    ).toEqual({ device: 'asa-hq-01', members: 'Gi1/6,Gi1/7', 'lacp-mode': 'passive' });
    // A flag with a bad value is still "from the text": the operation's rule answers, not a form.
    expect(decide('interfaces create vlan asa-hq-01 --vlan-id 5000').modal).toBe(false);
  });

  it('refuses an unknown flag with did-you-mean and the usage line', () => {
    const error = (() => {
      try {
        real.parse('interfaces edit asa-hq-01 inside --mut 9000');
      } catch (caught) {
        return caught;
      }
      throw new Error('parsed');
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('Unknown flag --mut. Did you mean --mtu?');
    expect((error as UsageError).usage).toMatch(/^\/fw interfaces edit <device> <interface> \[--name …\]/);
  });

  it('gives every form field with a fixed list a param of the same name, secrets excepted', () => {
    for (const op of real.operations) {
      const fields = op.modal?.fields;
      if (!Array.isArray(fields)) continue;
      const names = new Set(op.params.map((param) => param.name));
      const missing = fields
        .filter((field: ModalField) => field.input !== 'secret' && !names.has(field.name))
        .map((field: ModalField) => field.name);
      expect(missing, op.id).toEqual([]);
    }
  });
});
