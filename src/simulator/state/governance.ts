// A tenant's governance in the simulator, as state: its settings (whether it tracks change requests and
// schedules deployments) and which open change request a deploy's description names. Apart from the API
// handlers (api/governance.ts), so the deploy handlers can tie their change-log events without importing them.
import type { ChangeRequestRef, GovernanceSettings, SimState } from './model.js';

/** What a tenant answers until an admin route changes it: SCC's own defaults for a new tenant. */
export const DEFAULT_GOVERNANCE: GovernanceSettings = {
  changeRequestSupport: false,
  scheduledDeployments: false,
  objectSharing: false,
};

export function governanceOf(state: SimState, tenantUid: string): GovernanceSettings {
  return state.tenantSettings.get(tenantUid) ?? DEFAULT_GOVERNANCE;
}

/** The OPEN change request of the tenant a deploy description names (`<name>: …`), if any. */
export function changeRequestNamedBy(
  state: SimState,
  tenantUid: string,
  description: string | undefined,
): ChangeRequestRef | undefined {
  if (description === undefined) return undefined;
  for (const cr of state.changeRequests.values()) {
    if (cr.tenantUid !== tenantUid || cr.closedAt !== undefined) continue;
    if (description.startsWith(`${cr.name}:`)) return { uid: cr.uid, name: cr.name };
  }
  return undefined;
}
