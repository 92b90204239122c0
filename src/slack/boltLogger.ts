// Bolt's and @slack/web-api's log lines, into fwbot's pino logger. Their debug output includes Web API
// request bodies — a views.update carrying a freshly generated token among them — so debug is dropped
// here whatever the level: secrets must never reach a log.
import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from 'pino';

function text(parts: unknown[]): string {
  return parts
    .map((part) => (typeof part === 'string' ? part : part instanceof Error ? part.message : String(part)))
    .join(' ');
}

export function boltLogger(log: Logger): SlackLogger {
  const child = log.child({ component: 'bolt' });
  let level: LogLevel = LogLevel.INFO;
  return {
    debug: () => {},
    info: (...parts: unknown[]) => child.info(text(parts)),
    warn: (...parts: unknown[]) => child.warn(text(parts)),
    error: (...parts: unknown[]) => child.error(text(parts)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
