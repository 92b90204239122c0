// Public entry of the SCC simulator: start it in-process (tests, benchmarks) and the names tests use.

export { managementRoute, managementServerName } from './management.js';
export type { SimulatorHandle, StartSimulatorOptions } from './simulator.js';
export { startSimulator } from './simulator.js';
export type { SimState } from './state/model.js';
export { DEFAULT_SEED, DEFAULT_START_TIME } from './state/seed.js';
export { DEVICE_NAMES } from './state/seedInventory.js';
export type { WorldScale } from './state/seedScale.js';
export { DEMO_TOKENS, PORTAL_NAME } from './state/seedTenants.js';
