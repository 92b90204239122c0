// Seeded history of the audit log: each human user's last login, in their tenant's log. Draws from its
// own PRNG, so the rest of the seeded world (and its UIDs) is the same as without it.
import { SeededRandom } from '../random.js';
import type { SimState } from './model.js';

export function seedAuditLogs(state: SimState): void {
  const rng = new SeededRandom(`audit:${state.seed}`);
  for (const tenant of state.tenants.values()) {
    for (const user of tenant.users) {
      if (user.apiOnly || user.lastSuccessfulLogin === undefined) continue;
      state.auditLogs.push({
        uid: rng.uuid(),
        tenantUid: tenant.uid,
        eventType: 'USER_LOGGED_IN',
        username: user.username,
        roles: [user.role],
        eventTime: user.lastSuccessfulLogin,
        eventDescription: `${user.username} logged in`,
      });
    }
  }
  state.auditLogs.sort((a, b) => a.eventTime - b.eventTime);
}
