// The FMC command gateway: POST /command waits for the device up to 70 simulated seconds (then answers
// `timeout` with the requestId) or, with `async`, answers `pending` at once; GET /command/{requestId}
// goes pending → responded and answers 200 even when the device reports an error (inside `data`).

import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { requireWrite } from '../auth.js';
import { notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext, SimResponse } from '../http/context.js';
import { requireBody } from '../http/input.js';
import type { SimRuntime } from '../runtime.js';
import type { GatewayRequestRecord } from '../state/model.js';
import { commandDuration, runCommands, supportedCommands } from './fmcDevice.js';

export const GATEWAY_HARD_LIMIT_MS = 70_000;
/** Answers stay readable this long after the device answered. */
export const GATEWAY_ANSWER_TTL_MS = 3_600_000;
export const TIMEOUT_TEXT =
  "The request timed out due to a hard limit of 70 seconds. You may poll for a belated response using the url provided in the 'data' field";

const pollUrl = (sim: SimRuntime, id: string) => `${sim.baseUrl}/v1/fmc/gateway/command/${id}`;

function respondedBody(sim: SimRuntime, request: GatewayRequestRecord): Model.CommandResponse {
  const answer = request.answer;
  if (answer === undefined) return pendingBody(sim, request);
  return {
    requestId: request.requestId,
    status: 'responded',
    responseOrigin: 'secure-connector',
    data: {
      inResponseTo: {
        command: 'executeFmcRequests',
        deviceType: 'fmc',
        deviceUid: request.deviceUid,
        larUid: sim.state.fmc.larUid,
      },
      responseBody: JSON.stringify(answer.bodies),
      responseStatus: answer.responseStatus,
      tenantUid: request.tenantUid,
    },
  };
}

function pendingBody(sim: SimRuntime, request: GatewayRequestRecord): Model.CommandResponse {
  return {
    requestId: request.requestId,
    status: 'pending',
    responseOrigin: 'device-gateway-api',
    message: `The device has not answered yet; poll ${pollUrl(sim, request.requestId)}`,
  };
}

export const executeDeviceCommand: Handler = (ctx) => {
  const input = requireBody(ctx, Input.DeviceGatewayApiRequest);
  // Reading through the gateway is fine for read-only users; anything else changes the device.
  if (input.request.commands.some((c) => c.method.toUpperCase() !== 'GET')) requireWrite(ctx.principal);
  const { sim, state } = ctx;
  const device = state.devices.get(input.deviceUid.toLowerCase());
  const requestId = state.rng.uuid();
  if (device === undefined || device.tenantUid !== ctx.principal.tenant.uid || device.kind !== 'CDFMC') {
    const body: Model.CommandResponse = {
      requestId,
      status: 'failed',
      responseOrigin: 'device-gateway-api',
      message: `Device ${input.deviceUid} is not a registered FMC of this tenant (only FMC devices are supported)`,
    };
    return { status: 200, body };
  }
  const request: GatewayRequestRecord = {
    requestId,
    tenantUid: ctx.principal.tenant.uid,
    deviceUid: device.device.uid,
    submittedAt: ctx.now,
    readyAt: ctx.now + sim.clock.span(commandDuration(state.seed, input.request.commands)),
  };
  state.gatewayRequests.set(requestId, request);
  // The device does the work when it gets to it, so its effects land at readyAt.
  sim.clock.schedule(request.readyAt, () => {
    if (sim.state === state) request.answer = runCommands(state, input.request.commands);
  });

  const asyncFlag = ctx.query.get('async');
  if (asyncFlag !== null && asyncFlag.toLowerCase() !== 'false')
    return { status: 200, body: pendingBody(sim, request) };
  return waitForDevice(ctx, request);
};

/** Parks the HTTP request on the simulated clock until the device answers or the hard limit passes. */
function waitForDevice(ctx: RequestContext, request: GatewayRequestRecord): Promise<SimResponse> {
  const { sim } = ctx;
  const deadline = Math.min(request.readyAt, request.submittedAt + sim.clock.span(GATEWAY_HARD_LIMIT_MS));
  return new Promise((resolve) => {
    const cancel = sim.clock.schedule(deadline, () => {
      unpark();
      if (request.answer !== undefined) {
        resolve({ status: 200, body: respondedBody(sim, request) });
        return;
      }
      const body: Model.CommandResponse = {
        requestId: request.requestId,
        status: 'timeout',
        responseOrigin: 'device-gateway-api',
        data: TIMEOUT_TEXT,
        message: `Poll ${pollUrl(sim, request.requestId)} for the belated response`,
      };
      resolve({ status: 200, body });
    });
    const unpark = sim.parked.park(() => {
      cancel();
      const body: Model.CommandResponse = {
        requestId: request.requestId,
        status: 'failed',
        responseOrigin: 'device-gateway-api',
        message: 'The simulator was reset while the command was running',
      };
      resolve({ status: 200, body });
    });
  });
}

export const getDeviceCommandResponse: Handler = (ctx) => {
  const id = (ctx.params.requestId ?? '').toLowerCase();
  const request = ctx.state.gatewayRequests.get(id);
  if (request !== undefined && ctx.now >= request.readyAt + ctx.sim.clock.span(GATEWAY_ANSWER_TTL_MS))
    ctx.state.gatewayRequests.delete(id);
  else if (request !== undefined && request.tenantUid === ctx.principal.tenant.uid) {
    return { status: 200, body: respondedBody(ctx.sim, request) };
  }
  throw notFound(`No command request ${id}`, { requestId: { value: id } });
};

export const getDeviceCommands: Handler = () => {
  const body: Model.CommandResponse = {
    status: 'responded',
    responseOrigin: 'device-gateway-api',
    message: 'Supported device command endpoint patterns',
    data: { deviceTypes: ['CDFMC'], supportedCommands: supportedCommands() },
  };
  return { status: 200, body };
};

/** The command gateway: this file's handlers, which the table (operations.ts) spreads. */
export const gatewayHandlers = {
  executeDeviceCommand,
  getDeviceCommandResponse,
  getDeviceCommands,
} satisfies Partial<OperationHandlers>;
