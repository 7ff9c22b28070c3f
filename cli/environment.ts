// What the CLI reads from its environment and global options, in one place (also listed by --help):
// the server (--server, CRM_SERVER, the saved default), the token (CRM_TOKEN, the saved one) and the
// time an answer may take (--timeout, CRM_TIMEOUT).
import { z } from 'zod';
import { intOption } from './command.js';
import { DEFAULT_SERVER, serverUrl } from './config.js';
import { CliError } from './errors.js';

export const ENVIRONMENT: readonly (readonly [name: string, what: string])[] = [
  ['CRM_TOKEN', 'a personal access token, used instead of the saved one (CI, scripts)'],
  ['CRM_SERVER', 'the server, instead of the saved one (--server wins)'],
  ['CRM_TIMEOUT', 'seconds to wait for each answer of the server (default 60; --timeout wins)'],
  ['CRM_RETRY_SECONDS', 'how long a read is tried again while the server is away (default 60)'],
  ['XDG_CONFIG_HOME', 'where crm-assistant/config.json is kept (default ~/.config)'],
  ['NO_COLOR', 'plain output without colours (as --no-color)'],
  ['BROWSER', 'the browser crm open starts'],
  ['CRM_DEBUG', 'print the stack of an unexpected error'],
];

export const DEFAULT_TIMEOUT_SECONDS = 60;
const timeoutSeconds = intOption(1, 3600);

/** The global options as commander parsed them. */
export interface GlobalOptions {
  server?: string;
  timeout?: string;
}

function parsed<T>(schema: z.ZodType<T>, value: string, where: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new CliError(`${where}: ${result.error.issues[0].message}`);
  return result.data;
}

/** The server given for this run (--server, else CRM_SERVER), or undefined: then the saved default. */
export function givenServer(opts: GlobalOptions, env: NodeJS.ProcessEnv): { server: string; from: '--server' | 'CRM_SERVER' } | undefined {
  if (opts.server !== undefined) return { server: parsed(serverUrl, opts.server, '--server'), from: '--server' };
  if (env.CRM_SERVER) return { server: parsed(serverUrl, env.CRM_SERVER, 'CRM_SERVER'), from: 'CRM_SERVER' };
  return undefined;
}

export const fallbackServer = (saved: string | undefined) => saved ?? DEFAULT_SERVER;

/** How long one request may take before the CLI gives up on it. */
export function timeoutMs(opts: GlobalOptions, env: NodeJS.ProcessEnv): number {
  if (opts.timeout !== undefined) return parsed(timeoutSeconds, opts.timeout, '--timeout') * 1000;
  if (env.CRM_TIMEOUT) return parsed(timeoutSeconds, env.CRM_TIMEOUT, 'CRM_TIMEOUT') * 1000;
  return DEFAULT_TIMEOUT_SECONDS * 1000;
}

/** CRM_TOKEN, trimmed; undefined when unset or empty. */
export const envToken = (env: NodeJS.ProcessEnv) => env.CRM_TOKEN?.trim() || undefined;
