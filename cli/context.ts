// What every command gets: the output (Ui), the environment, the server and token of this run, and
// the API as the signed-in user. The server is --server, else CRM_SERVER, else the saved default;
// the token is CRM_TOKEN, else the one saved for that server (a saved token is never sent to
// another server).
import { createApi, type Api } from './api.js';
import { configFile, readConfig, type Config, type SavedLogin } from './config.js';
import { envToken, fallbackServer, givenServer, timeoutMs, type GlobalOptions } from './environment.js';
import { CliError } from './errors.js';
import type { Ui } from './ui.js';

export interface Credentials {
  server: string;
  token: string;
  /** Where the token comes from. */
  source: 'CRM_TOKEN' | 'config';
  /** The saved login it is (source "config"). */
  saved?: SavedLogin;
}

export interface Context {
  ui: Ui;
  env: NodeJS.ProcessEnv;
  /** The saved config; `damaged` when config.json is not one crm wrote. */
  config(): { config: Config; damaged: boolean };
  /** The server of this run. */
  server(): string;
  /** The server given for this run (--server, CRM_SERVER), if any. */
  givenServer(): string | undefined;
  /** The token for server(), or null when there is none. */
  credentials(): Credentials | null;
  /** The API as the signed-in user; a CliError when not signed in. */
  api(): Api;
  /** The API of a server with a given token, or none (signing in and out). */
  apiFor(server: string, token?: string): Api;
  /** How long one request may take (--timeout, CRM_TIMEOUT). */
  timeoutMs(): number;
  dispose(): Promise<void>;
}

export const damagedConfig = () =>
  new CliError(`${configFile()} is damaged (it is not a config saved by crm)`, 'Run crm login to replace it, or crm logout to remove it');

export function createContext(ui: Ui, env: NodeJS.ProcessEnv, globals: () => GlobalOptions): Context {
  const apis: Api[] = [];
  const config = () => readConfig();
  const ctx: Context = {
    ui,
    env,
    config,
    givenServer: () => givenServer(globals(), env)?.server,
    server() {
      const given = ctx.givenServer();
      if (given) return given;
      const { config: saved, damaged } = config();
      if (damaged && !envToken(env)) throw damagedConfig();
      return fallbackServer(saved.server);
    },
    credentials() {
      const server = ctx.server();
      const token = envToken(env);
      if (token) return { server, token, source: 'CRM_TOKEN' };
      const saved = config().config.logins[server];
      return saved ? { server, token: saved.token, source: 'config', saved } : null;
    },
    api() {
      if (signedIn) return signedIn;
      const creds = ctx.credentials();
      if (!creds) throw new CliError(`Not signed in to ${ctx.server()}`, 'Run crm login first (or set CRM_TOKEN)');
      return (signedIn = ctx.apiFor(creds.server, creds.token));
    },
    apiFor(server, token) {
      const api = createApi(server, token, {
        timeoutMs: ctx.timeoutMs(),
        onRetry: (error, attempt) => attempt === 1 && ui.note(`The server is not answering (${error.message}); trying again until it is back...`),
      });
      apis.push(api);
      return api;
    },
    timeoutMs: () => timeoutMs(globals(), env),
    async dispose() {
      await Promise.all(apis.map((a) => a.dispose()));
    },
  };
  let signedIn: Api | undefined;
  return ctx;
}
