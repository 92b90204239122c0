// Reads the FWBOT_PROFILES file: YAML with line numbers, the schema (profilesFileSchema.ts), the checks that
// need the environment or more than one section (token variables, the `default` profile, profiles named
// where they are not defined), and the typed result, each section's settings made by its own file
// (sections/). Every problem names the file and line; none quotes a value, since the file is where tokens
// must not be.
import type { z } from 'zod';
import { checkSccToken, isCredentialKey, looksLikeCredential } from './credentials.js';
import type { SccProfile } from './endpoints.js';
import type { Environment } from './environment.js';
import { type ConfigIssue, didYouMean, isQuotable } from './issues.js';
import type { Role, RolePolicy } from './policy.js';
import { fileExampleFor, type ProfilesFileData, ProfilesFileSchema } from './profilesFileSchema.js';
import { Secret } from './secret.js';
import { type AccessRequestPolicy, accessFrom } from './sections/access.js';
import { type ApprovalSettings, approvalsFrom } from './sections/approvals.js';
import { type AuditSettings, auditFrom } from './sections/audit.js';
import { type ChangeSettings, changesFrom } from './sections/changes.js';
import { bindingsFrom, type ChannelBinding } from './sections/channels.js';
import { type DeviceOutputSettings, deviceOutputFrom } from './sections/deviceOutput.js';
import { operationRolesFrom, policyFrom } from './sections/policy.js';
import { isTokenVariableName, profilesFrom } from './sections/profiles.js';
import { type ResponseSettings, responseFrom } from './sections/response.js';
import { isUnknownKeyParams, PROFILE_NAME, plainWords } from './sections/schemaParts.js';
import { type UpgradeSettings, upgradesFrom } from './sections/upgrades.js';
import { type WorkspaceSettings, workspacesFrom } from './sections/workspaces.js';
import { YamlSource } from './yamlSource.js';

export interface ProfilesFileContents {
  readonly profiles: readonly SccProfile[];
  /** Channel id → its binding (a profile, and for a customer channel its tenant), in the home workspace. */
  readonly channels: ReadonlyMap<string, ChannelBinding>;
  /** null when the file has no `policy` section. */
  readonly policy: RolePolicy | null;
  /** Team id (T… or E…) → another workspace's settings (`workspaces`, OAuth mode). */
  readonly workspaces: ReadonlyMap<string, WorkspaceSettings>;
  readonly approvals: ApprovalSettings;
  readonly audit: AuditSettings;
  readonly changes: ChangeSettings;
  readonly deviceOutput: DeviceOutputSettings;
  /** The responder's fast path (the file's `response`). */
  readonly response: ResponseSettings;
  /** The access requests' risk policy and recertification (the file's `access`). */
  readonly accessRequests: AccessRequestPolicy;
  /** What is checked after a software upgrade (the file's `upgrades`). */
  readonly upgrades: UpgradeSettings;
  /** Operation id → the role it needs here, raised above its declared one (`policy.operations`). */
  readonly operationRoles: Readonly<Record<string, Role>>;
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
  private readonly yaml: YamlSource;
  private readonly issues: ConfigIssue[] = [];
  private readonly secrets: string[] = [];
  /** Lines already reported as holding a literal token: other complaints about them would only add noise. */
  private readonly tokenLines = new Set<number>();

  constructor(
    private readonly input: ProfilesFileInput,
    text: string,
  ) {
    this.yaml = new YamlSource(text);
  }

  read(): ProfilesFileResult {
    this.findLiteralTokens();
    const syntax = this.yaml.syntaxProblems();
    for (const { line, description } of syntax)
      this.report({ line, problem: `is not valid YAML: ${description}` });
    if (syntax.length > 0) return this.result(undefined, false);

    let raw: unknown;
    try {
      raw = this.yaml.toJS() ?? {};
    } catch {
      this.report({ line: 1, problem: 'is not valid YAML: too many aliases' });
      return this.result(undefined, false);
    }
    if (!isRecord(raw)) {
      this.report({
        line: 1,
        problem:
          'must be a mapping with the keys profiles, channels, policy, workspaces, approvals, audit, changes, device_output',
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

  /** Any string shaped like a credential, wherever it is; remembered so it can be scrubbed from output. */
  private findLiteralTokens(): void {
    for (const scalar of this.yaml.stringScalars()) {
      if (!looksLikeCredential(scalar.value)) continue;
      this.secrets.push(scalar.value);
      this.reportLiteralToken(scalar.line, renderKey(scalar.keys));
    }
  }

  private reportLiteralToken(line: number, key: string): void {
    // A token found by its shape and again by its key is one problem.
    if (this.tokenLines.has(line)) return;
    this.tokenLines.add(line);
    this.report({
      line,
      key,
      problem: LITERAL_TOKEN,
      example: fileExampleFor(['profiles', '_', 'token_env']),
    });
  }

  private reportSchemaIssue(issue: z.core.$ZodIssue): void {
    const path = issue.path;
    if (issue.code === 'custom' && isUnknownKeyParams(issue.params)) {
      const key = String(path.at(-1));
      const parent = path.slice(0, -1);
      const line = this.yaml.lineOfKey(parent, key);
      if (isCredentialKey(key)) {
        this.reportLiteralToken(line, renderKey(path));
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
      const line = this.yaml.lineOfKey(path.slice(0, -1), key);
      const problem = issue.issues[0]?.message ?? 'is not a valid key';
      this.report({ line, key: renderKey(path), problem, example: fileExampleFor(path) });
      return;
    }
    this.report({
      line: this.yaml.lineOf(path),
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
        line: this.yaml.lineOfKey(['profiles'], 'default'),
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
      const line = this.yaml.lineOf(['profiles', name, 'token_env']);
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
    this.checkBindings(raw.channels, ['channels'], defined);
    const workspaces = isRecord(raw.workspaces) ? raw.workspaces : {};
    for (const [team, workspace] of Object.entries(workspaces)) {
      if (!isRecord(workspace)) continue;
      this.checkProfileDefined(workspace.profile, ['workspaces', team, 'profile'], defined);
      this.checkProfileDefined(workspace.tenant_profile, ['workspaces', team, 'tenant_profile'], defined);
      this.checkBindings(workspace.channels, ['workspaces', team, 'channels'], defined);
    }
    this.checkListedProfiles(raw.approvals, 'approvals', 'approvers', defined);
    this.checkListedProfiles(raw.changes, 'changes', 'windows', defined);
    return tokens;
  }

  /** Each item of the list `section.list` (approvers' rules, change windows) names a defined profile, if any. */
  private checkListedProfiles(
    section: unknown,
    name: string,
    list: string,
    defined: readonly string[],
  ): void {
    const items = isRecord(section) && Array.isArray(section[list]) ? section[list] : [];
    items.forEach((item: unknown, index) => {
      const target = isRecord(item) ? item.profile : undefined;
      if (typeof target !== 'string' || !PROFILE_NAME.test(target) || defined.includes(target)) return;
      const suggestion = didYouMean(target, defined);
      const hint = suggestion === undefined ? '' : ` Did you mean ${suggestion}?`;
      this.report({
        line: this.yaml.lineOf([name, list, index, 'profile']),
        key: renderKey([name, list, index, 'profile']),
        problem: `names ${isQuotable(target) ? `profile ${target}` : 'a profile'}, which is not defined.${hint}`,
      });
    });
  }

  /** Every channel binding under `at` (either form) names defined profiles. */
  private checkBindings(channels: unknown, at: readonly string[], defined: readonly string[]): void {
    if (!isRecord(channels)) return;
    for (const [channel, target] of Object.entries(channels)) {
      if (typeof target === 'string') {
        this.checkProfileDefined(target, [...at, channel], defined, 'is bound to');
        continue;
      }
      if (!isRecord(target)) continue;
      this.checkProfileDefined(target.profile, [...at, channel, 'profile'], defined);
      this.checkProfileDefined(target.tenant_profile, [...at, channel, 'tenant_profile'], defined);
    }
  }

  /** A well-formed profile name at `path` must name a profile the file or SCC_API_TOKEN defines. */
  private checkProfileDefined(
    target: unknown,
    path: readonly string[],
    defined: readonly string[],
    verb = 'names',
  ): void {
    // A malformed name is the schema's to report.
    if (typeof target !== 'string' || !PROFILE_NAME.test(target) || defined.includes(target)) return;
    const suggestion = didYouMean(target, defined);
    const hint = suggestion === undefined ? '' : ` Did you mean ${suggestion}?`;
    const choices =
      defined.length === 0 ? 'no profile is defined' : `defined profiles: ${defined.join(', ')}`;
    this.report({
      line: this.yaml.lineOf(path),
      key: renderKey(path),
      problem: `${verb} ${isQuotable(target) ? `profile ${target}` : 'a profile'}, which is not defined (${choices}).${hint}`,
    });
  }

  private contents(data: ProfilesFileData, tokens: ReadonlyMap<string, Secret>): ProfilesFileContents {
    return {
      profiles: profilesFrom(data.profiles, tokens),
      channels: bindingsFrom(data.channels),
      policy: policyFrom(data.policy),
      workspaces: workspacesFrom(data.workspaces),
      approvals: approvalsFrom(data.approvals),
      audit: auditFrom(data.audit),
      changes: changesFrom(data.changes),
      deviceOutput: deviceOutputFrom(data.device_output),
      response: responseFrom(data.response),
      accessRequests: accessFrom(data.access),
      upgrades: upgradesFrom(data.upgrades),
      operationRoles: operationRolesFrom(data.policy),
    };
  }
}
