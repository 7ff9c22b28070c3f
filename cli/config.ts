// Where `crm login` keeps its sign-ins: config.json in the user's config directory
// ($XDG_CONFIG_HOME/crm-assistant, by default ~/.config/crm-assistant on Linux; env-paths picks the
// platform's place elsewhere), readable by the user only (directory 0700, file 0600). It holds the
// default server (the last one signed in to; kept by `crm logout`) and one token per server.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { z } from 'zod';

export const DEFAULT_SERVER = 'http://127.0.0.1:3000';

const loginSchema = z.object({
  token: z.string().min(1),
  email: z.string(),
  /** Relay id of the token, to tell it apart in `personalAccessTokens`. */
  tokenId: z.string().optional(),
  /** The name the token was created with ("crm CLI on laptop"). */
  tokenName: z.string().optional(),
  savedAt: z.string().optional(),
});

const configSchema = z.object({
  /** The server commands use without --server or CRM_SERVER. */
  server: z.url().optional(),
  /** Sign-ins by server origin. */
  logins: z.record(z.string(), loginSchema).default({}),
});

/** The format of the first release: one login, its server at the top. Read, and written anew as the current one. */
const legacySchema = loginSchema.extend({ server: z.url() }).transform(({ server, ...login }) => ({ server, logins: { [server]: login } }));

export type SavedLogin = z.infer<typeof loginSchema>;
export type Config = z.infer<typeof configSchema>;

/** Read at call time, so that XDG_CONFIG_HOME set by a test or a script applies. */
export const configDir = () => envPaths('crm-assistant', { suffix: '' }).config;
export const configFile = () => path.join(configDir(), 'config.json');

/** The config; `damaged` when the file exists but is not one crm wrote (then the config is empty). */
export function readConfig(): { config: Config; damaged: boolean } {
  let text: string;
  try {
    text = readFileSync(configFile(), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { config: { logins: {} }, damaged: false };
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const legacy = legacySchema.safeParse(parsed);
  if (legacy.success) return { config: legacy.data, damaged: false };
  const current = configSchema.safeParse(parsed);
  return current.success ? { config: current.data, damaged: false } : { config: { logins: {} }, damaged: true };
}

export function writeConfig(config: Config): void {
  const dir = configDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = configFile();
  const tmp = `${file}.${process.pid}.tmp`;
  // Written with 0600 from the first byte, then moved into place (a reader never sees half a file).
  writeFileSync(tmp, `${JSON.stringify(configSchema.parse(config), null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

export function removeConfig(): void {
  rmSync(configFile(), { force: true });
}

/** A server address as typed → its origin, the key of its login ("http://127.0.0.1:3000"). */
export const serverUrl = z
  .url({ protocol: /^https?$/, error: 'must be the server address, e.g. http://127.0.0.1:3000' })
  .transform((u) => new URL(u).origin);
