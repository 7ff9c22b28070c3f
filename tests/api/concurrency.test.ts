// Parallel requests of one user on the embedded default and on PostgreSQL: quotas hold exactly,
// nothing answers 5xx, stored usage equals what was accepted, and every accepted query is in the
// history. (The embedded database runs one connection for the whole process: api/db/database.ts.)
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../api/app.js';
import { loadConfig } from '../../api/config.js';
import { createLogger } from '../../api/logger.js';
import { generateSegmentsFor } from '../helpers/generation.js';
import { usageDay } from '../../api/services/usage.js';
import { connectedUser } from '../helpers/crm.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

interface Target {
  app: App;
  url: string;
  close(): Promise<void>;
}

async function embeddedTarget(): Promise<Target> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-concurrency-'));
  const app = buildApp(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SANDBOX_CONTACTS: '400', SEED_ADMIN_PASSWORD: 'admin-password-1' }), {
    logger: createLogger('silent'),
    onSeeded: () => {},
  });
  const { url } = await app.start(0);
  return { app, url, close: () => app.stop() };
}

async function postgresTarget(): Promise<Target> {
  const t: TestApp = await startTestApp({ SANDBOX_CONTACTS: '400' });
  return { app: t.app, url: t.url, close: () => t.close() };
}

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

for (const [name, open] of [
  ['embedded default', embeddedTarget],
  ['PostgreSQL', postgresTarget],
] as const) {
  describe(`concurrent requests on the ${name}`, () => {
    let target: Target;
    beforeAll(async () => {
      target = await open();
    }, 120_000);
    afterAll(async () => {
      await target?.close();
    });

    it('50 parallel questions: exactly the limit accepted, the rest 429, no 5xx, usage and history agree', async () => {
      const u = await connectedUser(target.app, target.url);
      const questions = Array.from({ length: 50 }, (_x, i) => `leads in Europe with lifetime value over $${i * 10}`);
      const results = await Promise.all(questions.map((q) => u.c.post('/api/queries', { naturalLanguage: q })));
      const statuses = results.map((r) => r.status);
      expect(tally(statuses)).toEqual({ 200: 10, 429: 40 });
      for (const r of results.filter((x) => x.status === 429)) expect(r.json).toMatchObject({ used: 10, limit: 10, remaining: 0 });
      const prisma = target.app.deps.prisma;
      const day = usageDay(target.app.deps.now(), target.app.deps.config.usageTimeZone);
      const usage = await prisma.dailyUsage.findFirstOrThrow({ where: { userId: u.userId, date: new Date(`${day}T00:00:00Z`) } });
      expect(usage.chatQueriesUsed).toBe(10);
      const accepted = results.filter((r) => r.status === 200).map((r) => r.json.query.id as string);
      const history = (await u.c.get('/api/queries')).json.map((q: { id: string }) => q.id);
      expect([...history].sort()).toEqual([...accepted].sort());
      expect(await prisma.query.count({ where: { userId: u.userId } })).toBe(10);
    });

    it('20 parallel unlocks: exactly the limit accepted, no 5xx, usage agrees', async () => {
      const u = await connectedUser(target.app, target.url);
      await generateSegmentsFor(target.app.deps, [u.userId]);
      const segments = await target.app.deps.prisma.dailyGeneratedSegment.findMany({ where: { userId: u.userId, hasError: false } });
      expect(segments.length).toBeGreaterThanOrEqual(4);
      const ids = Array.from({ length: 20 }, (_x, i) => segments[i % segments.length].id);
      const results = await Promise.all(ids.map((id) => u.c.post(`/api/smart-segments/${id}/unlock`)));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      const unlocked = await target.app.deps.prisma.dailyGeneratedSegment.count({ where: { userId: u.userId, isUnlocked: true } });
      expect(unlocked).toBe(3); // the free tier's 3 unlocks a day; repeating an unlocked one is free
      const usage = await target.app.deps.prisma.dailyUsage.findFirstOrThrow({ where: { userId: u.userId } });
      expect(usage.smartSegmentsUsed).toBe(3);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    });

    it('parallel GraphQL runQuery and reads: no internal errors', async () => {
      const u = await connectedUser(target.app, target.url, 'pro');
      const calls = [
        ...Array.from({ length: 8 }, (_x, i) => u.c.gql(`mutation { runQuery(input: { naturalLanguage: "customers in Canada over $${i}00" }) { resultCount hasError } }`)),
        ...Array.from({ length: 12 }, () => u.c.gql('{ usage { chatQueriesUsed } queryHistory { totalCount } viewer { email } }')),
      ];
      const results = await Promise.all(calls);
      expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);
      const history = await u.c.gql('{ queryHistory { totalCount } usage { chatQueriesUsed } }');
      expect(history.data).toEqual({ queryHistory: { totalCount: 8 }, usage: { chatQueriesUsed: 8 } });
    });
  });
}
