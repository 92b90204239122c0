// Staged changes on an ASA: both configurations (getAsaConfiguration), the commands a deploy would run
// (calculated asynchronously, then cached briefly: 404 before, while it runs and once expired), and "read
// configuration", which replaces SCC's copy with the device's and so throws staged changes away.
import type * as Model from '../../scc/generated/models.js';
import { requireWrite } from '../auth.js';
import { notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext, SimResponse } from '../http/context.js';
import { commandsOf } from '../state/asaCli.js';
import {
  asaConfigOf,
  configOnCloud,
  configOnDevice,
  pendingBlocks,
  readRunningConfig,
} from '../state/asaConfig.js';
import type { DeviceRecord, TransactionType } from '../state/model.js';
import { deviceOfKind } from './devices.js';
import { accepted, startTransaction, type TransactionOutcome } from './transactions.js';

/** Calculation: 1 s pending, 3 s running. */
export const CALCULATION_MS = { pending: 1_000, running: 3_000 } as const;
/** How long calculated commands stay readable after the calculation finished. */
export const PENDING_COMMANDS_TTL_MS = 5 * 60_000;
/** Read configuration: 1 s pending, 8 s running. */
export const READ_MS = { pending: 1_000, running: 8_000 } as const;

const deviceUrl = (base: string, uid: string) => `${base}/v1/inventory/devices/${uid}`;

const getAsaConfiguration: Handler = (ctx) => {
  const device = deviceOfKind(ctx, 'ASA');
  const body: Model.AsaConfig = {
    configOnDevice: configOnDevice(ctx.state, device),
    configOnCloud: configOnCloud(ctx.state, device),
  };
  return { status: 200, body };
};

/**
 * Work SCC does on the ASA a path names, for a caller who may write: answered 202 with its transaction,
 * which spends `timing` pending then running, and ends as `finish` decides.
 */
function asaTransaction(
  ctx: RequestContext,
  type: TransactionType,
  timing: { pending: number; running: number },
  finish: (device: DeviceRecord) => TransactionOutcome,
): SimResponse {
  requireWrite(ctx.principal);
  const device = deviceOfKind(ctx, 'ASA');
  const tx = startTransaction(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type,
    entityUid: device.device.uid,
    entityUrl: deviceUrl(ctx.sim.baseUrl, device.device.uid),
    pendingMs: timing.pending,
    runningMs: timing.running,
    finish: () => finish(device),
  });
  return accepted(ctx.sim, tx);
}

const calculateAsaCommandsToApplyPendingChanges: Handler = (ctx) =>
  asaTransaction(ctx, 'CALCULATE_ASA_CONFIG_COMMANDS', CALCULATION_MS, (device) => {
    // The commands of SCC's copy as it is when the calculation finishes.
    const blocks = pendingBlocks(ctx.state, device);
    asaConfigOf(ctx.state, device.device.uid).calculated = {
      status: blocks.some((b) => b.unsupported) ? 'UNSUPPORTED_COMMANDS' : 'SUCCESS',
      commands: commandsOf(blocks),
      expiresAt: ctx.sim.clock.now() + ctx.sim.clock.span(PENDING_COMMANDS_TTL_MS),
    };
    return { ok: true };
  });

const getAsaCommandsToApplyPendingChanges: Handler = (ctx) => {
  const device = deviceOfKind(ctx, 'ASA');
  const record = asaConfigOf(ctx.state, device.device.uid);
  let calculated = record.calculated;
  if (calculated !== undefined && ctx.now >= calculated.expiresAt) {
    delete record.calculated;
    calculated = undefined;
  }
  if (calculated === undefined) {
    throw notFound(
      `No calculated commands for device ${device.device.name}: calculate them first (they are kept ${PENDING_COMMANDS_TTL_MS / 60_000} minutes)`,
      { deviceUid: { value: device.device.uid } },
    );
  }
  const body: Model.AsaConfigCommandsDto = {
    deviceUid: device.device.uid,
    status: calculated.status,
    configCommands: [...calculated.commands],
  };
  return { status: 200, body };
};

const readAsaDeviceConfiguration: Handler = (ctx) =>
  asaTransaction(ctx, 'READ_ASA', READ_MS, (device) => {
    const connectivity = device.device.connectivityState ?? 'UNKNOWN';
    if (connectivity !== 'ONLINE') {
      return {
        ok: false,
        errorMessage: `Could not read the configuration of ${device.device.name}: the device is ${connectivity}`,
        errorDetails: { [device.device.uid]: `connectivityState ${connectivity}` },
      };
    }
    readRunningConfig(ctx.state, device, { username: ctx.principal.username, at: ctx.sim.clock.now() });
    return { ok: true };
  });

export const changeHandlers = {
  getAsaConfiguration,
  calculateAsaCommandsToApplyPendingChanges,
  getAsaCommandsToApplyPendingChanges,
  readAsaDeviceConfiguration,
} satisfies Partial<OperationHandlers>;
