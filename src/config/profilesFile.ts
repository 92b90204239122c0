// Reads the FWBOT_PROFILES file: YAML with line numbers, the schema, the checks that need the environment
// (token variables, the `default` profile, bindings to defined profiles), and the typed result. Every
// problem names the file and line; none quotes a value, since the file is where tokens must not be.
import {
  type Document,
  type ErrorCode,
  isMap,
  isPair,
  isScalar,
  LineCounter,
  type Node,
  parseDocument,
  visit,
  type YAMLError,
} from 'yaml';
import type { z } from 'zod';
import { checkSccToken, isCredentialKey, looksLikeCredential } from './credentials.js';
import { type SccProfile, sccBaseUrlForRegion } from './endpoints.js';
import type { Environment } from './environment.js';
import { type ConfigIssue, didYouMean, isQuotable } from './issues.js';
import { type RoleGrants, type RolePolicy, roles } from './policy.js';
import {
  type ApprovalSettings,
  type AuditSettings,
  defaultApprovals,
  defaultAudit,
  fileExampleFor,
  isTokenVariableName,
  isUnknownKeyParams,
  PROFILE_NAME,
  type ProfilesFileData,
  ProfilesFileSchema,
} from './profilesFileSchema.js';
import { Secret } from './secret.js';

export interface ProfilesFileContents {
  readonly profiles: readonly SccProfile[];
  /** Channel id → profile name. */
  readonly channels: ReadonlyMap<string, string>;
  /** null when the file has no `policy` section. */
  readonly policy: RolePolicy | null;
  readonly approvals: ApprovalSettings;
  readonly audit: AuditSettings;
}

export interface ProfilesFileResult {
  /** Present only when there are no issues. */
  readonly contents: ProfilesFileContents | undefined;
  readonly issues: readonly ConfigIssue[];
  /** Whether the file declares at least one profile, even if something else in it is wrong. */
  readonly definesProfiles: boolean;
  /** Token values read for the file's profiles, and credentials found in it: to scrub from any output. */
  readonly secrets: readonly string[];
}

export interface ProfilesFileInput {
  readonly path: string;
  readonly readFile: (path: string) => string;
  readonly env: Environment;
  /** True when SCC_API_TOKEN defines the profile `default`, which the file then may not redefine. */
  readonly envDefinesDefault: boolean;
}

const LITERAL_TOKEN =
  'looks like a token written into the file; tokens never go in this file. Put it in an environment ' +
  'variable, name that variable with token_env, and rotate the token if the file was shared';

// yaml messages that never contain text from the file. Others may (e.g. "Unexpected <source>"), so
// they are replaced by a description of their code alone.
const FIXED_YAML_MESSAGES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ALIAS_PROPS',
  'BAD_ALIAS',
  'BAD_INDENT',
  'BLOCK_AS_IMPLICIT_KEY',
  'BLOCK_IN_FLOW',
  'DUPLICATE_KEY',
  'MISSING_CHAR',
  'MULTILINE_IMPLICIT_KEY',
  'MULTIPLE_ANCHORS',
  'MULTIPLE_TAGS',
  'TAB_AS_INDENT',
]);

const YAML_CODE_DESCRIPTIONS: Partial<Record<ErrorCode, string>> = {
  BAD_DIRECTIVE: 'a %-directive is malformed',
  BAD_DQ_ESCAPE: 'a double-quoted string has an invalid escape sequence',
  BAD_PROP_ORDER: 'anchors and tags must come after the - or ? indicator',
  BAD_SCALAR_START: 'a plain value cannot start with this character; quote the value',
  BAD_COLLECTION_TYPE: 'a tag does not fit its collection',
  KEY_OVER_1024_CHARS: 'a key is longer than 1024 characters',
  MULTIPLE_DOCS: 'the file holds more than one document (---); keep everything in one',
  NON_STRING_KEY: 'keys must be plain text',
  RESOURCE_EXHAUSTION: 'too many aliases',
  TAG_RESOLVE_FAILED: 'a tag (!…) is not known',
  UNEXPECTED_TOKEN: 'unexpected characters',
};

function describeYamlError(error: YAMLError): string {
  if (FIXED_YAML_MESSAGES.has(error.code)) return error.message;
  return YAML_CODE_DESCRIPTIONS[error.code] ?? `syntax error (${error.code})`;
}

export function readProfilesFile(input: ProfilesFileInput): ProfilesFileResult {
  let text: string;
  try {
    text = input.readFile(input.path);
  } catch (error) {
    const shown = describePath(input.path);
    const file = shown === input.path ? `the file ${shown}, which` : 'a file that';
    const problem = `names ${file} cannot be read (${describeReadError(error)})`;
    return failed([
      { source: 'FWBOT_PROFILES', problem, example: 'FWBOT_PROFILES=/etc/fwbot/profiles.yaml' },
    ]);
  }
  return new ProfilesFileReader(input, text).read();
}

function failed(issues: ConfigIssue[]): ProfilesFileResult {
  return { contents: undefined, issues, definesProfiles: false, secrets: [] };
}

/**
 * The file's path as issues show it. A path has a slash or an extension; a value without either, or
 * shaped like a token, is probably a token pasted into FWBOT_PROFILES and is not repeated.
 */
function describePath(path: string): string {
  return /[/\\.]/.test(path) && !looksLikeCredential(path) ? path : 'the FWBOT_PROFILES file';
}

function describeReadError(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return code === '' ? 'unknown error' : code;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** profiles.acme.region, with any key that is not a short identifier shown as <key>, never quoted. */
function renderKey(path: readonly PropertyKey[]): string {
  return path
    .map((segment) => {
      if (typeof segment === 'number') return `[${segment}]`;
      const text = String(segment);
      return `.${isQuotable(text) ? text : '<key>'}`;
    })
    .join('')
    .replace(/^\./, '');
}

class ProfilesFileReader {
  private readonly lines = new LineCounter();
  private readonly issues: ConfigIssue[] = [];
  private readonly secrets: string[] = [];
  /** Lines already reported as holding a literal token: other complaints about them would only add noise. */
  private readonly tokenLines = new Set<number>();
  private readonly doc: Document.Parsed;

  constructor(
    private readonly input: ProfilesFileInput,
    text: string,
  ) {
    this.doc = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: true });
  }

  read(): ProfilesFileResult {
    this.findLiteralTokens();
    for (const error of this.doc.errors) {
      this.report({
        line: this.lineAt(error.pos[0]),
        problem: `is not valid YAML: ${describeYamlError(error)}`,
      });
    }
    if (this.doc.errors.length > 0) return this.result(undefined, false);

    let raw: unknown;
    try {
      raw = this.doc.toJS({ maxAliasCount: 100 }) ?? {};
    } catch {
      this.report({ line: 1, problem: 'is not valid YAML: too many aliases' });
      return this.result(undefined, false);
    }
    if (!isRecord(raw)) {
      this.report({
        line: 1,
        problem: 'must be a mapping with the keys profiles, channels, policy, approvals, audit',
      });
      return this.result(undefined, false);
    }
    const definesProfiles = isRecord(raw.profiles) && Object.keys(raw.profiles).length > 0;
    const parsed = ProfilesFileSchema.safeParse(raw, { error: plainWords });
    if (!parsed.success) for (const issue of parsed.error.issues) this.reportSchemaIssue(issue);
    const tokens = this.checkAgainstEnvironment(raw);
    if (!parsed.success || this.issues.length > 0) return this.result(undefined, definesProfiles);
    return this.result(this.contents(parsed.data, tokens), definesProfiles);
  }

  private result(contents: ProfilesFileContents | undefined, definesProfiles: boolean): ProfilesFileResult {
    const issues = this.issues.filter(
      (issue) => issue.problem === LITERAL_TOKEN || !this.tokenLines.has(issue.line ?? 0),
    );
    return {
      contents: issues.length === 0 ? contents : undefined,
      issues,
      definesProfiles,
      secrets: this.secrets,
    };
  }

  private report(issue: { line: number; key?: string; problem: string; example?: string | undefined }): void {
    this.issues.push({
      source: describePath(this.input.path),
      line: issue.line,
      ...(issue.key === undefined || issue.key === '' ? {} : { key: issue.key }),
      problem: issue.problem,
      ...(issue.example === undefined ? {} : { example: issue.example }),
    });
  }

  private lineAt(offset: number): number {
    return this.lines.linePos(offset).line;
  }

  /** The line of the node at `path`, or of its nearest ancestor that exists. */
  private lineOf(path: readonly PropertyKey[]): number {
    for (let depth = path.length; depth > 0; depth--) {
      const node = this.doc.getIn(path.slice(0, depth), true);
      if (isNodeWithRange(node)) return this.lineAt(node.range[0]);
    }
    return 1;
  }

  /** The line of a key itself (for unknown and invalid keys, whose value may not even parse). */
  private lineOfKey(parentPath: readonly PropertyKey[], key: string): number {
    const parent = parentPath.length === 0 ? this.doc.contents : this.doc.getIn(parentPath, true);
    if (isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
      if (pair !== undefined && isNodeWithRange(pair.key)) return this.lineAt(pair.key.range[0]);
    }
    return this.lineOf(parentPath);
  }

  /** Any scalar shaped like a credential, wherever it is; remembered so it can be scrubbed from output. */
  private findLiteralTokens(): void {
    visit(this.doc, {
      Scalar: (_key, node, ancestors) => {
        if (typeof node.value !== 'string' || !looksLikeCredential(node.value)) return;
        this.secrets.push(node.value);
        const line = node.range === undefined || node.range === null ? 1 : this.lineAt(node.range[0]);
        this.tokenLines.add(line);
        const keys = ancestors
          .filter(isPair)
          .map((pair) => (isScalar(pair.key) ? String(pair.key.value) : '?'));
        this.report({
          line,
          key: renderKey(keys),
          problem: LITERAL_TOKEN,
          example: fileExampleFor(['profiles', '_', 'token_env']),
        });
      },
    });
  }

  private reportSchemaIssue(issue: z.core.$ZodIssue): void {
    const path = issue.path;
    if (issue.code === 'custom' && isUnknownKeyParams(issue.params)) {
      const key = String(path.at(-1));
      const parent = path.slice(0, -1);
      const line = this.lineOfKey(parent, key);
      if (isCredentialKey(key)) {
        // The scan may have found the same token by its shape already: one report per line is enough.
        if (this.tokenLines.has(line)) return;
        this.tokenLines.add(line);
        this.report({
          line,
          key: renderKey(path),
          problem: LITERAL_TOKEN,
          example: fileExampleFor(['profiles', '_', 'token_env']),
        });
        return;
      }
      const suggestion = didYouMean(key, issue.params.known);
      const hint = suggestion === undefined ? '' : `; did you mean ${suggestion}?`;
      this.report({
        line,
        key: renderKey(path),
        problem: `is not a known key${hint} Keys allowed here: ${issue.params.known.join(', ')}`,
      });
      return;
    }
    if (issue.code === 'invalid_key') {
      const key = String(path.at(-1));
      const line = this.lineOfKey(path.slice(0, -1), key);
      const problem = issue.issues[0]?.message ?? 'is not a valid key';
      this.report({ line, key: renderKey(path), problem, example: fileExampleFor(path) });
      return;
    }
    this.report({
      line: this.lineOf(path),
      key: renderKey(path),
      problem: issue.message,
      example: fileExampleFor(path),
    });
  }

  /** Checks that need the environment. Works on the raw data so it runs even when the schema failed. */
  private checkAgainstEnvironment(raw: Record<string, unknown>): Map<string, Secret> {
    const tokens = new Map<string, Secret>();
    const profiles = isRecord(raw.profiles) ? raw.profiles : {};
    const names = Object.keys(profiles).filter((name) => PROFILE_NAME.test(name));
    if (this.input.envDefinesDefault && names.includes('default')) {
      this.report({
        line: this.lineOfKey(['profiles'], 'default'),
        key: 'profiles.default',
        problem:
          'clashes with the profile `default` that SCC_API_TOKEN defines; rename this profile or unset SCC_API_TOKEN',
      });
    }
    for (const name of names) {
      const profile = profiles[name];
      const tokenEnv = isRecord(profile) ? profile.token_env : undefined;
      // A malformed name is the schema's to report; only a usable one is looked up.
      if (typeof tokenEnv !== 'string' || !isTokenVariableName(tokenEnv)) continue;
      const key = `profiles.${name}.token_env`;
      const line = this.lineOf(['profiles', name, 'token_env']);
      const value = this.input.env[tokenEnv];
      if (value !== undefined) this.secrets.push(value, value.trim());
      if (value === undefined || value.trim() === '') {
        this.report({
          line,
          key,
          problem: `names ${tokenEnv}, which is not set (or is empty); set it to this profile's SCC API token`,
        });
        continue;
      }
      const token = checkSccToken(value.trim());
      if (token.ok) tokens.set(name, new Secret(token.value));
      else this.report({ line, key, problem: `the value of ${tokenEnv} ${token.problem}` });
    }
    const defined = this.input.envDefinesDefault ? [...names, 'default'] : names;
    const channels = isRecord(raw.channels) ? raw.channels : {};
    for (const [channel, target] of Object.entries(channels)) {
      if (typeof target !== 'string' || !PROFILE_NAME.test(target) || defined.includes(target)) continue;
      const suggestion = didYouMean(target, defined);
      const hint = suggestion === undefined ? '' : ` Did you mean ${suggestion}?`;
      const choices =
        defined.length === 0 ? 'no profile is defined' : `defined profiles: ${defined.join(', ')}`;
      this.report({
        line: this.lineOf(['channels', channel]),
        key: renderKey(['channels', channel]),
        problem: `is bound to ${isQuotable(target) ? `profile ${target}` : 'a profile'}, which is not defined (${choices}).${hint}`,
      });
    }
    return tokens;
  }

  private contents(data: ProfilesFileData, tokens: ReadonlyMap<string, Secret>): ProfilesFileContents {
    const profiles: SccProfile[] = [];
    for (const [name, profile] of Object.entries(data.profiles ?? {})) {
      const token = tokens.get(name);
      const endpoint =
        profile.base_url !== undefined
          ? { baseUrl: profile.base_url }
          : profile.region !== undefined
            ? { baseUrl: sccBaseUrlForRegion(profile.region), region: profile.region }
            : undefined;
      // A profile without a usable token or endpoint was reported above, and then we never get here.
      if (token === undefined || endpoint === undefined) continue;
      profiles.push(
        Object.freeze({
          name,
          ...endpoint,
          token,
          tokenVariable: profile.token_env,
          source: 'file' as const,
        }),
      );
    }
    const approvals = data.approvals ?? {};
    return {
      profiles,
      channels: new Map(Object.entries(data.channels ?? {})),
      policy: data.policy === undefined ? null : policyFrom(data.policy),
      approvals: Object.freeze({
        expiryMinutes: approvals.expiry_minutes ?? defaultApprovals.expiryMinutes,
        allowSelfApproval: approvals.allow_self_approval ?? defaultApprovals.allowSelfApproval,
        requireForVpnUpgrades: approvals.require_for_vpn_upgrades ?? defaultApprovals.requireForVpnUpgrades,
      }),
      audit: Object.freeze({ retentionDays: data.audit?.retention_days ?? defaultAudit.retentionDays }),
    };
  }
}

type PolicyData = NonNullable<ProfilesFileData['policy']>;
type GrantsData = NonNullable<PolicyData['workspace']>;

function grantsFrom(data: GrantsData | undefined): RoleGrants {
  const entries = roles.map((role) => [role, Object.freeze([...(data?.[role] ?? [])])] as const);
  return Object.freeze(Object.fromEntries(entries) as Record<(typeof roles)[number], readonly string[]>);
}

function policyFrom(data: PolicyData): RolePolicy {
  const channels = Object.entries(data.channels ?? {}).map(
    ([channel, grants]) => [channel, grantsFrom(grants)] as const,
  );
  return { workspace: grantsFrom(data.workspace), channels: new Map(channels) };
}

function isNodeWithRange(node: unknown): node is Node & { range: [number, number, number] } {
  return typeof node === 'object' && node !== null && 'range' in node && Array.isArray(node.range);
}

/** Plain words for zod's own issues (the schema's custom checks bring their own). Never quotes the input. */
function plainWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is missing';
      if (issue.input === null) return `is empty; expected ${describeType(issue.expected)}`;
      return `must be ${describeType(issue.expected)}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    default:
      return undefined;
  }
}

function describeType(expected: string): string {
  switch (expected) {
    case 'string':
      return 'text';
    case 'number':
      return 'a number';
    case 'int':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list';
    case 'object':
    case 'record':
      return 'a mapping (key: value)';
    default:
      return expected;
  }
}
