// Clear-text Redis: the README's rule, the code and the compose file agree. redis:// is fine to loopback;
// to a private address or a single-label host (compose's `redis`) it is accepted with a warning at
// start-up; anywhere else it is refused unless REDIS_ALLOW_PLAINTEXT=on. rediss:// is always fine.
import { describe, expect, it } from 'vitest';
import { loadConfig, redisPlaintextWarning } from '../../src/config.js';
import { issueAbout, issuesOf } from './support.js';

const transport = (url: string, extra: Record<string, string> = {}) =>
  loadConfig({ REDIS_URL: url, ...extra }).redis.transport;

describe('REDIS_URL in clear text', () => {
  it('tells loopback, private and TLS apart', () => {
    expect(transport('redis://127.0.0.1:6379')).toBe('loopback');
    expect(transport('redis://10.1.2.3:6379')).toBe('private');
    expect(transport('redis://172.20.0.5:6379')).toBe('private');
    expect(transport('redis://192.168.1.9:6379')).toBe('private');
    expect(transport('redis://[fd00::5]:6379')).toBe('private');
    expect(transport('redis://redis:6379')).toBe('private'); // docker-compose.yml's
    expect(transport('rediss://:pw@redis.example.com:6380/0')).toBe('tls');
  });

  it('refuses clear text to a public address or a DNS name, naming the way out', () => {
    for (const url of ['redis://203.0.113.5:6379', 'redis://:pw@redis.example.com:6379']) {
      const issue = issueAbout(issuesOf({ REDIS_URL: url }), 'REDIS_URL');
      expect(issue.problem).toMatch(/clear text.*use rediss:\/\/, or set REDIS_ALLOW_PLAINTEXT=on/);
      expect(JSON.stringify(issue)).not.toContain(':pw@');
    }
    expect(transport('redis://203.0.113.5:6379', { REDIS_ALLOW_PLAINTEXT: 'on' })).toBe('public');
  });

  it('warns at start-up for clear text beyond loopback, and not otherwise', () => {
    const warning = redisPlaintextWarning(loadConfig({ REDIS_URL: 'redis://:secret@10.1.2.3:6379' }).redis);
    expect(warning).toMatch(/clear text: .*use rediss:\/\//);
    expect(warning).not.toContain('secret');
    expect(redisPlaintextWarning(loadConfig({}).redis)).toBeUndefined();
    expect(
      redisPlaintextWarning(loadConfig({ REDIS_URL: 'rediss://redis.example.com:6380' }).redis),
    ).toBeUndefined();
  });
});
