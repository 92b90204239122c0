// `channels:` of the FWBOT_PROFILES file: which profile each Slack channel of the home workspace uses, as a
// profile name or, for a customer channel, `{ profile, tenant, tenant_profile }` scoping it to one managed
// tenant of an MSP profile. The same two forms bind a channel of another workspace (workspaces.ts). Their
// schema, the binding fwbot reads, and the row of the configuration reference.
import { z } from 'zod';
import {
  closedObject,
  isObject,
  PROFILE_NAME_RULE,
  type ProfilesFileKey,
  plainWords,
  profileName,
  tenantName,
} from './schemaParts.js';

/**
 * Where a channel's commands go: an SCC profile and, for a customer channel, the managed tenant it is scoped
 * to (a tenant of that MSP profile) and the profile that acts inside that tenant.
 */
export interface ChannelBinding {
  readonly profile: string;
  /** A managed tenant's name: the channel is a customer channel of that tenant. */
  readonly tenant?: string | undefined;
  /** The profile whose token acts inside the tenant (device commands); only with `tenant`. */
  readonly tenantProfile?: string | undefined;
}

/**
 * The object form of a channel binding: a customer channel, scoped to one managed tenant of an MSP profile
 * (`tenant_profile`: the profile whose token acts inside that tenant, for device commands).
 */
const ChannelBindingObjectSchema = closedObject({
  profile: profileName,
  tenant: tenantName.optional(),
  tenant_profile: profileName.optional(),
}).superRefine(
  (binding, ctx) => {
    if (binding.tenant_profile !== undefined && binding.tenant === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['tenant_profile'],
        message:
          'is set without tenant; tenant_profile is the profile of the channel’s tenant, so name the tenant too',
      });
  },
  { when: (payload) => isObject(payload.value) },
);
export type ChannelBindingData = z.output<typeof ChannelBindingObjectSchema>;

/**
 * A channel binding as written: a profile name (`C0123ABCD: acme`) or the object form. The form is chosen by
 * the value's type, so an error speaks about the form that was written (a union would report both).
 */
export const ChannelBindingSchema = z.unknown().transform((value, ctx): ChannelBindingData => {
  if (typeof value === 'string') {
    const name = profileName.safeParse(value);
    if (name.success) return { profile: name.data };
    ctx.addIssue({ code: 'custom', message: PROFILE_NAME_RULE });
    return z.NEVER;
  }
  if (!isObject(value)) {
    const empty = value === null || value === undefined;
    ctx.addIssue({
      code: 'custom',
      message:
        `${empty ? 'is empty; it' : ''} must be a profile name, or a mapping such as { profile: msp, tenant: contoso-eu }`.trim(),
    });
    return z.NEVER;
  }
  const binding = ChannelBindingObjectSchema.safeParse(value, { error: plainWords });
  if (binding.success) return binding.data;
  for (const issue of binding.error.issues) ctx.addIssue({ ...issue, input: undefined });
  return z.NEVER;
});

export const channelKeys: readonly ProfilesFileKey[] = [
  {
    key: 'channels.<channel>',
    description:
      'the profile used in that Slack channel (channels without a binding use the profile `default`), or a customer channel: `{ profile, tenant, tenant_profile }` scopes every command there to one managed tenant of that MSP profile; `tenant_profile` (else a profile named as the tenant, case aside) runs its device commands. See docs/operating/msp.md',
    default: undefined,
    example: 'C0123ABCD: acme',
  },
];

export function bindingFrom(data: ChannelBindingData): ChannelBinding {
  return Object.freeze({
    profile: data.profile,
    ...(data.tenant === undefined ? {} : { tenant: data.tenant }),
    ...(data.tenant_profile === undefined ? {} : { tenantProfile: data.tenant_profile }),
  });
}

export function bindingsFrom(
  data: Readonly<Record<string, ChannelBindingData>> | undefined,
): Map<string, ChannelBinding> {
  return new Map(Object.entries(data ?? {}).map(([channel, binding]) => [channel, bindingFrom(binding)]));
}
