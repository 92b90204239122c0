// The cloud-delivered FMC behind the command gateway: the endpoint patterns it supports, how long each
// takes (one is deliberately slower than the gateway's 70-second limit) and what it answers, including
// FMC-style errors for unknown objects and for commands outside the supported patterns.
import type { Command } from '../../scc/generated/inputs.js';
import { hashString } from '../random.js';
import type { DeviceAnswer, FmcObject, FmcState, SimState } from '../state/model.js';

interface FmcReply {
  status: number;
  body: unknown;
}

interface CommandPattern {
  method: string;
  pattern: string;
  durationMs: number;
  run: (fmc: FmcState, params: Record<string, string>, body: unknown) => FmcReply;
}

/** Simulated time the deliberately slow command takes: beyond the 70 s a synchronous call waits. */
export const SLOW_COMMAND_MS = 95_000;
export const SLOW_COMMAND_LINK = '/api/fmc_config/v1/domain/{domainUUID}/deployment/deployabledevices';
const UNSUPPORTED_MS = 500;

export function fmcError(status: number, description: string): FmcReply {
  return {
    status,
    body: { error: { category: 'FRAMEWORK', messages: [{ description }], severity: 'ERROR' } },
  };
}

function page(items: readonly FmcObject[]): unknown {
  return { items, paging: { offset: 0, limit: 1000, count: items.length, pages: 1 } };
}

function one(items: readonly FmcObject[], id: string | undefined, what: string): FmcReply {
  const found = items.find((o) => o.id.toLowerCase() === (id ?? '').toLowerCase());
  return found === undefined ? fmcError(404, `${what} ${id ?? ''} not found`) : { status: 200, body: found };
}

const CONFIG = '/api/fmc_config/v1/domain/{domainUUID}';

const PATTERNS: CommandPattern[] = [
  {
    method: 'GET',
    pattern: '/api/fmc_platform/v1/info/serverversion',
    durationMs: 1_000,
    run: (fmc) => ({
      status: 200,
      body: {
        items: [{ serverVersion: fmc.serverVersion, type: 'ServerVersion' }],
        paging: { offset: 0, limit: 1, count: 1, pages: 1 },
      },
    }),
  },
  {
    method: 'GET',
    pattern: `${CONFIG}/object/networks`,
    durationMs: 2_000,
    run: (fmc) => ({ status: 200, body: page(fmc.networks) }),
  },
  {
    method: 'GET',
    pattern: `${CONFIG}/object/networks/{objectId}`,
    durationMs: 1_000,
    run: (fmc, p) => one(fmc.networks, p.objectId, 'Network object'),
  },
  { method: 'POST', pattern: `${CONFIG}/object/networks`, durationMs: 3_000, run: createNetwork },
  {
    method: 'GET',
    pattern: `${CONFIG}/object/dynamicobjects`,
    durationMs: 2_000,
    run: (fmc) => ({ status: 200, body: page(fmc.dynamicObjects) }),
  },
  {
    method: 'GET',
    pattern: `${CONFIG}/object/dynamicobjects/{objectId}`,
    durationMs: 1_000,
    run: (fmc, p) => one(fmc.dynamicObjects, p.objectId, 'Dynamic object'),
  },
  {
    method: 'GET',
    pattern: `${CONFIG}/object/dynamicobjects/{objectId}/mappings`,
    durationMs: 1_500,
    run: (fmc, p) => {
      const mappings = fmc.dynamicObjectMappings.get(p.objectId?.toUpperCase() ?? '');
      if (mappings === undefined) return fmcError(404, `Dynamic object ${p.objectId ?? ''} not found`);
      return {
        status: 200,
        body: { items: mappings.map((mapping) => ({ mapping })), paging: { count: mappings.length } },
      };
    },
  },
  {
    method: 'POST',
    pattern: `${CONFIG}/object/dynamicobjects/{objectId}/mappings`,
    durationMs: 2_500,
    run: addMappings,
  },
  {
    method: 'GET',
    pattern: `${CONFIG}/devices/devicerecords`,
    durationMs: 2_000,
    run: (fmc) => ({ status: 200, body: page(fmc.deviceRecords) }),
  },
  {
    method: 'GET',
    pattern: `${CONFIG}/policy/accesspolicies`,
    durationMs: 2_000,
    run: (fmc) => ({ status: 200, body: page(fmc.accessPolicies) }),
  },
  {
    method: 'GET',
    pattern: SLOW_COMMAND_LINK,
    durationMs: SLOW_COMMAND_MS,
    run: (fmc) => ({
      status: 200,
      body: page(
        fmc.deviceRecords.map((d) => ({
          id: d.id,
          name: d.name,
          type: 'DeployableDevice',
          canBeDeployed: true,
        })),
      ),
    }),
  },
];

/** What listcommands answers: the supported method and link patterns. */
export function supportedCommands(): { method: string; pattern: string }[] {
  return PATTERNS.map(({ method, pattern }) => ({ method, pattern }));
}

function matchLink(pattern: string, link: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = (link.split('?')[0] ?? '').replace(/\/+$/, '').split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    const name = /^\{(\w+)\}$/.exec(w)?.[1];
    if (name !== undefined) {
      if (g === '') return undefined;
      params[name] = g;
    } else if (w !== g) return undefined;
  }
  return params;
}

function findPattern(
  command: Command,
): { pattern: CommandPattern; params: Record<string, string> } | undefined {
  for (const pattern of PATTERNS) {
    if (pattern.method !== command.method.toUpperCase()) continue;
    const params = matchLink(pattern.pattern, command.link);
    if (params !== undefined) return { pattern, params };
  }
  return undefined;
}

/** How long the device takes for these commands: fixed per pattern plus a small seeded jitter. */
export function commandDuration(seed: string, commands: readonly Command[]): number {
  return commands.reduce((total, c) => {
    const base = findPattern(c)?.pattern.durationMs ?? UNSUPPORTED_MS;
    return total + base + (hashString(`${seed}:${c.method}:${c.link}`) % 400);
  }, 0);
}

/** Runs the commands against the FMC, in order, when the device gets to them. */
export function runCommands(state: SimState, commands: readonly Command[]): DeviceAnswer {
  const bodies: unknown[] = [];
  let ok = true;
  for (const command of commands) {
    const found = findPattern(command);
    let reply: FmcReply;
    if (found === undefined) {
      reply = fmcError(
        404,
        `Unsupported command: ${command.method.toUpperCase()} ${command.link} matches no supported endpoint pattern`,
      );
    } else if (
      found.params.domainUUID !== undefined &&
      found.params.domainUUID.toLowerCase() !== state.fmc.domainUid
    ) {
      reply = fmcError(404, `Domain ${found.params.domainUUID} not found`);
    } else {
      let body: unknown;
      try {
        body =
          command.body === undefined || command.body === null || command.body === ''
            ? undefined
            : JSON.parse(command.body);
        reply = found.pattern.run(state.fmc, found.params, body);
      } catch {
        reply = fmcError(400, 'The command body is not valid JSON');
      }
    }
    if (reply.status >= 400) ok = false;
    bodies.push(reply.body);
  }
  return { responseStatus: ok ? 'SUCCESS' : 'ERROR', bodies };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function createNetwork(fmc: FmcState, _params: Record<string, string>, body: unknown): FmcReply {
  if (!isRecord(body) || typeof body.name !== 'string' || typeof body.value !== 'string') {
    return fmcError(400, 'A network object needs a name and a value');
  }
  const name = body.name;
  if (fmc.networks.some((n) => n.name === name))
    return fmcError(400, `The object name ${name} already exists`);
  const id = `0050568A-${hashString(`${name}:${fmc.networks.length}`).toString(16).padStart(8, '0').toUpperCase()}`;
  const created: FmcObject = { id, name, type: 'Network', value: body.value, overridable: false };
  fmc.networks.push(created);
  return { status: 201, body: created };
}

function addMappings(fmc: FmcState, params: Record<string, string>, body: unknown): FmcReply {
  const mappings = fmc.dynamicObjectMappings.get(params.objectId?.toUpperCase() ?? '');
  if (mappings === undefined) return fmcError(404, `Dynamic object ${params.objectId ?? ''} not found`);
  if (
    !isRecord(body) ||
    !Array.isArray(body.mappings) ||
    !body.mappings.every((m) => typeof m === 'string')
  ) {
    return fmcError(400, 'Expected {"mappings": ["<ip>", …]}');
  }
  for (const m of body.mappings as string[]) if (!mappings.includes(m)) mappings.push(m);
  return { status: 201, body: { items: mappings.map((mapping) => ({ mapping })) } };
}
