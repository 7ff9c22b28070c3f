// What every command gets: the output (Ui) and, when signed in, the API of the saved server.
import { createApi, type Api } from './api.js';
import { readLogin, type StoredLogin } from './config.js';
import { CliError } from './errors.js';
import type { Ui } from './ui.js';

export interface Context {
  ui: Ui;
  /** The saved login, or null. */
  login(): StoredLogin | null;
  /** The API as the signed-in user; a CliError when not signed in. */
  api(): Api;
  /** The API of a server with a given token, or none (signing in and out). */
  apiFor(server: string, token?: string): Api;
  dispose(): Promise<void>;
}

export function createContext(ui: Ui): Context {
  const apis: Api[] = [];
  const open = (server: string, token?: string) => {
    const api = createApi(server, token, {
      onRetry: (error, attempt) => attempt === 1 && ui.note(`The server is not answering (${error.message}); trying again until it is back...`),
    });
    apis.push(api);
    return api;
  };
  let signedIn: Api | undefined;
  return {
    ui,
    login: readLogin,
    api() {
      if (signedIn) return signedIn;
      const login = readLogin();
      if (!login) throw new CliError('Not signed in', 'Run crm login first');
      return (signedIn = open(login.server, login.token));
    },
    apiFor: (server, token) => open(server, token),
    async dispose() {
      await Promise.all(apis.map((a) => a.dispose()));
    },
  };
}
