// The approval policy as this module needs it. `src/config.ts` owns the configuration file and the
// environment (`approvals.expiry_minutes`, `approvals.allow_self_approval`,
// `approvals.require_for_vpn_upgrades`, `audit.retention_days`); the service maps those onto this shape,
// so the approvals do not depend on how the policy is written down.
import { z } from 'zod';
import type {
  ApprovalSettings as ConfiguredApprovals,
  AuditSettings as ConfiguredAudit,
} from '../config/profilesFileSchema.js';

export const ApprovalSettings = z.object({
  /** How long a request waits for a decision. */
  expiryMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(30),
  /** Small teams may let the requester approve their own request; off unless someone decides otherwise. */
  allowSelfApproval: z.boolean().default(false),
  /** An approved interface deletion is deployed with it when nothing else is pending on the device. */
  deployWithChange: z.boolean().default(false),
  /**
   * Per operation id: `four-eyes`, `none` or a role (see src/dispatch/governance.ts, which checks them
   * against the catalogue). `approvals.require_for_vpn_upgrades` arrives here as `vpn.upgrade: four-eyes`.
   */
  operations: z.record(z.string(), z.string()).default({}),
  /** Audit records older than this are trimmed from the stream. */
  auditRetentionDays: z.number().int().min(1).max(3650).default(90),
  /**
   * How long an executing process owns a request without renewing its claim. A recovery pass takes over
   * only after this, so a slow SCC call in a live process is never run a second time by another process.
   */
  executionLeaseMs: z.number().int().min(1_000).default(60_000),
  /** Scoped approvers (`approvals.approvers`): who approves what instead of the channel's approver role. */
  approvers: z
    .array(
      z.object({
        key: z.string(),
        devices: z.string().optional(),
        profile: z.string().optional(),
        tenant: z.string().optional(),
        approvers: z.array(z.string()).min(1),
        minApprovers: z.number().int().min(1).default(1),
        /** The customer's side (`customer_approvers`): one of them approves too, on the tenant's card. */
        customerApprovers: z.array(z.string()).min(1).optional(),
      }),
    )
    .default([]),
});
export type ApprovalSettings = z.infer<typeof ApprovalSettings>;
export type ApprovalSettingsInput = z.input<typeof ApprovalSettings>;

/** The configuration's `approvals` and `audit` sections (src/config/profilesFile.ts) as these settings. */
export function approvalSettingsFrom(config: {
  approvals: ConfiguredApprovals;
  audit: ConfiguredAudit;
}): ApprovalSettings {
  return ApprovalSettings.parse({
    expiryMinutes: config.approvals.expiryMinutes,
    allowSelfApproval: config.approvals.allowSelfApproval,
    deployWithChange: config.approvals.deployWithChange,
    operations: { ...config.approvals.operations },
    auditRetentionDays: config.audit.retentionDays,
    approvers: config.approvals.approvers.map((rule) => ({
      ...rule,
      approvers: [...rule.approvers],
      ...(rule.customerApprovers ? { customerApprovers: [...rule.customerApprovers] } : {}),
    })),
  });
}
