// Request ids on every log line written while a request is handled, including lines from shared objects
// that were created once with a logger of their own (the SCC clients, the approvals): the request's
// fields live in an AsyncLocalStorage for the duration of the request, and a wrapper around the log
// destination adds them to each JSON line that does not carry them already. pino writes synchronously
// from the logging call, so the store seen at write time is the caller's.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DestinationStream } from 'pino';

type LogFields = Readonly<Record<string, string>>;

const context = new AsyncLocalStorage<LogFields>();

/** Runs `fn` with these fields (e.g. `{ requestId }`) added to every log line written inside it. */
export function withLogContext<T>(fields: LogFields, fn: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, fn);
}

/** The fields of the request being handled here, if any. */
export function currentLogContext(): LogFields | undefined {
  return context.getStore();
}

/** One JSON line with the missing context fields added before its closing brace. */
export function addContext(line: string, fields: LogFields | undefined): string {
  if (!fields) return line;
  const end = line.lastIndexOf('}');
  if (end < 0) return line;
  let extra = '';
  for (const [key, value] of Object.entries(fields)) {
    if (!line.includes(`"${key}":`)) extra += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  }
  return extra === '' ? line : `${line.slice(0, end)}${extra}${line.slice(end)}`;
}

/** A destination for createLogger that adds the current request's fields to each line. */
export function contextualDestination(destination: DestinationStream): DestinationStream {
  return {
    write(line: string) {
      return destination.write(addContext(line, context.getStore()));
    },
  };
}
