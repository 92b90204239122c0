// The variables of the process: its HTTP ports (Slack events, health, metrics), whether the bot also does the
// work behind Slack, when a staged change's thread is reminded, and the log level.
import { accept, type Checked, refuse } from '../issues.js';
import { checkSwitch, defaultedVariable, integerBetween, optionalVariable } from './declare.js';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

function checkLogLevel(raw: string): Checked<LogLevel> {
  const level = raw.toLowerCase();
  const known = logLevels.find((candidate) => candidate === level);
  return known === undefined ? refuse(`must be one of ${logLevels.join(', ')}`) : accept(known);
}

export const processVariables = {
  PORT: defaultedVariable(
    {
      requiredWhen: 'never',
      example: '8080',
      description:
        'HTTP port: Slack events in HTTP mode, health and metrics in both modes and in `npm run worker` ' +
        '(each process on one host needs its own) (1–65535).',
      secret: false,
    },
    '3000',
    integerBetween(1, 65_535),
  ),
  METRICS_PORT: optionalVariable(
    {
      requiredWhen: 'never',
      example: '9464',
      description:
        "/metrics and the detailed /readyz (each check's reason, which may name hosts and ports) on a port of " +
        'their own (a server on 0.0.0.0 that answers nothing else), in the bot and in each worker, so the public ' +
        'PORT need not expose them: PORT then answers /metrics with 404, and its /healthz and /readyz stay (that ' +
        '/readyz names the checks and whether each passes, nothing more). Must differ from PORT (1–65535). ' +
        "Unset: /metrics is on PORT, and the checks' reasons are only logged.",
      secret: false,
    },
    integerBetween(1, 65_535),
  ),
  BOT_WORKERS: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'off',
      description:
        'Whether the bot process also does the work behind Slack (running commands, following transactions, ' +
        'posting outcomes): `on` or `off`. `off` makes it a front that only acknowledges Slack, opens modals and ' +
        'handles buttons, and leaves the work to `npm run worker` processes (as many as you like).',
      secret: false,
    },
    'on',
    checkSwitch,
  ),
  STAGED_REMINDER_MINUTES: defaultedVariable(
    {
      requiredWhen: 'never',
      example: '120',
      description:
        'Minutes after an interface change made through fwbot before its thread is reminded, once, that the ' +
        'device still has not been deployed (its configState is NOT_SYNCED), 1–10080.',
      secret: false,
    },
    '60',
    integerBetween(1, 10_080),
  ),
  LOG_LEVEL: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'debug',
      description: `Log level: ${logLevels.join(', ')} (any case).`,
      secret: false,
    },
    'info',
    checkLogLevel,
  ),
};
