// `profiles.<name>.legacy_tenant_removal`: a profile whose SCC predates revokeTenantFromMspPortal says so,
// and that profile's SCC client answers `offers` with false for it (tenants remove then uses the DELETE).
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createSccClients } from '../../src/app/sccClients.js';
import { loadConfig } from '../../src/config.js';
import { fake, issuesOf, ProfilesFiles } from './support.js';

const files = new ProfilesFiles();
afterAll(() => files.cleanup());

const env = { ACME_SCC_TOKEN: fake.acmeToken, LAB_SCC_TOKEN: fake.labToken };
const yaml = [
  'profiles:',
  '  acme: { region: eu, token_env: ACME_SCC_TOKEN, legacy_tenant_removal: true }',
  '  lab: { region: us, token_env: LAB_SCC_TOKEN }',
].join('\n');

describe('profiles.<name>.legacy_tenant_removal', () => {
  it('marks the revoke as missing from that profile’s SCC only', async () => {
    const config = loadConfig({ ...env, FWBOT_PROFILES: await files.write(yaml) });
    expect(config.profiles.get('acme')?.lacks).toEqual(['revokeTenantFromMspPortal']);
    expect(config.profiles.get('lab')?.lacks).toBeUndefined();

    const clients = createSccClients(config.profiles, { log: pino({ level: 'silent' }) });
    try {
      expect(clients.get('acme').offers('revokeTenantFromMspPortal')).toBe(false);
      expect(clients.get('acme').offers('removeTenantFromMspPortal')).toBe(true);
      expect(clients.get('lab').offers('revokeTenantFromMspPortal')).toBe(true);
    } finally {
      await clients.close();
    }
  });

  it('takes true or false, nothing else', async () => {
    const bad =
      'profiles:\n  acme: { region: eu, token_env: ACME_SCC_TOKEN, legacy_tenant_removal: yes-please }\n';
    const issues = issuesOf({ ...env, FWBOT_PROFILES: await files.write(bad) });
    expect(issues.map((i) => i.key)).toContain('profiles.acme.legacy_tenant_removal');
  });
});
