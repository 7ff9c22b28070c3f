// The embedded default: no DATABASE_URL, PGlite under DATA_DIR. Boots from an empty directory,
// seeds, and keeps its data across a restart.
import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { loadConfig } from '../../api/config.js';
import { createLogger } from '../../api/logger.js';
import { Client } from '../helpers/test-app.js';

describe('embedded mode', () => {
  it('boots from an empty data dir and the data survives a restart', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-embedded-'));
    const env = { DATA_DIR: dir, LOG_LEVEL: 'silent', SEED_ADMIN_PASSWORD: 'admin-password-1' };
    const seeded: string[] = [];
    const first = buildApp(loadConfig(env), { logger: createLogger('silent'), onSeeded: (a) => seeded.push(...a.map((x) => x.email)) });
    const { url } = await first.start(0);
    expect(first.database.embedded).toBe(true);
    expect(seeded).toContain('admin@crm-assistant.local');
    expect(statSync(path.join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    const c = new Client(url);
    expect((await c.get('/api/auth/status')).json).toEqual({ authenticated: false });
    const reg = await c.post('/api/auth/register', {
      firstName: 'Emb', lastName: 'Edded', email: 'emb@example.com', crmType: 'zoho', industry: 'telecom',
      password: 'pw-emb-1', confirmPassword: 'pw-emb-1',
    });
    expect(reg.status).toBe(201);
    await first.stop();

    const again: string[] = [];
    const second = buildApp(loadConfig(env), { logger: createLogger('silent'), onSeeded: (a) => again.push(...a.map((x) => x.email)) });
    const { url: url2 } = await second.start(0);
    try {
      expect(again).toEqual([]); // seed is idempotent: nothing re-created
      const c2 = new Client(url2);
      expect((await c2.post('/api/auth/login', { email: 'emb@example.com', password: 'pw-emb-1' })).status).toBe(200);
      expect((await c2.post('/api/auth/login', { email: 'admin@crm-assistant.local', password: 'admin-password-1' })).status).toBe(200);
      expect(await second.deps.prisma.smartSegmentCategory.count()).toBe(4);
      expect(await second.deps.prisma.pricingTier.count()).toBe(3);
      // PGlite is PostgreSQL 17, which refuses ON DELETE RESTRICT with SQLSTATE 23001 (not 23503):
      // a category with presets is still a 409 with the spec's message, not an internal error.
      const free = await second.deps.prisma.smartSegmentCategory.findUniqueOrThrow({ where: { name: 'free' } });
      const refused = await c2.request('DELETE', `/api/admin/smart-segments/categories/${free.id}`);
      expect([refused.status, refused.json.message]).toEqual([409, 'This category has 3 presets. Delete or move them before deleting the category.']);
    } finally {
      await second.stop();
    }
  });
});
