// `profiles:` of the FWBOT_PROFILES file: named SCC accounts, each a region or a base URL and the name of
// the environment variable holding its token (never the token), and whether its SCC still lacks the
// revocation call. Its schema, its rows of the configuration reference, and the profiles it yields once the
// reader (profilesFile.ts) has read each token from the environment.
import { z } from 'zod';
import { checkRegion, checkSccBaseUrl, type SccProfile, sccBaseUrlForRegion } from '../endpoints.js';
import { variableNames } from '../environment.js';
import { checkedString } from '../issues.js';
import type { Secret } from '../secret.js';
import { closedObject, isObject, type ProfilesFileKey } from './schemaParts.js';

const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;

/** Whether a token_env value may name the variable holding a profile's token. */
export function isTokenVariableName(name: string): boolean {
  return ENV_NAME.test(name) && !isOwnSettingOtherThanToken(name);
}

// SCC_API_TOKEN may be shared with a file profile; fwbot's other variables hold something else entirely.
function isOwnSettingOtherThanToken(name: string): boolean {
  return name !== 'SCC_API_TOKEN' && (variableNames as readonly string[]).includes(name);
}

const tokenEnv = z
  .string()
  .regex(ENV_NAME, 'must be the name of an environment variable (capital letters, digits and _), not a token')
  .refine((name) => !isOwnSettingOtherThanToken(name), {
    message: 'names one of fwbot’s own settings, which holds something other than this profile’s SCC token',
  });

export const ProfileSchema = closedObject({
  region: checkedString(checkRegion).optional(),
  base_url: checkedString(checkSccBaseUrl).optional(),
  token_env: tokenEnv,
  legacy_tenant_removal: z.boolean().optional(),
}).superRefine(
  (profile, ctx) => {
    const hasRegion = profile.region !== undefined;
    const hasBaseUrl = profile.base_url !== undefined;
    if (hasRegion && hasBaseUrl)
      ctx.addIssue({ code: 'custom', message: 'sets both region and base_url; keep one' });
    if (!hasRegion && !hasBaseUrl)
      ctx.addIssue({ code: 'custom', message: 'needs either region or base_url' });
  },
  { when: (payload) => isObject(payload.value) },
);
type ProfileData = z.output<typeof ProfileSchema>;

export const profileKeys: readonly ProfilesFileKey[] = [
  {
    key: 'profiles.<name>.region',
    description: 'SCC region of the profile: us, eu, apj, au, in or uae (set this or base_url)',
    default: undefined,
    example: 'region: eu',
  },
  {
    key: 'profiles.<name>.base_url',
    description: 'SCC base URL instead of a region (https, or http to a loopback address)',
    default: undefined,
    example: 'base_url: https://scc-proxy.example.net/firewall',
  },
  {
    key: 'profiles.<name>.token_env',
    description: 'name of the environment variable that holds the profile’s SCC API token',
    default: undefined,
    example: 'token_env: ACME_SCC_TOKEN',
  },
  {
    key: 'profiles.<name>.legacy_tenant_removal',
    description:
      'the profile’s SCC lacks revokeTenantFromMspPortal: `tenants remove` uses the deprecated DELETE there (answered at once, not followed)',
    default: 'false',
    example: 'legacy_tenant_removal: true',
  },
];

/** The file's profiles, each with the token read for it (`tokens`, by profile name). */
export function profilesFrom(
  data: Readonly<Record<string, ProfileData>> | undefined,
  tokens: ReadonlyMap<string, Secret>,
): SccProfile[] {
  const profiles: SccProfile[] = [];
  for (const [name, profile] of Object.entries(data ?? {})) {
    const token = tokens.get(name);
    const endpoint =
      profile.base_url !== undefined
        ? { baseUrl: profile.base_url }
        : profile.region !== undefined
          ? { baseUrl: sccBaseUrlForRegion(profile.region), region: profile.region }
          : undefined;
    // A profile without a usable token or endpoint was reported by the reader, and then we never get here.
    if (token === undefined || endpoint === undefined) continue;
    profiles.push(
      Object.freeze({
        name,
        ...endpoint,
        token,
        tokenVariable: profile.token_env,
        source: 'file' as const,
        ...(profile.legacy_tenant_removal === true ? { lacks: ['revokeTenantFromMspPortal' as const] } : {}),
      }),
    );
  }
  return profiles;
}
