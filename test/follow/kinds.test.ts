// Rules every kind of followed work keeps (src/follow/), checked over the registry, so a new kind is held
// to them by being registered: its poll schedule is one the tracking worker can run, its requests survive
// the JSON they are stored as (a BullMQ job, an approval in Redis) and come back as the same request, and a
// stored job of it parses back with its kind's state.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyFollowKind,
  CommonState,
  describeFollowed,
  FOLLOW_KINDS,
  followedId,
  PollSchedule,
  parseTrackJob,
  type TrackRequest,
  TrackRequestSchema,
} from '../../src/follow/index.js';

const KINDS = FOLLOW_KINDS as readonly AnyFollowKind[];

/** The JSON Schema that zod writes for a request, as far as the generator below reads it. */
interface JsonSchema {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
}

const UNDERSTOOD = new Set([
  '$schema',
  'type',
  'const',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'format',
  'description',
]);

/**
 * Any value the schema allows. A keyword it does not understand (a pattern, say) fails the test rather than
 * generating values the schema refuses: teach it the keyword when a kind needs one.
 */
function valuesOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  const unknown = Object.keys(schema).filter((key) => !UNDERSTOOD.has(key));
  if (unknown.length > 0) throw new Error(`the request generator does not know ${unknown.join(', ')}`);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(valuesOf));
  switch (schema.type) {
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format !== undefined)
        throw new Error(`the request generator does not know format ${schema.format}`);
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 40 });
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        ...(schema.minimum === undefined ? {} : { min: schema.minimum }),
        ...(schema.maximum === undefined ? {} : { max: schema.maximum }),
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      return fc.array(valuesOf(schema.items ?? {}), {
        minLength,
        maxLength: schema.maxItems ?? minLength + 3,
      });
    }
    case 'object':
      return fc.record(
        Object.fromEntries(
          Object.entries(schema.properties ?? {}).map(([key, inner]) => [key, valuesOf(inner)]),
        ),
        { requiredKeys: schema.required ?? [] },
      );
    default:
      throw new Error(`the request generator does not know type ${String(schema.type)}`);
  }
}

const requestsOf = (kind: AnyFollowKind) =>
  valuesOf(z.toJSONSchema(kind.request, { io: 'input' }) as JsonSchema) as fc.Arbitrary<TrackRequest>;

const FRESH_STATE = { step: 0, failures: 0, startedAt: 0, legStartedAt: 0 };

describe('follow kinds', () => {
  it('are registered once each', () => {
    const names = KINDS.map((kind) => kind.kind);
    expect(new Set(names).size).toBe(names.length);
  });

  describe.each(KINDS.map((kind) => [kind.kind, kind] as const))('%s', (_, kind) => {
    it('polls on a schedule the worker can run: first delay, cap and late cap all before the deadline', () => {
      // What the configuration may set: the reminder of a staged change, 1 minute to a week (STAGED_REMINDER_MINUTES).
      const settings = [{ stagedReminderMinutes: 1 }, { stagedReminderMinutes: 10_080 }];
      const schedules = [kind.poll, ...settings.flatMap((setting) => kind.configured?.(setting) ?? [])];
      for (const poll of schedules) {
        expect(PollSchedule.safeParse(poll).error?.issues ?? []).toEqual([]);
        expect(poll.firstDelayMs).toBeLessThanOrEqual(poll.capMs);
        expect(poll.capMs).toBeLessThan(poll.deadlineMs);
        if (poll.lateAfterMs !== undefined) expect(poll.lateAfterMs).toBeLessThan(poll.deadlineMs);
        if (poll.lateCapMs !== undefined) expect(poll.lateCapMs).toBeLessThan(poll.deadlineMs);
      }
    });

    it('gets back, from the JSON it is stored as, the same request, with an id and a name for threads', () => {
      fc.assert(
        fc.property(requestsOf(kind), (request) => {
          expect(request.kind).toBe(kind.kind);
          const stored = JSON.parse(JSON.stringify(request)) as unknown;
          expect(TrackRequestSchema.parse(stored)).toEqual(request);
          expect(followedId(request)).not.toBe('');
          expect(describeFollowed(request)).not.toBe('');
        }),
      );
    });

    it('reads back a stored job of it, starting with no state of its own', () => {
      expect(kind.state.safeParse({}).success).toBe(true);
      expect(CommonState.extend(kind.state.shape).safeParse(FRESH_STATE).success).toBe(true);
      fc.assert(
        fc.property(requestsOf(kind), (request) => {
          const job = JSON.parse(
            JSON.stringify({ profile: 'default', request, state: FRESH_STATE }),
          ) as unknown;
          const parsed = parseTrackJob(job);
          expect(parsed.success && parsed.data.request).toEqual(request);
        }),
      );
    });
  });
});
