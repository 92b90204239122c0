// The FMC command gateway: the supported request patterns, the FMC's domain UUID (which every
// configuration path, /api/fmc_config/v1/domain/<domain>/…, needs), a request sent to a cloud-delivered
// FMC (wait for the answer, up to 70 s, or `--async`), and the answer to an earlier request.
import { z } from 'zod';
import { code } from '../render/format.js';
import { renderCommandPatterns, renderCommandResponse, renderFmcDomain } from '../render/gateway.js';
import { untrusted } from '../render/untrusted.js';
import type { CommandResponse } from '../scc/generated/models.js';
import { flag, optionalText, text, uuid } from './args.js';
import { compareDevices, DeviceFacts, deviceFacts, rereadDevice } from './deviceTarget.js';
import { defineOperation, type Operation, type TrackRequest } from './operation.js';
import { resolveDevice } from './resolve.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const gatewayCommands = defineOperation({
  id: 'gateway.commands',
  words: ['gateway', 'commands'],
  area: 'gateway',
  failure: 'Could not list the gateway’s device requests',
  summary: 'List the device requests the gateway supports',
  params: [],
  args: z.object({}),
  role: 'viewer',
  approval: 'never',
  scc: ['getDeviceCommands'],
  examples: ['gateway commands'],
  run: async (ctx) => (await ctx.scc.call('getDeviceCommands', {})).data,
  render: (response) => renderCommandPatterns(response),
});

const FMC_ONLY = {
  kinds: ['fmc'],
  why: 'the gateway sends requests to a Firewall Management Center',
} as const;

/**
 * SCC's device record of an FMC names its domain (`fmcDomainUid`, "FMC device managers only" in the
 * reference): read there, it costs one GET, needs no request through the gateway, and is the domain SCC
 * itself manages the FMC in.
 */
export const gatewayDomain = defineOperation({
  id: 'gateway.domain',
  words: ['gateway', 'domain'],
  area: 'gateway',
  failure: 'Could not read the FMC’s domain UUID',
  summary: 'Show the domain UUID of an FMC, which its configuration paths need',
  params: [{ name: 'fmc-device', kind: 'device', description: 'the FMC, by name or UUID' }],
  args: z.object({ 'fmc-device': text() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getDevice'],
  examples: ['gateway domain cdfmc-acme'],
  run: async (ctx, args) => {
    const found = await resolveDevice(ctx.scc, args['fmc-device'], FMC_ONLY);
    const { data } = await ctx.scc.call('getDevice', { path: { deviceUid: found.uid } });
    return { deviceName: found.name, deviceUid: found.uid, domainUid: data.fmcDomainUid ?? undefined };
  },
  render: (domain) => renderFmcDomain(domain),
});

/** A JSON body, checked here so a typo is caught before the FMC sees it; sent compact. */
const jsonBody = optionalText().pipe(
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      try {
        return JSON.stringify(JSON.parse(value));
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `is not valid JSON (${error instanceof Error ? error.message : 'unreadable'}).`,
        });
        return z.NEVER;
      }
    }),
);

function gatewayTrack(response: CommandResponse, device: DeviceFacts, label: string): TrackRequest[] {
  const waiting = response.status === 'pending' || response.status === 'timeout';
  return waiting && response.requestId
    ? [{ kind: 'gateway', requestId: response.requestId, deviceUid: device.uid, label }]
    : [];
}

export const gatewayRun = defineOperation({
  id: 'gateway.run',
  words: ['gateway', 'run'],
  area: 'gateway',
  failure: 'Could not send the request to the FMC',
  summary: 'Send a request to a cloud-delivered FMC and show its answer',
  params: [
    { name: 'fmc-device', kind: 'device', description: 'the FMC, by name or UUID' },
    { name: 'method', kind: 'choice', choices: HTTP_METHODS, description: 'HTTP method' },
    {
      name: 'link',
      kind: 'word',
      description: 'the FMC API path, e.g. /api/fmc_platform/v1/info/serverversion',
    },
    {
      name: 'json-body',
      kind: 'json',
      optional: true,
      description: 'request body (JSON, the rest of the line)',
    },
    {
      name: 'async',
      kind: 'word',
      flag: true,
      boolean: true,
      description: 'do not wait: fwbot posts the answer later',
    },
  ],
  args: z.object({
    'fmc-device': text(),
    method: z.enum(HTTP_METHODS, { error: `must be one of ${HTTP_METHODS.join(', ')}.` }),
    link: text().pipe(z.string().startsWith('/', 'must be a path starting with /.')),
    'json-body': jsonBody,
    async: flag(),
  }),
  // A request may change the FMC (POST, PUT, DELETE), so the command needs the operator role, and one
  // that is not a GET waits for a second person by default. Every request sent to an FMC is audited.
  role: 'operator',
  approval: { default: 'four-eyes' },
  governs: { which: 'requests other than GET', applies: (args) => args.method !== 'GET' },
  auditEveryCall: true,
  scc: ['executeDeviceCommand', 'getDevice'],
  examples: [
    'gateway run cdfmc-acme GET /api/fmc_platform/v1/info/serverversion',
    'gateway run cdfmc-acme POST /api/fmc_config/v1/domain/<domain>/object/networks {"name":"lab","value":"10.9.0.0/16"}',
    // <domain>: `gateway domain cdfmc-acme` shows it.
  ],
  target: {
    facts: z.object({
      device: DeviceFacts,
      method: z.enum(HTTP_METHODS),
      link: z.string(),
      body: z.string().nullable(),
    }),
    resolve: async (ctx, args) => {
      const device = await resolveDevice(ctx.scc, args['fmc-device'], FMC_ONLY);
      return {
        facts: {
          device: deviceFacts(device),
          method: args.method,
          link: args.link,
          body: args['json-body'] ?? null,
        },
        raw: {
          'fmc-device': device.uid,
          method: args.method,
          link: args.link,
          ...(args['json-body'] === undefined ? {} : { 'json-body': args['json-body'] }),
          async: args.async,
        },
      };
    },
    reread: async (ctx, facts) => {
      const read = await rereadDevice(ctx.scc, facts.device);
      return read.found ? { found: true, facts: { ...facts, device: read.facts } } : read;
    },
    compare: (before, after) => compareDevices(before.device, after.device),
    describe: ({ device, method, link, body }) => ({
      action: `send ${code(`${method} ${link}`)} to the FMC ${code(device.name)}`,
      line: `${method} ${untrusted(link)} on FMC ${untrusted(device.name)}`,
      fields: [
        { label: 'FMC', value: `${device.name} (${device.uid})` },
        { label: 'Request', value: `${method} ${link}` },
        ...(body === null ? [] : [{ label: 'Body', value: body }]),
      ],
      warnings:
        method === 'DELETE' ? [':warning: The FMC deletes what the path names; there is no undo.'] : [],
    }),
  },
  run: async (ctx, args, { device }) => {
    const command = {
      method: args.method,
      link: args.link,
      ...(args['json-body'] ? { body: args['json-body'] } : {}),
    };
    const { data } = await ctx.scc.call('executeDeviceCommand', {
      query: args.async ? { async: true } : {},
      body: { deviceUid: device.uid, request: { commands: [command] } },
    });
    return { device, response: data };
  },
  render: ({ device, response }, args, meta) =>
    renderCommandResponse(response, { method: args.method, link: args.link, deviceName: device.name }, meta),
  track: ({ device, response }, args) =>
    gatewayTrack(response, device, `${args.method} ${args.link} on ${device.name}`),
});

export const gatewayResult = defineOperation({
  id: 'gateway.result',
  words: ['gateway', 'result'],
  area: 'gateway',
  failure: 'Could not read the answer to the gateway request',
  summary: 'Show the answer to an earlier gateway request',
  params: [{ name: 'request-id', kind: 'uuid', description: 'the request ID an earlier `gateway run` gave' }],
  args: z.object({ 'request-id': uuid() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getDeviceCommandResponse'],
  examples: ['gateway result 3fa85f64-5717-4562-b3fc-2c963f66afa6'],
  run: async (ctx, args) =>
    (await ctx.scc.call('getDeviceCommandResponse', { path: { requestId: args['request-id'] } })).data,
  render: (response, _args, meta) => renderCommandResponse(response, undefined, meta),
});

/** The FMC command gateway: this area's operations, in the order help and the command table list them (index.ts). */
export const GATEWAY_OPERATIONS: readonly Operation[] = [
  gatewayCommands,
  gatewayDomain,
  gatewayRun,
  gatewayResult,
];
