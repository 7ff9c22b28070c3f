// Starts the real app (HTTP on a loopback port) on a fresh test database, with a cookie-aware client.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../../api/app.js';
import { loadConfig, type Config } from '../../api/config.js';
import { createLogger } from '../../api/logger.js';
import { createTestDatabase, type TestDatabase } from './test-db.js';

export interface TestApp {
  app: App;
  config: Config;
  db: TestDatabase;
  url: string;
  close(): Promise<void>;
}

export const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };
export const DEMO = { email: 'demo@test.local', password: 'demo-password-1' };

/** Configuration for tests: a given database, a fresh data dir, fixed secrets, silent logs. */
export function testConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'crm-test-')),
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-123',
    TOKEN_ENCRYPTION_KEY: '0'.repeat(64),
    PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_test_secret',
    // Every test client comes from 127.0.0.1: the per-address budgets would be one shared budget of
    // the whole file. Tests of those budgets set them (tests/api/login-throttle.test.ts).
    LOGIN_IP_MAX_FAILURES: '100000',
    REGISTER_MAX_PER_IP: '100000',
    PASSWORD_RESET_MAX_PER_IP: '100000',
    ...env,
  });
}

export async function startTestApp(
  env: Record<string, string> = {},
  opts: { now?: () => Date; logger?: import('../../api/logger.js').Logger } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = testConfig(db.url, {
    SEED_ADMIN_EMAIL: ADMIN.email,
    SEED_ADMIN_PASSWORD: ADMIN.password,
    SEED_DEMO_EMAIL: DEMO.email,
    SEED_DEMO_PASSWORD: DEMO.password,
    ...env,
  });
  const app = buildApp(config, { logger: opts.logger ?? createLogger('silent'), now: opts.now, onSeeded: () => {} });
  const { url } = await app.start(0);
  return {
    app,
    config,
    db,
    url,
    async close() {
      await app.stop();
      await db.drop();
    },
  };
}

/** A tiny HTTP client that keeps cookies like a browser would (same origin). */
export class Client {
  cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  async request(method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined) h['content-type'] = 'application/json';
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.baseUrl + p, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const sc of res.headers.getSetCookie()) {
      const [pair] = sc.split(';');
      const i = pair.indexOf('=');
      const k = pair.slice(0, i);
      const v = pair.slice(i + 1);
      if (v === '' || /max-age=0/i.test(sc)) this.cookies.delete(k);
      else this.cookies.set(k, v);
    }
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json, text };
  }
  get = (p: string, headers?: Record<string, string>) => this.request('GET', p, undefined, headers);
  post = (p: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', p, body ?? {}, headers);
  put = (p: string, body?: unknown) => this.request('PUT', p, body ?? {});
  delete = (p: string) => this.request('DELETE', p);

  async gql(query: string, variables?: Record<string, unknown>) {
    const r = await this.post('/graphql', { query, variables });
    return r.json as { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] };
  }

  async login(creds: { email: string; password: string }) {
    const r = await this.post('/api/auth/login', creds);
    if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`);
    return r;
  }
}
