import { cpSync, mkdtempSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrate, readMigrations } from '../../api/db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';

const dbs: TestDatabase[] = [];
afterEach(async () => {
  while (dbs.length) await dbs.pop()!.drop();
});

async function fresh() {
  const db = await createTestDatabase('crm_migr');
  dbs.push(db);
  return db;
}

async function q<T extends pg.QueryResultRow>(url: string, sql: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

describe('migration runner', () => {
  it('applies every migration to a fresh database and records it like Prisma does', async () => {
    const db = await fresh();
    const applied = await migrate(db.url);
    expect(applied).toEqual(readMigrations().map((m) => m.name));
    const rows = await q<{ migration_name: string; checksum: string; finished_at: Date }>(
      db.url,
      'SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(applied);
    expect(rows.every((r) => r.finished_at && /^[0-9a-f]{64}$/.test(r.checksum))).toBe(true);
    const tables = await q<{ table_name: string }>(
      db.url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema='public'",
    );
    const names = tables.map((t) => t.table_name);
    for (const t of ['users', 'user_integrations', 'pricing_tiers', 'daily_usage', 'user_subscriptions', 'paddle_transactions',
      'queries', 'chat_messages', 'customers', 'segments', 'processed_segments', 'smart_segment_categories',
      'smart_segment_presets', 'daily_generated_segments', 'impact_score_formulas', 'user_segment_favorites', 'sessions']) {
      expect(names).toContain(t);
    }
  });

  it('is a no-op on an already-migrated database', async () => {
    const db = await fresh();
    await migrate(db.url);
    expect(await migrate(db.url)).toEqual([]);
    const [{ n }] = await q<{ n: string }>(db.url, 'SELECT count(*) AS n FROM _prisma_migrations');
    expect(Number(n)).toBe(readMigrations().length);
  });

  it('applies each migration exactly once when two runners start together', async () => {
    const db = await fresh();
    const [a, b] = await Promise.all([migrate(db.url), migrate(db.url)]);
    expect([...a, ...b].sort()).toEqual(readMigrations().map((m) => m.name));
    expect(a.length === 0 || b.length === 0).toBe(true);
    const [{ n }] = await q<{ n: string }>(db.url, 'SELECT count(*) AS n FROM _prisma_migrations');
    expect(Number(n)).toBe(readMigrations().length);
  });

  it('refuses to continue when an applied migration was edited', async () => {
    const db = await fresh();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'migr-'));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    await migrate(db.url, dir);
    const first = readMigrations(dir)[0].name;
    appendFileSync(path.join(dir, first, 'migration.sql'), '\n-- edited\n');
    await expect(migrate(db.url, dir)).rejects.toThrow(/changed after it was applied/);
  });

  it('enforces the storage rules of the spec: restrict category delete, cascade user delete', async () => {
    const db = await fresh();
    await migrate(db.url);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const { rows: [cat] } = await c.query(
        "INSERT INTO smart_segment_categories (id, name, display_name) VALUES (gen_random_uuid(), 'x', 'X') RETURNING id, is_locked, is_active, sort_order",
      );
      expect(cat).toMatchObject({ is_locked: true, is_active: true, sort_order: 0 });
      await c.query(
        "INSERT INTO smart_segment_presets (id, category_id, name, description) VALUES (gen_random_uuid(), $1, 'p', 'leads')",
        [cat.id],
      );
      await expect(c.query('DELETE FROM smart_segment_categories WHERE id = $1', [cat.id])).rejects.toThrow(/foreign key/);
      await expect(
        c.query("INSERT INTO smart_segment_presets (id, category_id, name, description) VALUES (gen_random_uuid(), $1, 'p', 'dup')", [cat.id]),
      ).rejects.toThrow(/unique/);

      const { rows: [user] } = await c.query(
        "INSERT INTO users (id, password, first_name, last_name, email, crm_type, industry) VALUES (gen_random_uuid(), 'x', 'a', 'b', 'u@x.io', 'hubspot', 'telecom') RETURNING id, is_admin, is_banned",
      );
      expect(user).toMatchObject({ is_admin: false, is_banned: false });
      await c.query("INSERT INTO queries (id, user_id, natural_language) VALUES (gen_random_uuid(), $1, 'leads')", [user.id]);
      await c.query("INSERT INTO chat_messages (id, user_id, role, content) VALUES (gen_random_uuid(), $1, 'user', 'hi')", [user.id]);
      await c.query("INSERT INTO daily_usage (id, user_id, date) VALUES (gen_random_uuid(), $1, '2026-01-01')", [user.id]);
      await expect(c.query("INSERT INTO daily_usage (id, user_id, date) VALUES (gen_random_uuid(), $1, '2026-01-01')", [user.id])).rejects.toThrow(/unique/);
      await c.query('DELETE FROM users WHERE id = $1', [user.id]);
      const { rows: left } = await c.query(
        'SELECT (SELECT count(*) FROM queries) + (SELECT count(*) FROM chat_messages) + (SELECT count(*) FROM daily_usage) AS n',
      );
      expect(Number(left[0].n)).toBe(0);
      const { rows: money } = await c.query(
        "SELECT numeric_precision, numeric_scale FROM information_schema.columns WHERE table_name='pricing_tiers' AND column_name='price_monthly'",
      );
      expect(money[0]).toMatchObject({ numeric_precision: 10, numeric_scale: 2 });
    } finally {
      await c.end();
    }
  });
});
