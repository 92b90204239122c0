// The SCC client of one profile (one region and token): the generic `call`/`paginate` core and the area
// objects the rest of the bot uses (`client.tenants.create(…)`, `client.interfaces.vlan.list(…)`). Nothing
// global: create one per profile, close it when the profile goes away.
import { createCaller, type SccCaller } from './call.js';
import { DEFAULT_TIMEOUTS, type RetryOptions, type TimeoutOptions } from './callPolicy.js';
import { createDevicesArea, type DevicesArea } from './devices.js';
import { createEventsArea, type EventsArea } from './events.js';
import { createGatewayArea, type GatewayArea } from './gateway.js';
import { createGovernanceArea, type GovernanceArea } from './governance.js';
import { createSccHttp, type SccCallEvent, type SccHttpOptions, type SccLogger } from './http.js';
import { createInterfacesArea, type InterfacesArea } from './interfaces.js';
import { createLookupsArea, type LookupsArea } from './lookups.js';
import type { SccOperationId } from './operationTypes.js';
import { createReportsArea, type ReportsArea } from './reports.js';
import { createSecureClientArea, type SecureClientArea } from './secureClient.js';
import { createTenantsArea, type TenantsArea } from './tenants.js';
import { createTransactionsArea, type TransactionsArea } from './transactions.js';

export type {
  CallOptions,
  PagedOperationId,
  PageItem,
  PageQuery,
  PaginateOptions,
  SearchQuery,
  SortOrder,
} from './call.js';
export type { SccCallEvent, SccLogger };

export interface SccClientOptions {
  /** e.g. https://api.eu.security.cisco.com/firewall (see regions.ts). */
  baseUrl: string;
  /** The API token; it never appears in errors or logs. */
  token: string;
  /** Profile name, carried into logs and call events. */
  profile?: string;
  timeouts?: Partial<TimeoutOptions>;
  retry?: Partial<RetryOptions>;
  /** An undici Dispatcher to send through instead of the client's own keep-alive Pool. */
  dispatcher?: SccHttpOptions['dispatcher'];
  /** The largest SCC answer read, in bytes (default 32 MiB); a larger one fails the call. */
  maxResponseBytes?: number;
  onCall?: (event: SccCallEvent) => void;
  logger?: SccLogger;
  /** Operations this SCC does not have yet (a profile says so): `offers` answers false for them. */
  lacks?: readonly SccOperationId[];
}

export interface SccClient extends SccCaller {
  readonly profile: string | undefined;
  readonly baseUrl: string;
  /** The timeouts in force (defaults merged with the options). */
  readonly timeouts: Readonly<TimeoutOptions>;
  readonly tenants: TenantsArea;
  readonly interfaces: InterfacesArea;
  readonly secureClient: SecureClientArea;
  readonly gateway: GatewayArea;
  readonly reports: ReportsArea;
  readonly transactions: TransactionsArea;
  readonly devices: DevicesArea;
  /** The change log, the audit log and the token's own description. */
  readonly events: EventsArea;
  /** Search, ASA access rules and groups, objects and their usages, the ASA command line. */
  readonly lookups: LookupsArea;
  /** Change requests and the tenant's settings. */
  readonly governance: GovernanceArea;
  /**
   * Whether this SCC has the operation (false only for those its profile says it lacks), so an operation
   * can fall back to the older call a vendor deprecated, without knowing about profiles.
   */
  offers(operationId: SccOperationId): boolean;
  /** Closes the client's connection pool. */
  close(): Promise<void>;
}

export function createSccClient(options: SccClientOptions): SccClient {
  const timeouts: TimeoutOptions = {
    ...DEFAULT_TIMEOUTS,
    ...options.timeouts,
    perOperation: { ...DEFAULT_TIMEOUTS.perOperation, ...options.timeouts?.perOperation },
  };
  const http = createSccHttp({
    baseUrl: options.baseUrl,
    token: options.token,
    profile: options.profile,
    dispatcher: options.dispatcher,
    maxResponseBytes: options.maxResponseBytes,
    retry: options.retry,
    onCall: options.onCall,
    logger: options.logger,
  });
  const caller = createCaller(http, timeouts);
  const lacking = new Set<SccOperationId>(options.lacks ?? []);
  return {
    profile: options.profile,
    baseUrl: options.baseUrl,
    timeouts,
    call: caller.call,
    paginate: caller.paginate,
    tenants: createTenantsArea(caller),
    interfaces: createInterfacesArea(caller),
    secureClient: createSecureClientArea(caller),
    gateway: createGatewayArea(caller),
    reports: createReportsArea(caller),
    transactions: createTransactionsArea(caller),
    devices: createDevicesArea(caller),
    events: createEventsArea(caller),
    lookups: createLookupsArea(caller),
    governance: createGovernanceArea(caller),
    offers: (operationId) => !lacking.has(operationId),
    close: () => http.close(),
  };
}

/** One SCC client per configured profile; nothing global. */
export interface SccClients {
  names(): string[];
  get(profile: string): SccClient;
}
