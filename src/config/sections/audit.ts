// `audit:` of the FWBOT_PROFILES file: how long audit records are kept. Its schema, settings, default, row of
// the configuration reference, and the settings it yields.
import { z } from 'zod';
import { closedObject, type ProfilesFileKey } from './schemaParts.js';

export const AUDIT_RETENTION_MAX_DAYS = 3_650;

export interface AuditSettings {
  /** Audit records older than this are deleted. */
  readonly retentionDays: number;
}

export const defaultAudit: AuditSettings = Object.freeze({ retentionDays: 90 });

export const AuditSchema = closedObject({
  retention_days: z.number().int().min(1).max(AUDIT_RETENTION_MAX_DAYS).optional(),
});

export const auditKeys: readonly ProfilesFileKey[] = [
  {
    key: 'audit.retention_days',
    description: `days audit records are kept (1–${AUDIT_RETENTION_MAX_DAYS})`,
    default: String(defaultAudit.retentionDays),
    example: 'retention_days: 90',
  },
];

export function auditFrom(data: z.output<typeof AuditSchema> | undefined): AuditSettings {
  return Object.freeze({ retentionDays: data?.retention_days ?? defaultAudit.retentionDays });
}
