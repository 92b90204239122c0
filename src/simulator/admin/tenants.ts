// Admin route that adds a tenant to the MSP portal at once, as if made in SCC's UI long ago (no 30-second
// pacing, no transaction to follow): for worlds the seed does not hold, such as two tenants whose names
// differ only in `-` or `_` (`northwind-us` and `northwind_us`), which SCC allows, since tenant names are
// unique ignoring case only. A name taken ignoring case is refused as SCC refuses it (409).
import { z } from 'zod';
import { conflict } from '../errors.js';
import type { SimRuntime } from '../runtime.js';
import { managedTenant } from '../state/seedTenants.js';
import { type AddRoute, parse } from './request.js';

const REGIONS = ['US', 'EU', 'APJ', 'AUS', 'IN', 'UAE'] as const;

const TenantInput = z
  .object({
    /** SCC's rule for tenant names: 1–50 of letters, digits, `-` and `_`. */
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,50}$/),
    displayName: z.string().min(1).max(100).optional(),
    region: z.enum(REGIONS).optional(),
  })
  .strict();

export const TENANT_ROUTES = [
  [
    'POST',
    '/_sim/tenants',
    'add a tenant to the MSP portal at once (SCC refuses a name taken ignoring case: 409): {name, displayName?, region?}',
  ],
] as const;

export function addTenantRoutes(add: AddRoute, sim: SimRuntime): void {
  add('POST', '/_sim/tenants', async (r) => {
    const input = await parse(r, TenantInput);
    const { state } = sim;
    const wanted = input.name.toLowerCase();
    if ([...state.tenants.values()].some((t) => t.name.toLowerCase() === wanted))
      throw conflict(`A tenant named ${input.name} already exists`, { tenantName: { value: input.name } });
    const tenant = managedTenant(
      state.rng,
      { name: input.name, displayName: input.displayName ?? input.name, region: input.region ?? 'US' },
      sim.clock.now(),
    );
    state.tenants.set(tenant.uid, tenant);
    return {
      status: 201,
      body: { uid: tenant.uid, name: tenant.name, displayName: tenant.displayName, region: tenant.region },
    };
  });
}
