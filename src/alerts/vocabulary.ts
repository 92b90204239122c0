// What every alert is made of, whatever its kind: what it is about (AlertSubject), the buttons it offers
// (AlertAction), what it does to its incident (AlertPhase), and the SCC token roles a kind's reads need.
// The kinds (kinds/) and the event model (model.ts) both stand on it; the model's list of kind names comes
// from the kinds, so this leaf is what they share without a cycle.
import { z } from 'zod';

/** SCC roles a token may hold (CdoTokenInfo.roles, UserRole in the vendor's file). */
export type TokenRole =
  | 'ROLE_ADMIN'
  | 'ROLE_SUPER_ADMIN'
  | 'ROLE_READ_ONLY'
  | 'ROLE_DEPLOY_ONLY'
  | 'ROLE_EDIT_ONLY'
  | 'ROLE_VPN_SESSIONS_MANAGER'
  | 'ROLE_FWAAS'
  | 'ROLE_PASSIVE_IDENTITY_AGENT'
  | 'ROLE_OPERATIONAL_ADMIN';

/** What an event is about. */
export const AlertSubject = z.object({
  type: z.enum(['device', 'run', 'user', 'tenant', 'connector']),
  uid: z.string().min(1),
  name: z.string().min(1),
});
export type AlertSubject = z.infer<typeof AlertSubject>;

/** A button an incident offers: a command line run as the clicker (COMMAND_ACTION, `offeredAsButton`). */
export const AlertAction = z.object({
  label: z.string().min(1).max(75),
  /** Without `/fw`, e.g. `deploy asa-branch-02`; the clicker's roles, approvals and audit apply. */
  command: z.string().min(1),
  style: z.enum(['primary', 'danger']).optional(),
});
export type AlertAction = z.infer<typeof AlertAction>;

/**
 * What a transition does to its incident: `open` starts (or reopens, when it flaps) the incident, `update`
 * changes an open one, `close` ends it, `notice` is told once and is an incident of its own that is already
 * over (a run that ended, an audit event, a certificate threshold crossed).
 */
export const AlertPhase = z.enum(['open', 'update', 'close', 'notice']);
export type AlertPhase = z.infer<typeof AlertPhase>;
