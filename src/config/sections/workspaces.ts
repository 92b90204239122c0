// `workspaces:` of the FWBOT_PROFILES file (OAuth mode): for each other workspace (or Grid organization)
// that installed fwbot, the profile and tenant its channels use when not bound, its own channel bindings in
// the forms of channels.ts, and its own policy in the keys of policy.ts (the top-level policy is the home
// workspace's and does not apply there). Its schema, settings and rows of the configuration reference.
import { z } from 'zod';
import type { RolePolicy } from '../policy.js';
import { bindingFrom, bindingsFrom, type ChannelBinding, ChannelBindingSchema } from './channels.js';
import { PolicySchema, policyFrom } from './policy.js';
import {
  channelId,
  closedObject,
  isObject,
  type ProfilesFileKey,
  profileName,
  tenantName,
} from './schemaParts.js';

/** `workspaces.<team>`: a workspace other than the home workspace that installed fwbot (OAuth mode). */
export interface WorkspaceSettings {
  /** The team id (T…) or, for an org-wide install, the Enterprise Grid organization id (E…). */
  readonly teamId: string;
  /** What its channels use when they are not bound in `channels`. */
  readonly binding: ChannelBinding;
  /** Its own channel bindings. */
  readonly channels: ReadonlyMap<string, ChannelBinding>;
  /** Its own grants; null: nobody holds a role there. The home workspace's policy never applies. */
  readonly policy: RolePolicy | null;
}

/**
 * `workspaces.<team>`: another workspace (or Grid organization) that installed fwbot (OAuth mode): the
 * profile and tenant its channels use when not bound below, its own channel bindings, and its own policy
 * (the top-level policy is the home workspace's and does not apply there).
 */
export const WorkspaceSchema = closedObject({
  profile: profileName,
  tenant: tenantName.optional(),
  tenant_profile: profileName.optional(),
  channels: z.record(channelId, ChannelBindingSchema).optional(),
  policy: PolicySchema.optional(),
}).superRefine(
  (workspace, ctx) => {
    if (workspace.tenant_profile !== undefined && workspace.tenant === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['tenant_profile'],
        message:
          'is set without tenant; tenant_profile is the profile of the workspace’s tenant, so name the tenant too',
      });
  },
  { when: (payload) => isObject(payload.value) },
);
type WorkspaceData = z.output<typeof WorkspaceSchema>;

export const workspaceKeys: readonly ProfilesFileKey[] = [
  {
    key: 'workspaces.<team>.profile',
    description:
      'OAuth mode: the profile used in the channels of another workspace (T…, or E… for an Enterprise Grid org-wide install) that installed fwbot, when they are not bound under its `channels`. A workspace with no entry gets nobody’s roles',
    default: undefined,
    example: 'profile: msp',
  },
  {
    key: 'workspaces.<team>.tenant',
    description:
      'the managed tenant (of that profile) every channel of the workspace is scoped to, as in `channels`',
    default: 'none: not scoped to a tenant',
    example: 'tenant: contoso-eu',
  },
  {
    key: 'workspaces.<team>.tenant_profile',
    description: 'the profile that runs device commands inside the workspace’s tenant, as in `channels`',
    default: 'a profile named as the tenant',
    example: 'tenant_profile: contoso',
  },
  {
    key: 'workspaces.<team>.channels.<channel>',
    description: 'a channel binding in that workspace, in the same two forms as `channels.<channel>`',
    default: 'the workspace’s profile and tenant',
    example: 'C0123ABCD: { profile: msp, tenant: contoso-eu }',
  },
  {
    key: 'workspaces.<team>.policy',
    description:
      'the grants in that workspace, with the same keys as `policy`; the top-level `policy` is the home workspace’s and does not apply there',
    default: 'nobody holds a role',
    example: "policy: { workspace: { viewer: ['*'] } }",
  },
];

/** Team id → that workspace's settings. */
export function workspacesFrom(
  data: Readonly<Record<string, WorkspaceData>> | undefined,
): Map<string, WorkspaceSettings> {
  return new Map(
    Object.entries(data ?? {}).map(([teamId, workspace]) => [
      teamId,
      Object.freeze({
        teamId,
        binding: bindingFrom(workspace),
        channels: bindingsFrom(workspace.channels),
        policy: policyFrom(workspace.policy),
      }),
    ]),
  );
}
