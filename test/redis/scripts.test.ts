// The one loader of Lua: every script is a file in src/redis/lua/ that the loader names, read by name, run
// by digest and loaded again when Redis has forgotten it (a restart, SCRIPT FLUSH).
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../src/redis/keys.js';
import {
  checkScripts,
  LUA_FOLDER,
  runScript,
  SCRIPTS,
  type ScriptName,
  scriptOf,
} from '../../src/redis/scripts.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';

const names = Object.keys(SCRIPTS) as ScriptName[];

describe('the Lua scripts', () => {
  const redis = connectRedis();
  afterAll(async () => {
    await redis.quit();
  });

  it('are the files of src/redis/lua/, each named once by the loader', () => {
    const files = readdirSync(LUA_FOLDER)
      .map((file) => file.replace(/\.lua$/, ''))
      .sort();
    expect(files).toEqual([...names].sort());
  });

  it('each say their KEYS and ARGV, or what they do, at their top, and compile in Redis', async () => {
    for (const name of names) {
      const { source, sha } = scriptOf(name);
      expect(source.startsWith('-- '), `${name}.lua opens with what it does`).toBe(true);
      expect(source).toBe(readFileSync(new URL(`${name}.lua`, LUA_FOLDER), 'utf8'));
      // SCRIPT LOAD compiles the source: a syntax error is refused here, not on the first click.
      expect(await redis.script('LOAD', source)).toBe(sha);
    }
  });

  it('runs by name, and loads a script again once Redis forgot it', async () => {
    const key = new RedisKeys(uniquePrefix('scripts')).deskLock('C1');
    await redis.set(key, 'token-1');
    await redis.script('FLUSH');
    expect(await runScript(redis, 'lock-release', [key], ['token-2'])).toBe(0);
    expect(await redis.get(key)).toBe('token-1');
    await redis.script('FLUSH');
    expect(await runScript(redis, 'lock-release', [key], ['token-1'])).toBe(1);
    expect(await redis.exists(key)).toBe(0);
  });

  it('refuses a name it does not know', () => {
    expect(() => scriptOf('no-such-script' as ScriptName)).toThrow(/no Lua script is named no-such-script/);
  });

  it('are all there before anything starts, or starting says which are missing and where', () => {
    expect(() => checkScripts()).not.toThrow();
    // A build that copied only some of them (a bundle that took none is the same with all missing).
    const dir = mkdtempSync(join(tmpdir(), 'fwbot-lua-'));
    try {
      for (const name of names.filter((n) => n !== 'lock-release' && n !== 'timed-claim'))
        copyFileSync(new URL(`${name}.lua`, LUA_FOLDER), join(dir, `${name}.lua`));
      const folder = pathToFileURL(`${dir}/`);
      expect(() => checkScripts(folder)).toThrow(
        new RegExp(
          `Lua scripts are missing from ${dir}/ \\(2 of ${names.length}: timed-claim\\.lua, lock-release\\.lua\\)`,
        ),
      );
      rmSync(dir, { recursive: true, force: true });
      expect(() => checkScripts(folder)).toThrow(/npm run build does, into dist\/redis\/lua\//);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
