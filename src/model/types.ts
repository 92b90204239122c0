// The plain data fwbot's layers speak in: roles, parameters, raw arguments, who acts, what a renderer may
// know. A leaf module, so the renderers, the usage lines, the policy and the errors can name these types
// without importing the operation machinery that uses them.

/** The four roles, weakest first (config/policy.ts says who holds them, and what each implies). */
export const ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export type Area =
  | 'help'
  | 'devices'
  | 'tenants'
  | 'interfaces'
  | 'changes'
  | 'policy'
  | 'reports'
  | 'gateway'
  | 'vpn'
  | 'msp'
  | 'upgrades'
  | 'alerts'
  | 'audit';

/**
 * How a parameter is written. `device`, `tenant` and `interface` accept a name or a UUID and are
 * resolved at run time (through the inventory, the tenant list or the device's interfaces).
 */
export type ParamKind =
  | 'word'
  | 'query' // the rest of the line: no colon → wildcard search on the name, with a colon → Lucene
  | 'device'
  | 'tenant'
  | 'interface'
  | 'uuid'
  | 'int'
  | 'json'
  | 'choice';

export interface Param {
  name: string;
  kind: ParamKind;
  description: string;
  optional?: boolean;
  /** Takes every remaining word (e.g. `<username…>`); only the last positional may be variadic. */
  variadic?: boolean;
  /** Written `--name value` (or `--name` alone when `boolean`), in any position. */
  flag?: boolean;
  boolean?: boolean;
  choices?: readonly string[];
  /** Accepted by the grammar but left out of usage lines and help (e.g. `--offset`, set by paging). */
  hidden?: boolean;
  /**
   * A positional that the named flag replaces: when that flag is given anywhere on the line, this positional
   * takes no token (an access request's `<asa>`, replaced by `--devices <query>` for several devices).
   */
  replacedBy?: string;
}

/** Raw arguments as the grammar or a modal binds them, before the operation's zod schema types them. */
export type RawArgs = Record<string, string | string[] | boolean | undefined>;

/** A problem with one argument (or with the whole command when `arg` is undefined). */
export interface ArgIssue {
  arg: string | undefined;
  message: string;
}

/** Who acts, and where: a Slack user in a channel, a console user, or the CLI's operator. */
export interface Actor {
  userId: string;
  channelId: string;
  /** The workspace the request was delivered for (the channel's side); absent = the home workspace. */
  teamId?: string | undefined;
  /** The user's own team (Slack's `user.team_id`); differs from `teamId` for a person from another workspace. */
  userTeamId?: string | undefined;
  /** The Enterprise Grid organization the request came from, when there is one. */
  enterpriseId?: string | undefined;
  /**
   * An external person: set only by the Slack surface, when the user's own team differs from the workspace the
   * request was delivered for and both are not in one Grid organization (a Slack Connect channel). Console and
   * CLI actors are home-workspace people, never external.
   */
  external?: boolean | undefined;
  /**
   * The actor is in no channel (the CLI): `channelId` only says where its roles and profile are looked up,
   * and an operation about a channel acts on the one its arguments or its subject belong to.
   */
  noChannel?: true;
}

/**
 * What a renderer may know besides the result and the typed arguments: plain data, so renderers stay
 * pure. Paging buttons need the operation id and the raw arguments; announcements name the requester.
 */
export interface RenderMeta {
  operationId: string;
  raw: RawArgs;
  actor: Actor;
}

/** One item staged on an ASA, as its two copies of the configuration differ (stagedDiff.ts). */
export interface StagedItem {
  /** `interface Vlan20`, `mtu inside`. */
  what: string;
  change: 'new' | 'removed' | 'changed';
}
