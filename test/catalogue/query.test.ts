import { describe, expect, it } from 'vitest';
import { toLucene } from '../../src/scc/lucene.js';

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

  it('passes text with a colon through as Lucene', () => {
    expect(toLucene('region:EU AND name:acme*')).toBe('region:EU AND name:acme*');
  });

  it('searches another field, or several with OR', () => {
    expect(toLucene('alice', 'emailAddress')).toBe('emailAddress:*alice*');
    expect(toLucene('Gi1/2', ['name', 'hardwareName'])).toBe('name:*Gi1\\/2* OR hardwareName:*Gi1\\/2*');
  });

  it('sends no query for nothing typed', () => {
    expect(toLucene(undefined)).toBeUndefined();
    expect(toLucene('   ')).toBeUndefined();
  });
});
