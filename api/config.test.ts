import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'cfg-'));

describe('loadConfig', () => {
  it('defaults to the embedded database and generates secrets once into a 0600 file', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir });
    expect(a.databaseUrl).toBeUndefined();
    expect(a.port).toBe(3000);
    expect(a.tokenEncryptionKey).toHaveLength(32);
    const file = path.join(dir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const b = loadConfig({ DATA_DIR: dir });
    expect(b.sessionSecret).toBe(a.sessionSecret);
    expect(b.tokenEncryptionKey.equals(a.tokenEncryptionKey)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8')).sessionSecret).toBe(a.sessionSecret);
  });

  it('prefers secrets given by env', () => {
    const c = loadConfig({ DATA_DIR: tmp(), SESSION_SECRET: 's'.repeat(40), TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32), PADDLE_WEBHOOK_SECRET: 'x' });
    expect(c.sessionSecret).toBe('s'.repeat(40));
    expect(c.tokenEncryptionKey.toString('hex')).toBe('ab'.repeat(32));
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL: must be a postgresql:\/\/ URL/],
    [{ TOKEN_ENCRYPTION_KEY: 'short' }, /TOKEN_ENCRYPTION_KEY: must be 32 bytes/],
    [{ USAGE_TIME_ZONE: 'Mars/Base' }, /USAGE_TIME_ZONE: must be an IANA time zone/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ SEED_ADMIN_PASSWORD: 'letmein1' }, /SEED_ADMIN_PASSWORD: This password is too common/],
    [{ SEED_DEMO_PASSWORD: 'short' }, /SEED_DEMO_PASSWORD: Password must be at least 8 characters/],
    [{ GRAPHQL_BODY_LIMIT_BYTES: '10' }, /GRAPHQL_BODY_LIMIT_BYTES/],
    [{ NODE_ENV: 'production', SANDBOX_LATENCY_MS: '250' }, /SANDBOX_LATENCY_MS: a benchmark option, never set in production/],
    [{ SANDBOX_LATENCY_MS: '-1' }, /SANDBOX_LATENCY_MS/],
  ])('rejects %o with a clear message', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: tmp(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tmp(), ...env })).toThrow(message);
  });
});
