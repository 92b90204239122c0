// Admin routes for what an administrator sets in SCC's UI about change governance: a tenant's settings
// (whether it tracks change requests, whether it schedules deployments), a device's maintenance window
// (set or cleared), and closing a change request (changes are no longer tied to it).
import { z } from 'zod';
import { governanceOf, tenantSettingsDto } from '../api/governance.js';
import { invalidInput, notFound } from '../errors.js';
import type { SimRuntime } from '../runtime.js';
import { maintenanceWindowDto, parseCron } from '../state/maintenanceWindow.js';
import { type AddRoute, findDevice, findTenant, parse } from './request.js';

const SettingsInput = z
  .object({
    changeRequestSupport: z.boolean().optional(),
    scheduledDeployments: z.boolean().optional(),
    objectSharingEnabled: z.boolean().optional(),
  })
  .strict();
const WindowInput = z
  .object({
    /** Five cron fields, read in UTC: `0 22 * * 6` opens Saturdays at 22:00. */
    startCron: z.string().min(1).max(100),
    durationMinutes: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60),
  })
  .strict();

export const GOVERNANCE_ROUTES = [
  [
    'POST',
    '/_sim/tenants/{tenant}/settings',
    "change a tenant's settings (getTenantSettings): {changeRequestSupport?, scheduledDeployments?, objectSharingEnabled?}",
  ],
  [
    'PUT',
    '/_sim/devices/{device}/maintenance-window',
    "set a device's maintenance window: {startCron (5 fields, UTC), durationMinutes}",
  ],
  ['DELETE', '/_sim/devices/{device}/maintenance-window', "clear a device's maintenance window"],
  [
    'POST',
    '/_sim/change-requests/{uid}/close',
    'close a change request: later deploys naming it are no longer tied to it',
  ],
] as const;

export function addGovernanceRoutes(add: AddRoute, sim: SimRuntime): void {
  add('POST', '/_sim/tenants/{tenant}/settings', async (r) => {
    const tenant = findTenant(sim.state, r.params.tenant ?? '');
    const input = await parse(r, SettingsInput);
    const current = governanceOf(sim.state, tenant.uid);
    sim.state.tenantSettings.set(tenant.uid, {
      changeRequestSupport: input.changeRequestSupport ?? current.changeRequestSupport,
      scheduledDeployments: input.scheduledDeployments ?? current.scheduledDeployments,
      objectSharing: input.objectSharingEnabled ?? current.objectSharing,
    });
    return { status: 200, body: tenantSettingsDto(sim.state, tenant) };
  });

  add('PUT', '/_sim/devices/{device}/maintenance-window', async (r) => {
    const device = findDevice(sim.state, r.params.device ?? '');
    const input = await parse(r, WindowInput);
    try {
      parseCron(input.startCron);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw invalidInput(`Invalid startCron: ${message}`, { startCron: { message, value: input.startCron } });
    }
    device.maintenanceWindow = { startCron: input.startCron.trim(), durationMinutes: input.durationMinutes };
    return {
      status: 200,
      body: {
        device: device.device.name,
        deviceMaintenanceWindow: maintenanceWindowDto(device.maintenanceWindow, sim.clock.now()),
      },
    };
  });

  add('DELETE', '/_sim/devices/{device}/maintenance-window', (r) => {
    const device = findDevice(sim.state, r.params.device ?? '');
    delete device.maintenanceWindow;
    return { status: 204 };
  });

  add('POST', '/_sim/change-requests/{uid}/close', (r) => {
    const record = sim.state.changeRequests.get((r.params.uid ?? '').toLowerCase());
    if (record === undefined) throw notFound(`No change request ${r.params.uid ?? ''}`);
    record.closedAt ??= sim.clock.now();
    return { status: 200, body: { uid: record.uid, name: record.name, closedAt: record.closedAt } };
  });
}
