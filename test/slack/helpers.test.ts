// The Slack surface's small pure parts: the --profile option, the token detector, form state → raw
// arguments and issues → field errors (or a notice when no field can carry them), private_metadata, and retry deduplication on real Redis.
import { afterAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/index.js';
import { containsCredential } from '../../src/dispatch/commandSecrets.js';
import { addProfile, extractProfileFlag, splitProfile, withProfile } from '../../src/dispatch/profileFlag.js';
import { MemoryDeduper, RedisDeduper } from '../../src/redis/dedupe.js';
import { RedisKeys } from '../../src/redis/keys.js';
import { decodeMetadata, encodeMetadata } from '../../src/slack/views/metadata.js';
import { fieldErrors, rawFromState, submissionRefusal } from '../../src/slack/views/values.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';

describe('--profile', () => {
  it('is taken out of the text wherever it is written', () => {
    expect(extractProfileFlag('devices --profile acme asa')).toEqual({
      text: 'devices asa',
      profile: 'acme',
    });
    expect(extractProfileFlag('--profile=acme tenants list')).toEqual({
      text: 'tenants list',
      profile: 'acme',
    });
    expect(extractProfileFlag('tenants list')).toEqual({ text: 'tenants list', profile: undefined });
  });

  it('refuses a malformed or repeated profile', () => {
    expect(() => extractProfileFlag('devices --profile ACME!')).toThrow('is not a profile name');
    expect(() => extractProfileFlag('devices --profile a --profile b')).toThrow('given twice');
  });

  it('travels with re-run buttons only', () => {
    const view = withProfile(
      {
        summary: 's',
        visibility: 'ephemeral',
        blocks: [
          {
            kind: 'actions',
            buttons: [
              { label: 'Next', action: { id: 'fw.page', value: '{"v":1}' } },
              { label: 'Share', action: { id: 'fw.share', value: 'devices' } },
              { label: 'Approve', action: { id: 'fw.approve', value: 'ap-1' } },
            ],
          },
        ],
      },
      'acme',
    );
    const block = view.blocks[0];
    const values = block?.kind === 'actions' ? block.buttons.map((b) => b.action?.value) : [];
    expect(values).toEqual(['@profile=acme {"v":1}', '@profile=acme devices', 'ap-1']);
    expect(splitProfile(addProfile('devices', 'acme'))).toEqual({ value: 'devices', profile: 'acme' });
    expect(splitProfile('devices')).toEqual({ value: 'devices', profile: undefined });
  });
});

describe('token detector', () => {
  it('spots JWTs, Slack tokens, bearer headers and long opaque strings', () => {
    expect(containsCredential('tenants add eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig')).toBe(true);
    expect(containsCredential('tenants add “eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig”')).toBe(true);
    expect(containsCredential('gateway run x GET /a {"token":"xoxb-1234-5678-abcdef"}')).toBe(true);
    expect(containsCredential('Bearer abcdefghijklmnopqrstuvwxyz')).toBe(true);
    expect(containsCredential(`tenants add ${'A'.repeat(70)}`)).toBe(true);
  });

  it('lets ordinary commands through', () => {
    for (const text of [
      'tenants show 3fa85f64-5717-4562-b3fc-2c963f66afa6',
      'gateway run cdfmc-acme GET /api/fmc_config/v1/domain/e276abec-e0f2-11e3-8169-6d9ed49b625f/object/networks',
      'devices name:asa* AND deviceType:ASA',
      'tenants users remove contoso-eu jonas.larsen@contoso.example',
    ]) {
      expect(containsCredential(text)).toBe(false);
    }
  });
});

describe('form values', () => {
  const state = {
    'f.name': { value: { type: 'plain_text_input', value: 'lab' } },
    'f.mtu': { value: { type: 'number_input', value: '' } },
    'f.members': {
      value: { type: 'multi_static_select', selected_options: [{ value: 'a' }, { value: 'b' }] },
    },
    'f.enabled': { value: { type: 'checkboxes', selected_options: [] } },
    'f.tenant': { 'fw.select.tenant': { type: 'external_select', selected_option: { value: 'uid-1' } } },
    'f.device': {
      'fw.select.device': {
        type: 'multi_external_select',
        selected_options: [{ value: 'dev-1' }, { value: 'dev-2' }],
      },
    },
    other: { x: { type: 'plain_text_input', value: 'ignored' } },
  };

  it('reads every field kind into raw arguments, empty fields left out', () => {
    expect(rawFromState(state)).toEqual({
      raw: { name: 'lab', members: ['a', 'b'], enabled: false, tenant: 'uid-1', device: ['dev-1', 'dev-2'] },
      fields: ['name', 'mtu', 'members', 'enabled', 'tenant', 'device'],
    });
  });

  it('puts issues under their fields as sentences, and others under the first field naming the argument', () => {
    expect(
      fieldErrors(
        ['name', 'mtu'],
        [
          { arg: 'mtu', message: 'must be from 64 to 9198.' },
          { arg: 'device', message: 'is required.' },
          { arg: undefined, message: 'give either a UUID or a token.' },
        ],
      ),
    ).toEqual({
      'f.mtu': 'Must be from 64 to 9198.',
      'f.name': '“device” is required. Give either a UUID or a token.',
    });
  });
});

describe('refused form submissions', () => {
  const op = createCatalogue().get('tenants.create');
  if (!op) throw new Error('the catalogue has no tenants.create');
  const issues = [{ arg: 'name', message: 'must be letters, digits and dashes.' }];

  it('answers with errors under the fields when there is a field to carry them', () => {
    expect(submissionRefusal(op, ['name'], issues)).toEqual({
      response_action: 'errors',
      errors: { 'f.name': 'Must be letters, digits and dashes.' },
    });
  });

  it('replaces the form by a notice, never an empty errors map, when it has no field', () => {
    const refusal = submissionRefusal(op, [], issues);
    if (refusal.response_action !== 'update') throw new Error(`answered ${refusal.response_action}`);
    expect(refusal.view.callback_id).toBe('fw.notice');
    expect(JSON.stringify(refusal.view.blocks)).toContain('name: must be letters, digits and dashes.');
  });
});

describe('private_metadata', () => {
  it('round-trips, and refuses what would not fit in 3000 characters', () => {
    const meta = {
      operationId: 'tenants.create',
      channelId: 'C0OPS000001',
      profileOverride: 'acme',
      prefilled: { name: 'x', members: ['a'], 'api-only': true },
      responseUrl: 'https://hooks.slack.com/commands/T/1/abc',
    };
    expect(decodeMetadata(encodeMetadata(meta))).toEqual(meta);
    expect(() => encodeMetadata({ ...meta, prefilled: { name: 'x'.repeat(3000) } })).toThrow('too long');
    expect(decodeMetadata('{"v":2}')).toBeUndefined();
    expect(decodeMetadata('not json')).toBeUndefined();
  });
});

describe('retry deduplication', () => {
  const redis = connectRedis();
  afterAll(async () => {
    await redis.quit();
  });

  it('says "first" once per key across processes sharing Redis', async () => {
    const prefix = uniquePrefix('dedupe');
    const one = new RedisDeduper(redis, prefix);
    const two = new RedisDeduper(redis, prefix);
    const answers = await Promise.all([one.firstSight('t1'), two.firstSight('t1'), one.firstSight('t1')]);
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await two.firstSight('t2')).toBe(true);
    expect(await redis.ttl(new RedisKeys(prefix).slackSeen('t1'))).toBeGreaterThan(500);
  });

  it('forgets a key after its time in memory too', async () => {
    let now = 0;
    const dedupe = new MemoryDeduper(() => now);
    expect(await dedupe.firstSight('k', 10)).toBe(true);
    expect(await dedupe.firstSight('k', 10)).toBe(false);
    now += 11_000;
    expect(await dedupe.firstSight('k', 10)).toBe(true);
  });
});
