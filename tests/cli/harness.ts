// What the `crm` subprocess tests share: the real server on the embedded default (PGlite in a
// temporary DATA_DIR, the in-process HubSpot sandbox), one per test file, and people at a
// terminal-less shell, each with their own config directory, no terminal and no colour.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp, type App } from '../../api/app.js';
import { loadConfig } from '../../api/config.js';
import { createLogger } from '../../api/logger.js';
import { connectedUser } from '../helpers/crm.js';
import { buildCli, crm, type CrmOptions, type CrmResult } from './run-crm.js';

export const ADMIN = { email: 'admin@cli.test', password: 'admin-password-1' };
export const PASSWORD = 'pw-123456'; // the password of users made by connectedUser()
export const ANSI = new RegExp(String.fromCharCode(27) + '\\[');

export interface Harness {
  readonly app: App;
  readonly url: string;
  /** A person at a terminal-less shell: their own config directory. */
  person(): Person;
  signedIn(email: string, password?: string): Promise<Person>;
  connectedPerson(tier?: string): Promise<Person & Awaited<ReturnType<typeof connectedUser>>>;
}

export interface Person {
  home: string;
  run(args: string[], input?: string, opts?: Omit<CrmOptions, 'home' | 'input'>): Promise<CrmResult>;
}

export function cliHarness(opts: { contacts?: number } = {}): Harness {
  let app: App;
  let url: string;
  const calls: CrmResult[] = [];

  beforeAll(async () => {
    buildCli();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crm-cli-'));
    app = buildApp(
      loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SEED_ADMIN_EMAIL: ADMIN.email,
        SEED_ADMIN_PASSWORD: ADMIN.password,
        SANDBOX_CONTACTS: String(opts.contacts ?? 1500),
        GENERATION_CRON: 'off',
        MAINTENANCE_CRON: 'off',
      }),
      { logger: createLogger('silent'), onSeeded: () => {} },
    );
    ({ url } = await app.start(0));
    expect(app.database.embedded).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    if (calls.length) {
      const ms = calls.map((c) => c.ms).sort((a, b) => a - b);
      console.log(`crm subprocess calls: ${calls.length}, median ${ms[Math.floor(ms.length / 2)].toFixed(0)} ms, max ${ms[ms.length - 1].toFixed(0)} ms`);
    }
  });

  const person = (): Person => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'crm-home-'));
    const run = async (args: string[], input?: string, more: Omit<CrmOptions, 'home' | 'input'> = {}) => {
      const r = await crm(args, { home, input, ...more });
      calls.push(r);
      // Without a terminal, output is plain.
      expect(r.stdout).not.toMatch(ANSI);
      expect(r.stderr).not.toMatch(ANSI);
      return r;
    };
    return { home, run };
  };

  const signedIn = async (email: string, password = PASSWORD) => {
    const p = person();
    const r = await p.run(['login', '--server', url, '--email', email], `${password}\n`);
    expect(r.code, r.stderr).toBe(0);
    return p;
  };

  return {
    get app() {
      return app;
    },
    get url() {
      return url;
    },
    person,
    signedIn,
    async connectedPerson(tier = 'free') {
      const u = await connectedUser(app, url, tier);
      return { ...u, ...(await signedIn(u.email)) };
    },
  };
}
