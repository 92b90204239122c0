import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/model/errors.js';
import { allOf, containing, fieldIs, toLucene } from '../../src/scc/lucene.js';

describe('query → Lucene', () => {
  it('turns text without a colon into a wildcard search on the name', () => {
    expect(toLucene('acme')).toBe('name:*acme*');
    expect(toLucene('acme-eu')).toBe('name:*acme-eu*');
  });

  it('escapes what Lucene would read as syntax', () => {
    expect(toLucene('acme eu')).toBe('name:*acme\\ eu*');
    expect(toLucene('a(b)"c"')).toBe('name:*a\\(b\\)\\"c\\"*');
    expect(toLucene('Gi1/2')).toBe('name:*Gi1\\/2*');
  });

  it('keeps the wildcards people type', () => {
    expect(toLucene('asa*')).toBe('name:*asa*');
    expect(toLucene('*-01')).toBe('name:*-01*');
    expect(toLucene('asa-?1')).toBe('name:*asa-?1*');
  });

  it('reads text with a colon as Lucene and writes it again, every value an escaped term', () => {
    expect(toLucene('region:EU AND name:acme*')).toBe('region:EU AND name:acme*');
    expect(toLucene('name:a\\ b OR NOT (x:y && z:"w v")')).toBe('name:a\\ b OR NOT (x:y AND z:"w v")');
    expect(toLucene('name:(a OR b) status:ACTIVE')).toBe('(name:a OR name:b) AND status:ACTIVE');
    expect(toLucene('name:OR')).toBe('name:"OR"');
    expect(toLucene('name:-x name:\\*')).toBe('name:\\-x AND name:\\*');
    expect(toLucene('eventTime:[2026-11-20T08:00:00Z TO *]')).toBe('eventTime:["2026-11-20T08:00:00Z" TO *]');
  });

  it('refuses a query it cannot read, in a sentence, rather than passing it on', () => {
    for (const hostile of ['x:y) OR (entityUid:*', 'a:b OR', ':', 'name:"open'])
      expect(() => toLucene(hostile), hostile).toThrow(UserError);
    // What it reads is written as values: a boost is no boost, a caret a character.
    expect(toLucene('x:y^2')).toBe('x:y\\^2');
  });

  it('searches another field, or several with OR', () => {
    expect(toLucene('alice', 'emailAddress')).toBe('emailAddress:*alice*');
    expect(toLucene('Gi1/2', ['name', 'hardwareName'])).toBe('name:*Gi1\\/2* OR hardwareName:*Gi1\\/2*');
  });

  it('sends no query for nothing typed', () => {
    expect(toLucene(undefined)).toBeUndefined();
    expect(toLucene('   ')).toBeUndefined();
  });

  it('searches a part of a value, never Lucene, for names', () => {
    expect(containing('x) OR (name:*')).toBe('name:*x\\)\\ OR\\ \\(name\\:*');
  });

  it('puts one value in as a term, wildcards and a leading sign escaped', () => {
    expect(fieldIs('entityUid', '3fa85f64-5717-4562-b3fc-2c963f66afa6')).toBe(
      'entityUid:3fa85f64-5717-4562-b3fc-2c963f66afa6',
    );
    expect(fieldIs('name', '-a* b')).toBe('name:\\-a\\*\\ b');
  });

  it('joins clauses with AND, each compound one in its own parentheses', () => {
    expect(allOf('entityUid:u', toLucene('ruleAction:DENY OR isActiveRule:false'))).toBe(
      'entityUid:u AND (ruleAction:DENY OR isActiveRule:false)',
    );
    expect(allOf('entityUid:u', undefined)).toBe('entityUid:u');
    expect(allOf(undefined, undefined)).toBeUndefined();
  });
});
