// The format of the FWBOT_PROFILES file as a whole: the top-level schema over its sections, each declared in
// its own file of src/config/sections/ (schema, settings, defaults, reference rows, the settings it yields),
// the rows of the configuration reference in the order the page lists them, and how a key path is named
// there (used for the examples in error messages). Unknown keys are errors, so a typo never silently turns a
// setting off. A new section is a file of sections/ and a line in the schema and the rows below. Modules
// outside src/config/ read the sections' settings through here.
import { z } from 'zod';
import { AccessSchema, accessKeys } from './sections/access.js';
import { ApprovalsSchema, approvalKeys } from './sections/approvals.js';
import { AuditSchema, auditKeys } from './sections/audit.js';
import { ChangesSchema, changesKeys, snapshotKeys } from './sections/changes.js';
import { ChannelBindingSchema, channelKeys } from './sections/channels.js';
import { DeviceOutputSchema, deviceOutputKeys } from './sections/deviceOutput.js';
import { PolicySchema, policyKeys } from './sections/policy.js';
import { ProfileSchema, profileKeys } from './sections/profiles.js';
import { ResponseSchema, responseKeys } from './sections/response.js';
import {
  channelId,
  closedObject,
  type ProfilesFileKey,
  profileName,
  teamId,
} from './sections/schemaParts.js';
import { UpgradesSchema, upgradesKeys } from './sections/upgrades.js';
import { WorkspaceSchema, workspaceKeys } from './sections/workspaces.js';

export type { AccessRequestPolicy } from './sections/access.js';
export type { ApprovalSettings, ApproverRule } from './sections/approvals.js';
export type { AuditSettings } from './sections/audit.js';
export { type ChangeSettings, defaultChanges, openPeriod, type PolicyWindow } from './sections/changes.js';
export type { ChannelBinding } from './sections/channels.js';
export type { DeviceOutputSettings } from './sections/deviceOutput.js';
export type { ResponseSettings } from './sections/response.js';
export type { SmokeTrace, SmokeTraceRule, UpgradeSettings } from './sections/upgrades.js';

export const ProfilesFileSchema = closedObject({
  profiles: z.record(profileName, ProfileSchema).optional(),
  channels: z.record(channelId, ChannelBindingSchema).optional(),
  policy: PolicySchema.optional(),
  workspaces: z.record(teamId, WorkspaceSchema).optional(),
  approvals: ApprovalsSchema.optional(),
  audit: AuditSchema.optional(),
  changes: ChangesSchema.optional(),
  device_output: DeviceOutputSchema.optional(),
  response: ResponseSchema.optional(),
  access: AccessSchema.optional(),
  upgrades: UpgradesSchema.optional(),
});
export type ProfilesFileData = z.output<typeof ProfilesFileSchema>;

/** Every documented key of the file, in the order the configuration page lists them. */
export const profilesFileKeys: readonly ProfilesFileKey[] = Object.freeze([
  ...profileKeys,
  ...channelKeys,
  ...policyKeys,
  ...workspaceKeys,
  ...approvalKeys,
  ...auditKeys,
  ...changesKeys,
  // The published page lists device_output between the changes' windows and their snapshots.
  ...deviceOutputKeys,
  ...snapshotKeys,
  ...responseKeys,
  ...accessKeys,
  ...upgradesKeys,
]);

/** The documentation pattern of a concrete key path: profiles.acme.region → profiles.<name>.region. */
export function keyPattern(path: readonly PropertyKey[]): string {
  const keys = path.filter((segment): segment is string => typeof segment === 'string');
  if (keys[0] === 'profiles' && keys.length > 1) keys[1] = '<name>';
  if (keys[0] === 'channels' && keys.length > 1) keys[1] = '<channel>';
  if (keys[0] === 'workspaces' && keys.length > 1) {
    keys[1] = '<team>';
    // A workspace's bindings and policy are read as the top-level ones are.
    if (keys[2] === 'channels' && keys.length > 3) keys[3] = '<channel>';
    if (keys[2] === 'policy' && keys[3] === 'channels' && keys.length > 4) keys[4] = '<channel>';
    if (keys[2] === 'policy' && keys[3] === 'operations' && keys.length > 4) keys[4] = '<operation>';
  }
  if (keys[0] === 'policy' && keys[1] === 'channels' && keys.length > 2) keys[2] = '<channel>';
  if (keys[0] === 'approvals' && keys[1] === 'operations' && keys.length > 2) keys[2] = '<operation>';
  if (keys[0] === 'policy' && keys[1] === 'operations' && keys.length > 2) keys[2] = '<operation>';
  return keys.join('.');
}

/** The example of the documented key at `path`, or of the nearest documented key below it. */
export function fileExampleFor(path: readonly PropertyKey[]): string | undefined {
  const pattern = keyPattern(path);
  const exact = profilesFileKeys.find((row) => row.key === pattern);
  if (exact !== undefined) return exact.example;
  const inside = profilesFileKeys.find((row) => row.key.startsWith(`${pattern}.`));
  if (inside !== undefined) return inside.example;
  // Inside a list of mappings (changes.windows), the list's own example shows every key.
  const above = profilesFileKeys.find((row) => pattern.startsWith(`${row.key}.`));
  return above?.example;
}
