// What answers "is this allowed, and where is this used?": SCC's global search, an ASA's access rules and
// access groups (each rule with its configuration text and line, its action, networks, ports, and the
// issues SCC found: shadowed, duplicate, shared), objects with where they are used, and the ASA command
// line (`executeCliCommand`: an asynchronous transaction, then the results by execution).
//
// The command line applies what it is sent to the device directly (not staged, no deploy, no undo): fwbot
// sends it only commands built from its own read-only templates (src/catalogue/asaCommands.ts), never text
// a person typed. That is also why a lost answer to `executeCliCommand` is retried like a read
// (callPolicy.ts, COMPUTING_POSTS): running a read-only command twice changes nothing.
import type { CallOptions, PageQuery, SccCaller, SearchQuery, SortOrder } from './call.js';
import type * as Model from './generated/models.js';

export interface ObjectQuery extends PageQuery {
  /** Lucene over the object's `name` and `content` (the only searchable fields). */
  q?: string;
  /** One `field:ASC|DESC` (this list takes a single sort). */
  sort?: SortOrder;
  /** Also match override objects. */
  includeOverrides?: boolean;
}

/** A CLI result, by the execution that produced it (one execution may give one result per device). */
export interface CliResultQuery extends SearchQuery {
  /** Lucene, e.g. `executionUid:…` or `deviceUid:…`. */
  q?: string;
}

export interface LookupsArea {
  /** SCC's global search: devices, managers, services, objects, policies, and cdFMC's. */
  search(text: string, options?: CallOptions): Promise<Model.GlobalSearchResult>;
  /** Access rules (`q` e.g. `entityUid:<device>`, `accessGroupUid:<group>`), in SCC's order unless sorted. */
  accessRules(query?: SearchQuery, options?: CallOptions): Promise<Model.AccessRulePage>;
  accessRule(accessRuleUid: string, options?: CallOptions): Promise<Model.AccessRule>;
  accessGroups(query?: SearchQuery, options?: CallOptions): Promise<Model.AccessGroupPage>;
  accessGroup(accessGroupUid: string, options?: CallOptions): Promise<Model.AccessGroup>;
  objects(query?: ObjectQuery, options?: CallOptions): Promise<Model.ListObjectResponse>;
  /** One object; `@detailed` adds its targets and references. */
  object(uid: string, fields?: '@basic' | '@detailed', options?: CallOptions): Promise<Model.ObjectResponse>;
  /** Where an object is used: the rules, groups and objects that reference it. */
  objectUsages(uid: string, options?: CallOptions): Promise<Model.ReferenceInfo[]>;
  /** Starts a script on ASAs: a 202 transaction to follow, then read the results. */
  executeCli(
    input: { deviceUids: string[]; script: string },
    options?: CallOptions,
  ): Promise<Model.CdoTransaction>;
  cliResults(query?: CliResultQuery, options?: CallOptions): Promise<Model.CdoCliResultPage>;
  cliResult(cliResultUid: string, options?: CallOptions): Promise<Model.CdoCliResult>;
}

export function createLookupsArea({ call }: SccCaller): LookupsArea {
  return {
    search: async (text, options = {}) => (await call('search', { query: { q: text }, ...options })).data,
    accessRules: async (query = {}, options = {}) =>
      (await call('listAccessRules', { query, ...options })).data,
    accessRule: async (accessRuleUid, options = {}) =>
      (await call('fetchAccessRule', { path: { accessRuleUid }, ...options })).data,
    accessGroups: async (query = {}, options = {}) =>
      (await call('listAccessGroups', { query, ...options })).data,
    accessGroup: async (accessGroupUid, options = {}) =>
      (await call('fetchAccessGroup', { path: { accessGroupUid }, ...options })).data,
    objects: async (query = {}, options = {}) => (await call('getObjects', { query, ...options })).data,
    object: async (uid, fields, options = {}) =>
      (await call('getObject', { path: { uid }, query: fields ? { fields } : {}, ...options })).data,
    objectUsages: async (uid, options = {}) =>
      (await call('getObjectUsages', { path: { uid }, ...options })).data,
    executeCli: async (input, options = {}) =>
      (await call('executeCliCommand', { body: input, ...options })).data,
    cliResults: async (query = {}, options = {}) => (await call('getCliResults', { query, ...options })).data,
    cliResult: async (cliResultUid, options = {}) =>
      (await call('getCliResult', { path: { cliResultUid }, ...options })).data,
  };
}
