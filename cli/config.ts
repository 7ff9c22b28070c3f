// Where `crm login` keeps the server and the personal access token: config.json in the user's config
// directory ($XDG_CONFIG_HOME/crm-assistant, by default ~/.config/crm-assistant on Linux; env-paths
// picks the platform's place elsewhere), readable by the user only (directory 0700, file 0600).
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { z } from 'zod';
import { CliError } from './errors.js';

export const DEFAULT_SERVER = 'http://127.0.0.1:3000';

const storedSchema = z.object({
  server: z.url(),
  token: z.string().min(1),
  email: z.string(),
  /** Relay id of the token, to tell it apart in `personalAccessTokens`. */
  tokenId: z.string().optional(),
  savedAt: z.string().optional(),
});

export type StoredLogin = z.infer<typeof storedSchema>;

/** Read at call time, so that XDG_CONFIG_HOME set by a test or a script applies. */
export const configDir = () => envPaths('crm-assistant', { suffix: '' }).config;
export const configFile = () => path.join(configDir(), 'config.json');

export function readLogin(): StoredLogin | null {
  let text: string;
  try {
    text = readFileSync(configFile(), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const login = storedSchema.safeParse(parsed);
  if (!login.success) throw new CliError(`${configFile()} is not a login saved by crm: run crm login again`);
  return login.data;
}

export function writeLogin(login: StoredLogin): void {
  const dir = configDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = configFile();
  const tmp = `${file}.${process.pid}.tmp`;
  // Written with 0600 from the first byte, then moved into place (a reader never sees half a file).
  writeFileSync(tmp, `${JSON.stringify(storedSchema.parse(login), null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

export function removeLogin(): void {
  rmSync(configFile(), { force: true });
}
