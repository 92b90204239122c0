// The variables of SCC: the token, region or base URL of the profile `default`, the time limit of one request,
// and the profiles file that names more profiles (src/config/sections/profiles.ts).
import { checkSccToken } from '../credentials.js';
import { checkRegion, checkSccBaseUrl, sccRegions } from '../endpoints.js';
import { accept } from '../issues.js';
import { defaultedVariable, integerBetween, optionalVariable, secret } from './declare.js';

export const SCC_TIMEOUT_MAX_MS = 600_000;

export const sccVariables = {
  SCC_API_TOKEN: optionalVariable(
    {
      requiredWhen: 'SCC is needed (the bot, the CLI) and FWBOT_PROFILES defines no profile',
      example: 'eyJhbGciOi…',
      description:
        'API token of an SCC API-only user (sent as a bearer token). Together with SCC_REGION or SCC_BASE_URL it defines ' +
        'the profile named `default`, used in every channel without a binding.',
      secret: true,
    },
    secret(checkSccToken),
  ),
  SCC_REGION: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'eu',
      description: `Region of the \`default\` profile: ${sccRegions.join(', ')} (any case); selects \`https://api.<region>.security.cisco.com/firewall\`.`,
      secret: false,
    },
    'us',
    checkRegion,
  ),
  SCC_BASE_URL: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'http://127.0.0.1:4010',
      description:
        'Base URL of the `default` profile, overriding SCC_REGION (simulator, proxy, tests). https://, or ' +
        'http:// to a loopback address only (127.0.0.0/8, ::1, localhost). A trailing slash is ignored.',
      secret: false,
    },
    checkSccBaseUrl,
  ),
  SCC_TIMEOUT_MS: defaultedVariable(
    {
      requiredWhen: 'never',
      example: '75000',
      description: `Time limit of one SCC API request, in milliseconds (1–${SCC_TIMEOUT_MAX_MS}).`,
      secret: false,
    },
    '30000',
    integerBetween(1, SCC_TIMEOUT_MAX_MS),
  ),
  FWBOT_PROFILES: optionalVariable(
    {
      requiredWhen: 'never',
      example: '/etc/fwbot/profiles.yaml',
      description:
        'Path of a YAML file with named SCC profiles, channel bindings, the role policy, approval and audit ' +
        'settings (see "Profiles and policy file").',
      secret: false,
    },
    (raw) => accept(raw),
  ),
};
