// The access policy of a simulated ASA, as the evaluators need it: objects and object-groups, access lists
// and where they are applied, static routes and static NAT, each parsed from the one configuration text the
// device holds (state/asaPolicy.ts). Every API answer about rules, groups, objects and usages, and every
// `packet-tracer` and `show` the command line runs, is derived from this same model, so they agree.
// Types only: the parse is asaPolicy.ts (with asaObjects.ts, asaAccessLists.ts and asaNat.ts), the seed
// seedPolicy.ts, evaluation asaPolicyEval.ts (read by asaPacketTracer.ts and asaShow.ts).

/** A set of addresses: one network in CIDR form (IPv4 or IPv6 text, prefix length). `any` is both /0s. */
export interface Cidr {
  /** The network address as text: `10.1.20.0`, `2001:db8::`. */
  address: string;
  prefix: number;
  family: 4 | 6;
}

/** Inclusive port range; `eq 443` is 443–443, `range 1024 2047` is 1024–2047. */
export interface PortRange {
  low: number;
  high: number;
}

/** An address operand of an ACE as written, and what it expands to. */
export interface AddressOperand {
  /** As written in the line: `any`, `host 10.1.1.5`, `10.1.20.0 255.255.255.0`, `object WEB`, `object-group DMZ`. */
  written: string;
  /** The object or object-group it names, when it names one. */
  objectName?: string;
  /** What it matches, objects and groups expanded (nested groups included). */
  networks: Cidr[];
}

/** A service operand (ports) of an ACE as written, and what it expands to; undefined ports = any port. */
export interface PortOperand {
  written: string;
  objectName?: string;
  ports: PortRange[];
}

/** One line of an access list (`access-list NAME extended …` or `… remark …`). */
export interface AccessListEntry {
  /** Stable UID (derived from the device UID, the list name and the line text, never from the world's RNG). */
  uid: string;
  /** The access list's name. */
  acl: string;
  /** 1-based position among the list's lines (remarks count, as on an ASA: `show access-list` line N). */
  line: number;
  /** 1-based line number of this line in the device's running configuration text. */
  configLine: number;
  /** The configuration line exactly as the running configuration holds it. */
  text: string;
  kind: 'rule' | 'remark';
  /** For rules: */
  action?: 'permit' | 'deny';
  /** `ip`, `tcp`, `udp`, `icmp`, `icmp6`, or the service object/group that gives the protocol. */
  protocol?: string;
  source?: AddressOperand;
  sourcePorts?: PortOperand;
  destination?: AddressOperand;
  destinationPorts?: PortOperand;
  /** `icmp` rules: the ICMP type name or number as written (`echo`, `8`), when one is given. */
  icmpType?: string;
  /** The line carries `inactive`. */
  inactive: boolean;
  /** The time-range the line names (`time-range NAME`): it matches only while that range is active. */
  timeRange?: string;
  /** `log` settings, when present (`log`, `log informational interval 300`). */
  log?: { level?: string; interval?: number };
  /** For remarks: the text after `remark`. */
  remark?: string;
}

/** `access-group NAME in|out interface IFC` or `access-group NAME global`. */
export interface AccessGroupBinding {
  /** Stable UID (derived like an entry's). */
  uid: string;
  acl: string;
  /** The interface's nameif; undefined for `global`. */
  interface?: string;
  direction: 'in' | 'out' | 'global';
  text: string;
  configLine: number;
}

/** `object network NAME` (host, subnet, range, fqdn) or `object service NAME`. */
export interface PolicyObject {
  uid: string;
  name: string;
  type: 'network' | 'service';
  /** The body lines as written (`host 10.1.20.10`, `subnet 10.1.20.0 255.255.255.0`, `service tcp destination eq 443`). */
  body: string[];
  description?: string;
  /** Network objects: what they match. */
  networks?: Cidr[];
  /** Service objects: the protocol and destination ports. */
  protocol?: string;
  ports?: PortRange[];
  configLine: number;
}

/** `object-group network|service NAME` with its members (`network-object`, `group-object`, `port-object`…). */
export interface PolicyObjectGroup {
  uid: string;
  name: string;
  type: 'network' | 'service';
  /** The member lines as written. */
  body: string[];
  description?: string;
  /** Objects and groups it references by name (`network-object object X`, `group-object Y`). */
  references: string[];
  /** Expanded: every network (network groups) or port range (service groups) it matches. */
  networks?: Cidr[];
  protocol?: string;
  ports?: PortRange[];
  configLine: number;
}

/** `route IFC NETWORK MASK GATEWAY [METRIC]`. */
export interface StaticRoute {
  interface: string;
  network: Cidr;
  gateway: string;
  metric: number;
  text: string;
}

/** Object NAT: `nat (real,mapped) static MAPPED` inside `object network NAME`. */
export interface StaticNat {
  objectName: string;
  realInterface: string;
  mappedInterface: string;
  /** The object's own addresses (real) and what they are translated to (mapped). */
  real: Cidr[];
  mapped: Cidr[];
  text: string;
}

/**
 * Object NAT: `nat (real,mapped) dynamic interface|MAPPED` inside `object network NAME`: the object's
 * addresses leave through `mapped` as the egress interface's own address (`interface`, port address
 * translation) or as a mapped host.
 */
export interface DynamicNat {
  objectName: string;
  realInterface: string;
  mappedInterface: string;
  real: Cidr[];
  /** `interface`: the mapped interface's address; else the mapped addresses. */
  mapped: 'interface' | Cidr[];
  text: string;
}

/** An ASA's whole access policy, parsed from its running configuration's policy lines. */
export interface AsaPolicy {
  deviceUid: string;
  /** The policy part of the running configuration, one line per element, in order. */
  lines: string[];
  objects: PolicyObject[];
  objectGroups: PolicyObjectGroup[];
  /** Access lists by name, each in line order. */
  accessLists: Map<string, AccessListEntry[]>;
  accessGroups: AccessGroupBinding[];
  routes: StaticRoute[];
  nats: StaticNat[];
  dynamicNats: DynamicNat[];
  /** UIDs SCC keeps across a change (SimState.uidAliases): the UID derived now → the one it had. */
  uidAliases?: ReadonlyMap<string, string>;
  /** `time-range NAME` blocks (asaTimeRanges.ts). */
  timeRanges?: TimeRange[];
}

/** `time-range NAME` with its `absolute` line: active from `start` (if any) until `end` (if any). */
export interface TimeRange {
  name: string;
  /** The body lines as written (`absolute end 00:00 12 June 2031`). */
  body: string[];
  start?: number;
  end?: number;
}
