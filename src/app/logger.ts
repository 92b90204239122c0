// fwbot's logger: pino, JSON lines, one child per request carrying its request id. Secrets are kept out
// by construction (they are never passed to a log call, and SCC/config errors redact themselves); the
// redact paths below are a second net for the usual suspects.
import pino, { type DestinationStream, type Logger } from 'pino';

export const REDACT_PATHS = [
  'token',
  '*.token',
  'apiToken',
  '*.apiToken',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'signingSecret',
  '*.signingSecret',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'fwbot' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
