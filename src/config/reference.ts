// The configuration page (docs/operating/configuration.md), generated from the declarations (environment variables, the
// profiles file's keys, the roles), so the documentation says exactly what the parser accepts.
// scripts/print-config-reference.ts prints it.
import { configVariables } from './environment.js';
import { EVERYONE, roleDescriptions, roles } from './policy.js';
import { profilesFileKeys } from './profilesFileSchema.js';
import type { ProfilesFileKey } from './sections/schemaParts.js';
import type { ConfigVariable } from './variables/declare.js';

/** The example profiles file shown on the configuration page (a test loads it, so it stays valid). */
export const profilesFileExample = `# FWBOT_PROFILES=/etc/fwbot/profiles.yaml
profiles:                      # named SCC accounts; tokens come from the environment
  acme:
    region: eu                 # or base_url, never both
    token_env: ACME_SCC_TOKEN  # the variable that holds acme's SCC API token
  lab:
    base_url: http://127.0.0.1:4010
    token_env: LAB_SCC_TOKEN

channels:                      # Slack channel id → profile; others use the profile "default"
  C0123ABCD: acme
  G0123ABCD: lab

policy:                        # without this section everyone may read and nobody may change
  workspace:                   # grants in every channel
    admin: [U0123ADMIN]
    viewer: ["*"]              # everyone in the workspace
  channels:                    # extra grants in one channel
    C0123ABCD:
      operator: [U0123OPER1, S0123NETOPS]   # a user and a user group
      approver: U0123APPR1                   # one id may be written without brackets

approvals:
  expiry_minutes: 30
  allow_self_approval: false
  require_for_vpn_upgrades: true

audit:
  retention_days: 90
`;

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function code(text: string | undefined): string {
  return text === undefined || text === '' ? '—' : `\`${cell(text)}\``;
}

function variableRow(variable: ConfigVariable): string {
  const description = variable.secret
    ? `${variable.description} *Secret: never logged.*`
    : variable.description;
  const required = variable.requiredWhen === 'never' ? 'no' : variable.requiredWhen;
  return `| \`${variable.name}\` | ${cell(required)} | ${code(variable.default)} | ${code(variable.example)} | ${cell(description)} |`;
}

/** The Markdown table of every environment variable fwbot reads. */
export function renderVariablesTable(variables: readonly ConfigVariable[] = configVariables): string {
  const header = ['| Variable | Required | Default | Example | Description |', '|---|---|---|---|---|'];
  return [...header, ...variables.map(variableRow)].join('\n');
}

function keyRow(key: ProfilesFileKey): string {
  return `| \`${key.key}\` | ${code(key.default)} | ${code(key.example)} | ${cell(key.description)} |`;
}

export function renderProfilesFileKeysTable(keys: readonly ProfilesFileKey[] = profilesFileKeys): string {
  const header = ['| Key | Default | Example | Meaning |', '|---|---|---|---|'];
  return [...header, ...keys.map(keyRow)].join('\n');
}

function renderRolesTable(): string {
  const rows = roles.map((role) => `| \`${role}\` | ${cell(roleDescriptions[role])} |`);
  return ['| Role | May |', '|---|---|', ...rows].join('\n');
}

/** The whole configuration reference of docs/operating/configuration.md. */
export function renderConfigurationSection(): string {
  return `## Configuration

<!-- Generated from src/config/ by \`npx tsx scripts/print-config-reference.ts --section\`; edit there. -->

fwbot reads its settings once, at start, from environment variables and, optionally, from a YAML file
(\`FWBOT_PROFILES\`). Values are trimmed, and an empty value counts as unset. When something is wrong, fwbot
refuses to start and lists every problem at once: the variable (or the file and line), what is wrong, and an
example of a right value. Error messages and logs never show a token, a secret or a password.

### Environment variables

${renderVariablesTable()}

What must be set depends on what runs: the bot needs Slack and SCC; the CLI needs SCC only (an SCC token or a
profiles file with a profile); the simulator and the demo need neither. Slack runs in Socket Mode when
\`SLACK_APP_TOKEN\` is set, in HTTP mode (events on \`/slack/events\`) when only \`SLACK_SIGNING_SECRET\` is
set, and not at all when no Slack credential is set and the process does not need Slack. Setting any Slack
credential turns Slack on, so a half-finished Slack setup is reported rather than silently ignored.

### Profiles and policy file (\`FWBOT_PROFILES\`)

One bot can serve several SCC accounts (for managed-service providers): each *profile* is an SCC region or
base URL plus the name of the environment variable holding its token. \`SCC_API_TOKEN\` (with \`SCC_REGION\`
or \`SCC_BASE_URL\`) defines the profile \`default\`, which serves every channel without a binding; a file
may define \`default\` itself when \`SCC_API_TOKEN\` is unset. The same file holds the role policy and the
approval and audit settings.

\`\`\`yaml
${profilesFileExample.trimEnd()}
\`\`\`

${renderProfilesFileKeysTable()}

Rules:
- Tokens are never written in this file: \`token_env\` names the variable that holds one, and that variable
  must be set and non-empty. A token found in the file is an error (rotate it if the file was shared).
- Profile names are a lower-case letter followed by up to 29 of \`a-z 0-9 - _\`.
- Channel ids are Slack ids (\`C…\` public, \`G…\` private, \`D…\` direct message); every binding must
  name a profile that the file or \`SCC_API_TOKEN\` defines.
- Grants list Slack user ids (\`U…\`, \`W…\`), user-group ids (\`S…\`; user groups need a paid Slack plan) or
  \`"${EVERYONE}"\` for everyone (not for \`admin\`). A single id may be written without brackets.
- Unknown keys are errors, with a suggestion when one is close (\`regoin\` → \`region\`).

${renderRolesTable()}

A user's roles in a channel are the workspace grants plus that channel's grants. Without a \`policy\`
section, everyone may run read-only operations and nobody may change anything.
`;
}
