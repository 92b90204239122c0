// Staged changes on an ASA: both configurations (getAsaConfiguration), the commands a deploy would run
// (calculated asynchronously, then cached briefly: 404 before, while it runs and once expired), and "read
// configuration", which replaces SCC's copy with the device's and so throws staged changes away.
import type * as Model from '../../scc/generated/models.js';
import { requireWrite } from '../auth.js';
import { notFound } from '../errors.js';
import type { Handler, OperationHandlers } from '../http/context.js';
import { commandsOf } from '../state/asaCli.js';
import {
  asaConfigOf,
  configOnCloud,
  configOnDevice,
  pendingBlocks,
  readRunningConfig,
} from '../state/asaConfig.js';
import { deviceOfKind } from './devices.js';
import { accepted, startTransaction } from './transactions.js';

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

const calculateAsaCommandsToApplyPendingChanges: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const device = deviceOfKind(ctx, 'ASA');
  const { sim, state } = ctx;
  const tx = startTransaction(sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'CALCULATE_ASA_CONFIG_COMMANDS',
    entityUid: device.device.uid,
    entityUrl: deviceUrl(sim.baseUrl, device.device.uid),
    pendingMs: CALCULATION_MS.pending,
    runningMs: CALCULATION_MS.running,
    finish: () => {
      // The commands of SCC's copy as it is when the calculation finishes.
      const blocks = pendingBlocks(state, device);
      asaConfigOf(state, device.device.uid).calculated = {
        status: blocks.some((b) => b.unsupported) ? 'UNSUPPORTED_COMMANDS' : 'SUCCESS',
        commands: commandsOf(blocks),
        expiresAt: sim.clock.now() + PENDING_COMMANDS_TTL_MS,
      };
      return { ok: true };
    },
  });
  return accepted(sim, tx);
};

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

const readAsaDeviceConfiguration: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const device = deviceOfKind(ctx, 'ASA');
  const { sim, state } = ctx;
  const tx = startTransaction(sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'READ_ASA',
    entityUid: device.device.uid,
    entityUrl: deviceUrl(sim.baseUrl, device.device.uid),
    pendingMs: READ_MS.pending,
    runningMs: READ_MS.running,
    finish: () => {
      const connectivity = device.device.connectivityState ?? 'UNKNOWN';
      if (connectivity !== 'ONLINE') {
        return {
          ok: false,
          errorMessage: `Could not read the configuration of ${device.device.name}: the device is ${connectivity}`,
          errorDetails: { [device.device.uid]: `connectivityState ${connectivity}` },
        };
      }
      readRunningConfig(state, device);
      return { ok: true };
    },
  });
  return accepted(sim, tx);
};

export const changeHandlers = {
  getAsaConfiguration,
  calculateAsaCommandsToApplyPendingChanges,
  getAsaCommandsToApplyPendingChanges,
  readAsaDeviceConfiguration,
} satisfies Partial<OperationHandlers>;
