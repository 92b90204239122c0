// The shape of the simulated world: tenants and their users, tokens, the device inventory, ASA
// interfaces (SCC's copy and the device's running copy), Secure Client packages and runs, deployment
// runs, transactions, gateway requests, reports and the FMC behind the gateway. Records reuse the
// generated SCC models where the record is what the API returns.
import type * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import type { SeededRandom } from '../random.js';
import type { MaintenanceWindowRecord } from './maintenanceWindow.js';

export type Region = 'US' | 'EU' | 'APJ' | 'AUS' | 'IN' | 'UAE';
export type UserRole = Input.UserRole;
export type CdFmcType = 'DEDICATED' | 'SHARED' | 'UNPROVISIONED';
export type TenantPayType = 'PAYING' | 'NOT_PAYING' | 'TRIAL' | 'INTERNAL' | 'PARTNER' | 'DEMO';
export type ComplianceStatus = 'IN_COMPLIANCE' | 'OUT_OF_COMPLIANCE' | 'UNKNOWN';

export interface TenantUser {
  uid: string;
  username: string;
  firstName?: string;
  lastName?: string;
  role: UserRole;
  apiOnly: boolean;
  lastSuccessfulLogin?: number;
}

export interface TenantRecord {
  uid: string;
  name: string;
  displayName: string;
  region: Region;
  /** The MSP portal itself: the home of the demo tokens and of the device inventory. */
  isPortal: boolean;
  /** Managed by the portal (listed by GET /v1/msp/tenants). */
  inPortal: boolean;
  /** The portal's super-admin is a user of this tenant (required by add-existing). */
  associated: boolean;
  cdFmcType: CdFmcType;
  complianceStatus: ComplianceStatus;
  tenantPayType: TenantPayType;
  deviceCount: number;
  sccOrganizationUid: string;
  virtualAccounts: Model.MspManagedTenantVirtualAccountDto[];
  mcdEnabled: boolean;
  users: TenantUser[];
}

export interface TokenRecord {
  token: string;
  tenantUid: string;
  username: string;
  role: UserRole;
  /** The user the token was generated for, when it came from generateApiTokenForUserInTenant. */
  userUid?: string;
  /** 'ui': a user acting in SCC's UI (admin routes), never a bearer token. */
  source: 'demo' | 'minted' | 'generated' | 'ui';
  /** When the token expires (reported by getToken; absent: never). */
  expiresAt?: number;
}

export type DeviceKind = 'ASA' | 'FTD' | 'CDFMC';

export interface DeviceRecord {
  tenantUid: string;
  kind: DeviceKind;
  device: Model.Device & { uid: string; name: string };
  /** Uid of the remote-access VPN policy (FTDs); packages of an FTD hang off this policy. */
  raVpnPolicyUid?: string;
  /** How this device fares in every Secure Client upgrade (documented failure trigger); absent: success. */
  upgradeFault?: UpgradeFault;
  /** When SCC may deploy to it (state/maintenanceWindow.ts); absent: no window configured. */
  maintenanceWindow?: MaintenanceWindowRecord;
  /** A software upgrade staged on it (image uploaded, readiness checked) and not yet applied. */
  stagedUpgrade?: StagedUpgrade;
  /** How its next software upgrades fail (admin route `/_sim/devices/{device}/upgrade-fault`). */
  softwareUpgradeFault?: SoftwareUpgradeFault;
  /**
   * Which of the simulator's key pairs its management HTTPS presents (state/managementCertificates.ts);
   * absent: one picked by its UID. Setting NEW_CERT_DETECTED moves it to the next.
   */
  certificate?: number;
  /**
   * Its management HTTPS does not answer others than SCC's connector (admin route
   * `/_sim/devices/{device}/management`): what a look from fwbot meets when a firewall is in between.
   */
  managementClosed?: boolean;
}

export interface StagedUpgrade {
  softwareVersion: string;
  asdmVersion?: string;
  upgradePackageUid?: string;
  runUid: string;
}

/**
 * A software upgrade made to fail: its readiness check (the run ends UPGRADE_STAGING_FAILED, nothing
 * changes) or one node of the device while it upgrades (UPGRADE_FAILED; on an HA pair the other node may
 * already run the new version). Or made to complete with the device not as it should be, which only a
 * check after the upgrade sees: VERSION (it still reports the version it ran), FAILOVER (an HA pair stays
 * failed over, the secondary active), CONFIG (the new version drops the first `access-list … permit` line
 * of its running configuration). `times` counts the runs it still applies to (absent: every run).
 */
export interface SoftwareUpgradeFault {
  kind: 'READINESS_CHECK' | 'NODE' | 'VERSION' | 'FAILOVER' | 'CONFIG';
  /** For NODE on an HA pair: which unit fails (default the primary, upgraded second). */
  node?: 'HA_PRIMARY' | 'HA_SECONDARY';
  message: string;
  times?: number;
}

export interface UpgradeFault {
  status: 'FAILED' | 'CLEANUP_FAILED';
  errorMsg: string;
}

export type InterfaceKind =
  | 'PHYSICAL_INTERFACE'
  | 'SUB_INTERFACE'
  | 'VIRTUAL_TUNNEL_INTERFACE'
  | 'VLAN_INTERFACE'
  | 'ETHER_CHANNEL_INTERFACE';

export interface InterfaceRecord extends Model.AsaInterface {
  uid: string;
  deviceUid: string;
  interfaceType: InterfaceKind;
  hardwareName: string;
}

export interface PackageRecord {
  uid: string;
  deviceUid: string;
  fileName: string;
}

export type ClientOs = 'LINUX' | 'MACOS' | 'WINDOWS';
export type ClientArch = 'ARM64' | 'X86_64' | 'UNIVERSAL';

export interface Platform {
  os: ClientOs;
  cpuArchitecture: ClientArch;
}

export interface CatalogueVersion {
  version: string;
  platforms: Platform[];
  /** Oldest ASA / FTD software that can run this Secure Client version as a headend. */
  minAsa: string;
  minFtd: string;
}

export type UpgradeRunStatus =
  | 'VALIDATING_INPUTS'
  | 'FETCHING_CURRENTLY_INSTALLED_PACKAGES'
  | 'CHECKING_ASA_DEVICES_DNS'
  | 'CHECKING_ASA_DEVICES_DNS_RESULTS'
  | 'VALIDATING_RA_VPN_SLOT_CONFLICTS'
  | 'UPLOADING_IMAGES'
  | 'CHECKING_IMAGES_UPLOAD_RESULTS'
  | 'REGISTERING_NEW_RA_VPN_IMAGES'
  | 'CHECKING_REGISTER_NEW_RA_VPN_IMAGES_RESULTS'
  | 'UNREGISTERING_OLD_RA_VPN_IMAGES'
  | 'CHECKING_UNREGISTER_OLD_RA_VPN_IMAGES_RESULTS'
  | 'WRITING_CHANGES_TO_MEMORY'
  | 'CHECKING_WRITE_CHANGES_TO_MEMORY_RESULTS'
  | 'DELETING_OLD_IMAGES'
  | 'DONE'
  | 'DONE_WITH_DEVICE_WARNINGS'
  | 'DONE_WITH_DEVICE_ERRORS'
  | 'ERROR';

export type UpgradeRunType = 'ASA_SECURE_CLIENT_UPGRADE' | 'FTD_SECURE_CLIENT_UPGRADE';
export type UpgradedDeviceStatus = 'PENDING' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' | 'CLEANUP_FAILED';

export interface UpgradedDevice {
  uid: string;
  name: string;
  status: UpgradedDeviceStatus;
  errorMsg?: string;
}

export interface UpgradeRunRecord {
  uid: string;
  tenantUid: string;
  name: string;
  type: UpgradeRunType;
  version: string;
  platforms: Platform[];
  username: string;
  transactionUid: string;
  submissionTime: number;
  lastUpdatedTime: number;
  status: UpgradeRunStatus;
  /** When the current step started and how long it lasts: percentageComplete is derived from these. */
  stepStartedAt: number;
  stepDurationMs: number;
  errorMsg?: string;
  devices: UpgradedDevice[];
  /** Outcomes an admin route imposed on this run's devices (by device UID), over their own upgradeFault. */
  deviceFaults?: Record<string, UpgradeFault>;
}

export type DeviceUpgradeRunStatus = NonNullable<Model.UpgradeRunDto['upgradeRunStatus']>;

/** One unit of a device in a software upgrade run: the device itself, or each node of an HA pair. */
export interface UpgradeNodeRecord {
  name: string;
  nodeType?: 'HA_PRIMARY' | 'HA_SECONDARY';
  message: string;
  /** The current task's progress: it started at `startedAt` and lasts `durationMs` (0–1 from these). */
  startedAt: number;
  durationMs: number;
  completedAt?: number;
  failed?: boolean;
}

export interface UpgradeRunDeviceRecord {
  uid: string;
  name: string;
  nodes: UpgradeNodeRecord[];
}

/** A software upgrade run of ASAs or FTDs of one tenant (getDeviceUpgradeRuns). */
export interface DeviceUpgradeRunRecord {
  uid: string;
  tenantUid: string;
  name: string;
  type: 'ASA_DEVICE_UPGRADE' | 'FTD_DEVICE_UPGRADE';
  softwareVersion: string;
  asdmVersion?: string;
  upgradePackageUid?: string;
  stageUpgradeOnly: boolean;
  forceUpgrade: boolean;
  ignoreMaintenanceWindow: boolean;
  username: string;
  transactionUid: string;
  submissionTime: number;
  lastUpdatedTime: number;
  status: DeviceUpgradeRunStatus;
  errorMsg?: string;
  devices: UpgradeRunDeviceRecord[];
  /** Deleted through the API: gone from every read, though the work on the devices goes on. */
  deleted?: boolean;
  /** The MSP run it is a tenant's part of. */
  mspRunUid?: string;
}

/** A cross-tenant software upgrade run of the MSP portal: one tenant run per managed tenant. */
export interface MspDeviceUpgradeRunRecord {
  uid: string;
  portalUid: string;
  name: string;
  type: 'ASA_DEVICE_UPGRADE' | 'FTD_DEVICE_UPGRADE';
  softwareVersion: string;
  asdmVersion?: string;
  stageUpgradeOnly: boolean;
  forceUpgrade: boolean;
  username: string;
  transactionUid: string;
  submissionTime: number;
  /** The tenants' runs (getDeviceUpgradeRuns of each tenant), in tenant order. */
  tenantRunUids: string[];
  deleted?: boolean;
}

/** A cross-tenant FTD compatible-versions calculation (calculateMspFtdCompatibleUpgradeVersions). */
export interface UpgradeCompatibilityRecord {
  uid: string;
  portalUid: string;
  status: 'IN_PROGRESS' | 'DONE' | 'ERROR';
  deviceUids: string[];
  errorMessage?: string;
  /** The result, as it was when the calculation ended. */
  versions?: Model.CompatibleVersionInfoDto[];
}

/** A tenant's cache of compatible FTD upgrade packages: the devices it cannot answer for at once. */
export interface FtdUpgradeCacheRecord {
  /** FTDs whose versions must be computed first (their software changed since the cache was built). */
  stale: Set<string>;
  /** A rebuild in progress (updateFtdUpgradePackagesCache, or a read that needed one): its transaction. */
  buildingTransactionUid?: string;
}

export type TransactionStatus = 'PENDING' | 'IN_PROGRESS' | 'CANCELLED' | 'DONE' | 'ERROR';
export type TransactionType = NonNullable<Model.CdoTransaction['transactionType']>;

export interface TransactionRecord {
  uid: string;
  tenantUid: string;
  type: TransactionType;
  entityUid?: string;
  entityUrl?: string;
  status: TransactionStatus;
  submissionTime: number;
  lastUpdatedTime: number;
  details: Record<string, string>;
  errorMessage?: string;
  errorDetails?: Record<string, string>;
}

export type ConfigCommandsStatus = 'SUCCESS' | 'UNSUPPORTED_COMMANDS' | 'ERROR';

/** The result of calculateAsaCommandsToApplyPendingChanges, cached briefly (then 404). */
export interface CalculatedCommands {
  status: ConfigCommandsStatus;
  commands: string[];
  /** Simulated time after which the result is gone. */
  expiresAt: number;
}

/**
 * An ASA's two configurations. SCC's copy is the device's interfaces in `SimState.interfaces` (what
 * interface reads answer and interface changes edit); `onDevice` is the running configuration, changed only
 * by a deploy (or out of band). `configState` on the device record says whether the two differ.
 */
export interface AsaConfigRecord {
  deviceUid: string;
  onDevice: InterfaceRecord[];
  /**
   * The device's access-policy lines while they differ from SCC's copy (`SimState.asaPolicies`): a rule,
   * access group or object change staged through the API and not yet deployed. Absent: the same as SCC's.
   */
  policyOnDevice?: string[];
  calculated?: CalculatedCommands;
}

export type DeploymentRunStatus =
  | 'PENDING'
  | 'VALIDATING_DEVICES'
  | 'DEPLOYING'
  | 'DEPLOY_COMPLETED'
  | 'DEPLOY_FAILED';
export type DeviceDeploymentStatus = 'IN_PROGRESS' | 'DONE' | 'WARNING' | 'ERROR' | 'SKIPPED';
export type DeploymentFailureReason = NonNullable<Model.DeploymentRunDto['failureReason']>;

export interface DeviceDeploymentRecord {
  uid: string;
  name: string;
  status: DeviceDeploymentStatus;
  errorMsg?: string;
  errorDetails?: Model.ErrorDetails[];
  /** The device's progress message (completionStatus.message). */
  message?: string;
  /** When this device's deploy started and how long it takes (percentageComplete comes from these). */
  startedAt?: number;
  durationMs?: number;
  completedAt?: number;
  /** What getChangesDeployedInDeploymentRun answers for the device, once its snapshot was taken. */
  change?: { uid: string; initialConfig: string | null; deployedConfig: string | null };
}

export interface DeploymentRunRecord {
  uid: string;
  tenantUid: string;
  name: string;
  description?: string;
  deploymentNotes?: string;
  deployerUsername: string;
  forceDeployUnsupportedCommands: boolean;
  transactionUid: string;
  submissionTime: number;
  lastUpdatedTime: number;
  status: DeploymentRunStatus;
  failureReason?: DeploymentFailureReason;
  errorMsg?: string;
  devices: DeviceDeploymentRecord[];
  /** Devices an admin route made fail in this run, with the device's error (by device UID). */
  deviceFaults?: Record<string, string>;
  /** The change request its description named (api/governance.ts): its change-log events carry it. */
  changeRequest?: ChangeRequestRef;
}

export interface DeviceAnswer {
  responseStatus: 'SUCCESS' | 'ERROR';
  /** One FMC response body per command, in order. */
  bodies: unknown[];
}

export interface GatewayRequestRecord {
  requestId: string;
  tenantUid: string;
  deviceUid: string;
  submittedAt: number;
  /** When the device's answer arrives (may be after the 70 s hard limit of a synchronous call). */
  readyAt: number;
  /** Set when the device has answered. */
  answer?: DeviceAnswer;
}

export type ReportStatus = 'COMPLETED' | 'RUNNING' | 'FAILED';

export interface ReportRecord {
  uid: string;
  tenantUid: string;
  name: string;
  query: string;
  status: ReportStatus;
  createdBy: string;
  createdDate: number;
  completedDate?: number;
  startDate: number;
  endDate: number;
  rowCount: number;
}

export interface FmcObject {
  id: string;
  name: string;
  type: string;
  [field: string]: unknown;
}

export interface FmcState {
  domainUid: string;
  larUid: string;
  serverVersion: string;
  networks: FmcObject[];
  dynamicObjects: FmcObject[];
  dynamicObjectMappings: Map<string, string[]>;
  accessPolicies: FmcObject[];
  deviceRecords: FmcObject[];
}

export type ChangelogAction = 'CREATE' | 'UPDATE' | 'DELETE' | 'ERROR';

/** One event of a change log: who did what, when, as a diff of the configuration and the commands. */
export interface ChangelogEventRecord {
  action: ChangelogAction;
  username: string;
  date: number;
  description: string;
  /** Unified diff of the configuration lines (absent when nothing textual changed). */
  diff?: string;
  /** The ASA commands, one per line (absent when none). */
  commands?: string;
  /** The change request the change was made under, when one was named. */
  changeRequest?: ChangeRequestRef;
}

/**
 * SCC's change log of one entity (a device): ACTIVE while the entity has changes not yet on it, COMPLETED
 * once they are (a deploy, a read of its configuration); the next change opens a new one.
 */
export interface ChangelogRecord {
  uid: string;
  tenantUid: string;
  entityUid: string;
  entityName: string;
  status: 'ACTIVE' | 'COMPLETED';
  lastEventDate: number;
  events: ChangelogEventRecord[];
}

export type AuditEventType =
  | 'USER_LOGGED_IN'
  | 'USER_ADDED_TO_TENANT'
  | 'USER_REMOVED_FROM_TENANT'
  | 'USER_ROLE_CHANGED';

export interface AuditLogRecord {
  uid: string;
  tenantUid: string;
  eventType: AuditEventType;
  /** The user the event is about. */
  username: string;
  /** That user's roles once the event happened (for a removal: the roles they had). */
  roles: UserRole[];
  eventTime: number;
  eventDescription: string;
}

export interface ChangeRequestRef {
  uid: string;
  name: string;
}

/** A tenant's change request: a name (unique in the tenant) that changes can be tied to. */
export interface ChangeRequestRecord extends ChangeRequestRef {
  tenantUid: string;
  description?: string;
  createdBy: string;
  createdAt: number;
  /** Set by an admin route ("closed in SCC's UI"): changes are no longer tied to it. */
  closedAt?: number;
}

/** The tenant settings an admin route can change; the others are fixed (api/governance.ts). */
export interface GovernanceSettings {
  changeRequestSupport: boolean;
  scheduledDeployments: boolean;
  /** Object sharing: the object APIs (createObject, modifyObject, …) answer only while it is on. */
  objectSharing: boolean;
}

/**
 * A network object or group SCC holds for a tenant without any target (created with no `targetIds`): it is
 * on no device's configuration, so the world keeps it here. Objects with targets live in their devices'
 * policy lines.
 */
export interface UnassociatedObjectRecord {
  uid: string;
  tenantUid: string;
  name: string;
  objectType: 'NETWORK_OBJECT' | 'NETWORK_GROUP';
  /** A network object's literal (`10.1.1.5`, `10.1.0.0/16`, `a-b`), or a group's members by object UID. */
  literal?: string;
  referencedObjectUids?: string[];
  description?: string;
}

/** A stopped connector: since when (its last heartbeat), and what its devices' connectivity was before. */
export interface ConnectorOutage {
  since: number;
  /** Device UID → connectivityState before the outage, given back when the connector starts again. */
  before: Map<string, string | null | undefined>;
}

/** A remote-access VPN session SCC knows of on a headend (ASA or FTD), as getRaVpnSessions answers it. */
export interface RaVpnSessionRecord {
  uid: string;
  tenantUid: string;
  deviceUid: string;
  username: string;
  publicIp: string;
  assignedIpV4: string;
  loginTime: number;
  lastActiveTime: number;
  bytesRx: number;
  bytesTx: number;
  status: 'ACTIVE' | 'TERMINATED';
  location: { city: string; country: string; subdivision: string };
  os: { type: string; version: string };
  auditSessionId: string;
}

/** A multi-factor sign-in of a user (Duo's answer as SCC's Remote Access Monitoring keeps it). */
export interface MfaEventRecord {
  uid: string;
  tenantUid: string;
  username: string;
  timestamp: number;
  result: 'GRANTED' | 'DENIED';
  reason: string;
  secondFactor: string;
  application: string;
  clientDevice: {
    uid: string;
    ipAddress: string;
    location: { city: string; country: string; subdivision: string };
    os: { type: string; version: string };
    browser: { name: string; version: string };
  };
}

/**
 * One shun on an ASA (`shun <ip>`): in the device's memory only, never in its configuration, so a reload or
 * a failover loses it. `address` is as the ASA prints it; `interface` is the one the address arrives on.
 */
export interface ShunRecord {
  address: string;
  interface: string;
  since: number;
}

export interface SimState {
  seed: string;
  /** Simulated time at which the world was seeded; seeded history is dated relative to it. */
  startTime: number;
  portalUid: string;
  tenants: Map<string, TenantRecord>;
  tokens: Map<string, TokenRecord>;
  devices: Map<string, DeviceRecord>;
  interfaces: Map<string, InterfaceRecord>;
  packages: Map<string, PackageRecord>;
  catalogue: CatalogueVersion[];
  upgradeRuns: Map<string, UpgradeRunRecord>;
  transactions: Map<string, TransactionRecord>;
  gatewayRequests: Map<string, GatewayRequestRecord>;
  reports: Map<string, ReportRecord>;
  /** Per ASA: the device's running configuration and the cached pending commands. */
  asaConfigs: Map<string, AsaConfigRecord>;
  /**
   * Per ASA: the access-policy lines of its configuration (objects, access lists, access groups, routes,
   * NAT; state/asaPolicy.ts) in SCC's copy; the device's differs only while a change staged through the
   * API is not deployed (AsaConfigRecord.policyOnDevice). An ASA without an entry has the plain default
   * policy (seedPolicy.ts); a change gives it one.
   */
  asaPolicies: Map<string, string[]>;
  /**
   * UIDs SCC keeps across a change: a rule or object whose content changed (modifyAccessRule,
   * modifyObject) is derived anew from its lines, and this maps the UID derived now to the one it had.
   */
  uidAliases: Map<string, string>;
  /** Network objects and groups of a tenant that no device holds (see UnassociatedObjectRecord), by UID. */
  unassociatedObjects: Map<string, UnassociatedObjectRecord>;
  deploymentRuns: Map<string, DeploymentRunRecord>;
  /** Software upgrade runs of ASAs and FTDs (every tenant's), the MSP portal's, and its FTD calculations. */
  deviceUpgradeRuns: Map<string, DeviceUpgradeRunRecord>;
  mspDeviceUpgradeRuns: Map<string, MspDeviceUpgradeRunRecord>;
  upgradeCompatibility: Map<string, UpgradeCompatibilityRecord>;
  /** Per tenant UID: its FTD upgrade-package cache (absent: it answers for every FTD). */
  ftdUpgradeCaches: Map<string, FtdUpgradeCacheRecord>;
  /** SCC's change logs by UID, and the open (ACTIVE) one of each entity by entity UID. */
  changelogs: Map<string, ChangelogRecord>;
  activeChangelogs: Map<string, string>;
  /** Every tenant's audit log, oldest first. */
  auditLogs: AuditLogRecord[];
  /** Change requests by UID (every tenant's). */
  changeRequests: Map<string, ChangeRequestRecord>;
  /** Per tenant UID: settings changed from the defaults by an admin route. */
  tenantSettings: Map<string, GovernanceSettings>;
  /** Secure Device Connectors stopped by the admin route, by connector UID. */
  connectorOutages: Map<string, ConnectorOutage>;
  /**
   * How many change-log and audit entries were made: their UIDs derive from it, not from `rng`, so that
   * recording them does not change any other UID the world mints (tests compare those with golden files).
   */
  eventSeq: number;
  fmc: FmcState;
  /** Simulated time of the last accepted tenant creation (30 s limit) and how many the portal made. */
  lastTenantCreationAt?: number;
  tenantsCreated: number;
  /** Names reserved by tenant creations still in flight, so a duplicate is refused before it lands. */
  pendingTenantNames: Set<string>;
  /** Remote-access VPN sessions by UID (every tenant's), seeded and ended by terminations. */
  raVpnSessions: Map<string, RaVpnSessionRecord>;
  /** Every tenant's MFA events, oldest first. */
  mfaEvents: MfaEventRecord[];
  /** Per ASA UID: its active shuns, in the order they were placed (lost on reload and failover). */
  shuns: Map<string, ShunRecord[]>;
  /** Per ASA UID: each rule's hit count by its configuration line (asaAccessListHits.ts), kept in memory. */
  aclHits: Map<string, Map<string, number>>;
  /** Ids minted at run time (transactions, new interfaces, tokens): deterministic per seed and request order. */
  rng: SeededRandom;
}
