// Structured logs (pino). Secrets never reach a log line: known secret-bearing keys are redacted
// wherever they appear, and request logging records method, path and status only.
import pino, { type Logger } from 'pino';

export type { Logger };

const REDACT = [
  'password',
  'confirmPassword',
  'token',
  'accessToken',
  'refreshToken',
  'access_token',
  'refresh_token',
  'authorization',
  'cookie',
  'secret',
  'clientSecret',
  'client_secret',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: [...REDACT, ...REDACT.map((k) => `*.${k}`), ...REDACT.map((k) => `*.*.${k}`)], censor: '[redacted]' },
      base: undefined,
    },
    destination,
  );
}
