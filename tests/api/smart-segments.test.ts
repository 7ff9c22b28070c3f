import { encodeGlobalID as gid } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedSmartSegment } from '../../api/services/smart-segments/customers.js';
import { generateQueuedUser, queueDailyGeneration } from '../../api/services/smart-segments/generate.js';
import { generateSegmentsFor } from '../helpers/generation.js';
import { until } from '../helpers/wait.js';
import { readGenerationRun } from '../../api/services/smart-segments/generation-runs.js';
import type { UserSegmentsJobData } from '../../jobs/smart-segments.js';
import { usageDay } from '../../api/services/usage.js';
import { connectedUser, expectedIds, registerUser } from '../helpers/crm.js';
import { ADMIN, Client, DEMO, startTestApp, type TestApp } from '../helpers/test-app.js';
import { collect, wsClient } from '../helpers/ws-client.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '400' });
});
afterAll(async () => {
  await t?.close();
});

const today = () => usageDay(new Date(), 'UTC');
const presetCount = () => t.app.deps.prisma.smartSegmentPreset.count({ where: { isActive: true, category: { isActive: true } } });

describe('daily generation', () => {
  it('generates one row per active preset, idempotently, with exact counts and two-decimal impact scores', async () => {
    const { c, userId } = await connectedUser(t.app, t.url);
    const stats = await generateSegmentsFor(t.app.deps, [userId]);
    const n = await presetCount();
    expect(stats).toMatchObject({ users: 1, totalSegments: n, successCount: n, failedCount: 0 });
    const again = await generateSegmentsFor(t.app.deps, [userId]);
    expect(again.totalSegments).toBe(n);
    expect(await t.app.deps.prisma.dailyGeneratedSegment.count({ where: { userId } })).toBe(n);

    const daily = (await c.get(`/api/smart-segments/daily?date=${today()}`)).json as any[];
    expect(daily).toHaveLength(n);
    const presets = (await c.get('/api/smart-segments/presets')).json as any[];
    for (const s of daily) {
      expect(Object.keys(s)).toEqual(expect.arrayContaining(['id', 'presetId', 'date', 'customerCount', 'impactScore', 'hasError', 'errorMessage', 'isUnlocked', 'generatedAt']));
      expect(s.impactScore).toMatch(/^-?\d+\.\d{2}$/);
      expect(s.date).toBe(today());
      expect(s.hasError).toBe(false);
      const preset = presets.find((p) => p.id === s.presetId);
      expect(s.customerCount).toBe((await expectedIds(t.app, preset.description)).length);
    }
    expect(daily.some((s) => s.customerCount > 0)).toBe(true);
  }, 60_000);

  it('marks a segment hasError when its formula fails at run time, without stopping the others', async () => {
    const { userId } = await connectedUser(t.app, t.url);
    const category = await t.app.deps.prisma.smartSegmentCategory.findUniqueOrThrow({ where: { name: 'operational-hygiene' } });
    const formula = await t.app.deps.prisma.impactScoreFormula.findFirstOrThrow({ where: { categoryId: category.id, isActive: true } });
    await t.app.deps.prisma.impactScoreFormula.update({ where: { id: formula.id }, data: { formula: 'log(0 - customerCount - 1)' } });
    try {
      const stats = await generateSegmentsFor(t.app.deps, [userId]);
      const rows = await t.app.deps.prisma.dailyGeneratedSegment.findMany({ where: { userId }, include: { preset: true } });
      const broken = rows.filter((r) => r.preset.categoryId === category.id);
      expect(broken.length).toBeGreaterThan(0);
      for (const r of broken) {
        expect(r.hasError).toBe(true);
        expect(r.errorMessage).toMatch(/non-finite|NaN/i);
      }
      expect(stats.successCount).toBe(rows.length - broken.length);
    } finally {
      await t.app.deps.prisma.impactScoreFormula.update({ where: { id: formula.id }, data: { formula: formula.formula } });
    }
  }, 60_000);

  it('queues only users with a CRM connection', async () => {
    const { userId } = await registerUser(t.url);
    const stats = await queueDailyGeneration(t.app.deps, { enqueue: async () => expect.unreachable('nobody to queue') }, { userIds: [userId] });
    expect(stats).toMatchObject({ users: 0, completedUsers: 0 });
    expect(await readGenerationRun(t.app.deps, stats.runId)).toMatchObject({ done: true }); // a run of nobody ends at once
  });
});

describe('user routes', () => {
  it('lists categories, presets (by category) and toggles favourites', async () => {
    const c = new Client(t.url);
    await c.login(DEMO);
    const categories = (await c.get('/api/smart-segments/categories')).json as any[];
    expect(categories.map((x) => x.name)).toEqual(['free', 'added-revenue', 'operational-hygiene', 'reactivation']);
    expect(categories[0]).toMatchObject({ isLocked: false, isActive: true, sortOrder: 0, displayName: 'Free' });
    const free = (await c.get(`/api/smart-segments/presets?categoryId=${categories[0].id}`)).json as any[];
    expect(free.length).toBeGreaterThanOrEqual(3);
    expect(free.every((p) => p.categoryId === categories[0].id)).toBe(true);
    expect((await c.post('/api/smart-segments/favorites', { presetId: free[0].id })).status).toBe(200);
    expect((await c.post('/api/smart-segments/favorites', { presetId: free[0].id })).status).toBe(200); // idempotent
    expect((await c.get('/api/smart-segments/favorites')).json.map((f: any) => f.presetId)).toEqual([free[0].id]);
    expect((await c.post('/api/smart-segments/favorites', { presetId: '00000000-0000-0000-0000-000000000000' })).status).toBe(404);
    expect((await c.delete(`/api/smart-segments/favorites/${free[0].id}`)).status).toBe(200);
    expect((await c.get('/api/smart-segments/favorites')).json).toEqual([]);
    expect((await c.get('/api/smart-segments/daily?date=2026-13-45')).status).toBe(400);
    expect((await new Client(t.url).get('/api/smart-segments/categories')).status).toBe(401);
  });

  it('unlocks (one unit, idempotent), downloads the whole segment, and refuses others', async () => {
    const { c, userId } = await connectedUser(t.app, t.url);
    await generateSegmentsFor(t.app.deps, [userId]);
    const daily = (await c.get('/api/smart-segments/daily')).json as any[];
    const target = daily.filter((s) => s.customerCount > 0).sort((a, b) => b.customerCount - a.customerCount)[0];
    const locked = await c.post(`/api/smart-segments/${target.id}/customers`);
    expect(locked.status).toBe(403);
    const u1 = await c.post(`/api/smart-segments/${target.id}/unlock`);
    expect(u1.status).toBe(200);
    expect(u1.json.segment.isUnlocked).toBe(true);
    expect(u1.json.usage.smartSegmentsUsed).toBe(1);
    const u2 = await c.post(`/api/smart-segments/${target.id}/unlock`);
    expect(u2.json.usage.smartSegmentsUsed).toBe(1);
    const dl = await c.post(`/api/smart-segments/${target.id}/customers`);
    expect(dl.status).toBe(200);
    expect(dl.json.total).toBe(target.customerCount);
    expect(dl.json.customers).toHaveLength(target.customerCount);
    expect(new Set(dl.json.customers.map((x: any) => x.id)).size).toBe(target.customerCount);

    const g = await c.gql(`mutation { smartSegmentCustomers(input: { id: "${gid('DailySegment', target.id)}" }) { total customers { id lifecycleStage } } }`);
    expect(g.data.smartSegmentCustomers.total).toBe(target.customerCount);
    expect(g.data.smartSegmentCustomers.customers.map((x: any) => x.id).sort()).toEqual(dl.json.customers.map((x: any) => x.id).sort());
    const gd = await c.gql('{ dailySegments(first: 100) { totalCount edges { node { segmentId impactScore isUnlocked preset { name category { name } } } } } }');
    expect(gd.data.dailySegments.totalCount).toBe(daily.length);
    const nodes = gd.data.dailySegments.edges.map((e: any) => e.node);
    expect(nodes).toHaveLength(daily.length);
    expect(nodes.find((x: any) => x.segmentId === target.id)).toMatchObject({ isUnlocked: true, impactScore: target.impactScore });

    const other = await connectedUser(t.app, t.url);
    expect((await other.c.post(`/api/smart-segments/${target.id}/unlock`)).status).toBe(404);
    expect((await other.c.post(`/api/smart-segments/${target.id}/customers`)).status).toBe(404);
  }, 60_000);

  it('spends unlocks atomically: 30 concurrent unlocks at a limit of 3', async () => {
    const { c, userId } = await connectedUser(t.app, t.url);
    // 30 generated segments over several days (rows written directly; generation is tested above)
    const presets = await t.app.deps.prisma.smartSegmentPreset.findMany({ take: 10 });
    const rows = [];
    for (const day of ['2026-01-01', '2026-01-02', '2026-01-03']) {
      for (const p of presets) rows.push({ userId, presetId: p.id, date: new Date(`${day}T00:00:00Z`), customerCount: 1 });
    }
    await t.app.deps.prisma.dailyGeneratedSegment.createMany({ data: rows });
    const ids = (await t.app.deps.prisma.dailyGeneratedSegment.findMany({ where: { userId }, select: { id: true } })).map((r) => r.id);
    expect(ids).toHaveLength(30);
    const results = await Promise.all(ids.map((id) => c.post(`/api/smart-segments/${id}/unlock`)));
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(3);
    expect(limited).toHaveLength(27);
    for (const r of limited) expect(r.json).toMatchObject({ used: 3, limit: 3, tier: 'Free Plan' });
    expect(await t.app.deps.prisma.dailyGeneratedSegment.count({ where: { userId, isUnlocked: true } })).toBe(3);
    expect((await c.get('/api/usage/current')).json.smartSegmentsUsed).toBe(3);
  });

  it('pushes each generated segment with its day over graphql-ws (the records, not just counts)', async () => {
    const { c, userId } = await connectedUser(t.app, t.url);
    const before = (await c.gql('{ dailySegmentsDay { id count lastGeneratedAt } }')).data.dailySegmentsDay;
    expect(before).toMatchObject({ count: 0, lastGeneratedAt: null });
    type Event = {
      completed: number;
      total: number;
      done: boolean;
      segment: { id: string; segmentId: string; presetId: string; customerCount: number; impactScore: string; generatedAt: string };
      day: { id: string; count: number; lastGeneratedAt: string };
    };
    const ws = wsClient(t.url, `crm_session=${c.cookies.get('crm_session')}`);
    const sub = collect<{ dailySegmentsUpdated: Event }>(
      ws,
      'subscription { dailySegmentsUpdated { completed total done segment { id segmentId presetId customerCount impactScore generatedAt } day { id count lastGeneratedAt } } }',
    );
    await new Promise((r) => setTimeout(r, 300));
    await generateSegmentsFor(t.app.deps, [userId]);
    const n = await presetCount();
    const events = (await sub.next(n, 20_000)).map((i) => i.dailySegmentsUpdated);
    expect(events.map((e) => e.completed)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(events.at(-1)!.done).toBe(true);
    // Each event is one segment as a query would read it (same global id), and the day counted after it.
    const read = (await c.gql('{ dailySegments(first: 100) { edges { node { id segmentId presetId customerCount impactScore generatedAt } } } dailySegmentsDay { id count lastGeneratedAt } }')).data;
    const byId = new Map(read.dailySegments.edges.map((e: { node: Event['segment'] }) => [e.node.id, e.node]));
    expect(new Set(events.map((e) => e.segment.id)).size).toBe(n);
    for (const e of events) expect(e.segment).toEqual(byId.get(e.segment.id));
    expect(events.map((e) => e.day.count)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(events.every((e) => e.day.id === before.id)).toBe(true); // the same record the query reads, by id
    expect(events.at(-1)!.day).toEqual(read.dailySegmentsDay);
    sub.dispose();
    await ws.dispose();
  }, 60_000);
});

describe("a Smart Segment's customers in the app (DailySegment.customers)", () => {
  const CUSTOMERS = `query($id: ID!, $first: Int, $offset: Int, $orderBy: CustomerOrder, $filter: CustomerFilterInput) {
    node(id: $id) { ... on DailySegment { isUnlocked customers(first: $first, offset: $offset, orderBy: $orderBy, filter: $filter) {
      totalCount crmTotal storedAt edges { node { id lifetimeValue lifecycleStage } } } } }
  }`;

  it('refuses a locked segment and another user, storing nothing; the owner pages and sorts them once unlocked', async () => {
    const { c, userId } = await connectedUser(t.app, t.url);
    await generateSegmentsFor(t.app.deps, [userId]);
    const daily = (await c.get('/api/smart-segments/daily')).json as any[];
    const target = daily.filter((s) => s.customerCount > 10 && s.customerCount <= 1000).sort((a, b) => b.customerCount - a.customerCount)[0];
    const id = gid('DailySegment', target.id);
    const stored = () => t.app.deps.prisma.smartSegmentResult.count({ where: { dailySegmentId: target.id } });

    // Locked: refused as the download is, nothing read or stored.
    const locked = await c.gql(CUSTOMERS, { id, first: 10 });
    expect(locked.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(locked.errors?.[0].message).toMatch(/Unlock this segment/);
    expect(await stored()).toBe(0);

    const other = await connectedUser(t.app, t.url);
    const otherUser = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { id: other.userId } });
    const refused = async () => {
      const r = await other.c.gql(CUSTOMERS, { id, first: 10 });
      expect(r.data?.node ?? null).toBeNull();
      await expect(storedSmartSegment(t.app.deps, otherUser, target.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    };
    await refused();

    expect((await c.post(`/api/smart-segments/${target.id}/unlock`)).status).toBe(200);
    // Still another user's: refused after the unlock too, and nothing stored for them.
    await refused();
    expect(await stored()).toBe(0);

    const first = await c.gql(CUSTOMERS, { id, first: 10 });
    expect(first.errors).toBeUndefined();
    const conn = first.data.node.customers;
    expect(conn).toMatchObject({ totalCount: target.customerCount, crmTotal: target.customerCount });
    expect(conn.edges).toHaveLength(10);
    expect(await stored()).toBe(target.customerCount);

    // Every page by number, together the download's customers; stored once (the second read stores nothing).
    const row = await t.app.deps.prisma.dailyGeneratedSegment.findUniqueOrThrow({ where: { id: target.id } });
    const ids: string[] = [];
    for (let offset = 0; offset < target.customerCount; offset += 100) {
      const r = await c.gql(CUSTOMERS, { id, first: 100, offset });
      ids.push(...r.data.node.customers.edges.map((e: any) => e.node.id));
    }
    const download = (await c.post(`/api/smart-segments/${target.id}/customers`)).json.customers.map((x: any) => x.id);
    expect(ids).toHaveLength(target.customerCount);
    expect([...ids].sort()).toEqual([...download].sort());
    expect((await t.app.deps.prisma.dailyGeneratedSegment.findUniqueOrThrow({ where: { id: target.id } })).customersStoredAt).toEqual(row.customersStoredAt);

    // Sorted on the server over every stored row; filtered likewise.
    const sorted = await c.gql(CUSTOMERS, { id, first: 100, orderBy: { field: 'lifetimeValue', direction: 'desc' } });
    const values = sorted.data.node.customers.edges.map((e: any) => e.node.lifetimeValue ?? -1);
    expect(values).toEqual([...values].sort((a: number, b: number) => b - a));
    const all = await t.app.deps.prisma.smartSegmentResult.findMany({ where: { dailySegmentId: target.id }, include: { customer: true } });
    expect(values[0]).toBe(Math.max(...all.map((r) => r.customer.lifetimeValue ?? -1)));
    const stage = all[0].customer.lifecycleStage;
    const filtered = await c.gql(CUSTOMERS, { id, first: 100, filter: { lifecycle: stage } });
    expect(filtered.data.node.customers.totalCount).toBe(all.filter((r) => r.customer.lifecycleStage === stage).length);
    expect(filtered.data.node.customers.edges.every((e: any) => e.node.lifecycleStage === stage)).toBe(true);

    // Generated again: read from the CRM again on the next look.
    await generateSegmentsFor(t.app.deps, [userId]);
    const again = await c.gql(CUSTOMERS, { id, first: 10 });
    expect(new Date(again.data.node.customers.storedAt).getTime()).toBeGreaterThan(row.customersStoredAt!.getTime());
  }, 60_000);

  it("keeps a segment's stored customers when the query history is trimmed (only orphans of both go)", async () => {
    const { c, userId } = await connectedUser(t.app, t.url);
    await generateSegmentsFor(t.app.deps, [userId]);
    const daily = (await c.get('/api/smart-segments/daily')).json as any[];
    const target = daily.filter((s) => s.customerCount > 0 && s.customerCount <= 1000).sort((a, b) => b.customerCount - a.customerCount)[0];
    const id = gid('DailySegment', target.id);
    expect((await c.post(`/api/smart-segments/${target.id}/unlock`)).status).toBe(200);
    expect((await c.gql(CUSTOMERS, { id, first: 10 })).data.node.customers.totalCount).toBe(target.customerCount);
    // A full history of 50 older queries: the next question pushes the oldest out with its orphaned customers.
    const long = new Date(Date.now() - 86_400_000);
    await t.app.deps.prisma.query.createMany({ data: Array.from({ length: 50 }, (_x, i) => ({ userId, naturalLanguage: `old ${i}`, createdAt: new Date(long.getTime() + i) })) });
    const asked = await c.gql('mutation { runQuery(input: { naturalLanguage: "leads in Canada" }) { resultCount removedQueryIds } }');
    expect(asked.errors).toBeUndefined();
    expect(asked.data.runQuery.removedQueryIds).toHaveLength(1);
    expect(await t.app.deps.prisma.smartSegmentResult.count({ where: { dailySegmentId: target.id } })).toBe(target.customerCount);
    expect((await c.gql(CUSTOMERS, { id, first: 10 })).data.node.customers.totalCount).toBe(target.customerCount);
  }, 60_000);
});

describe('admin generate and clear', () => {
  it('generates for all users and clears one user, admin only', async () => {
    const { userId } = await connectedUser(t.app, t.url);
    const anon = new Client(t.url);
    expect((await anon.post('/api/admin/smart-segments/generate')).status).toBe(401);
    const user = new Client(t.url);
    await user.login(DEMO);
    expect((await user.post('/api/admin/smart-segments/generate')).status).toBe(403);
    expect((await user.post('/api/admin/smart-segments/clear', { userId })).status).toBe(403);
    const admin = new Client(t.url);
    await admin.login(ADMIN);
    const gen = await admin.post('/api/admin/smart-segments/generate');
    expect(gen.status).toBe(200);
    expect(gen.json.stats.totalSegments).toBeGreaterThan(0);
    expect(gen.json.stats.successCount).toBe(gen.json.stats.totalSegments);
    const clear = await admin.post('/api/admin/smart-segments/clear', { userId });
    expect(clear.json.stats.deletedCount).toBe(await presetCount());
    expect(await t.app.deps.prisma.dailyGeneratedSegment.count({ where: { userId, date: new Date(`${today()}T00:00:00Z`) } })).toBe(0);
    const noUser = await admin.post('/api/admin/smart-segments/clear', {});
    expect(noUser.status).toBe(400);
    expect(noUser.json.error).toBe('No user found to clear segments for');
    const actions = (await t.app.deps.prisma.auditLog.findMany({ where: { action: { startsWith: 'smart-segments.' } } })).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['smart-segments.generate', 'smart-segments.clear']));
    const forbidden = await user.gql(`mutation { clearSmartSegments(input: { userId: "${gid('User', userId)}" }) { deletedCount } }`);
    expect(forbidden.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const viaGraphQL = await admin.gql(`mutation { clearSmartSegments(input: { userId: "${gid('User', userId)}" }) { deletedCount } }`);
    expect(viaGraphQL.data.clearSmartSegments.deletedCount).toBe(0);
  }, 120_000);

  it('generates for one user when asked (GraphQL userId), leaving the others alone', async () => {
    const one = await connectedUser(t.app, t.url);
    const other = await connectedUser(t.app, t.url);
    const admin = new Client(t.url);
    await admin.login(ADMIN);
    const r = await admin.gql(`mutation { generateSmartSegments(input: { userId: "${gid('User', one.userId)}" }) { stats { runId users completedUsers totalSegments } } }`);
    expect(r.errors).toBeUndefined();
    // Queued as the schedule's per-user jobs, on the worker inside this API process: the answer is the run's start.
    const { runId, ...started } = r.data.generateSmartSegments.stats;
    expect(started).toEqual({ users: 1, completedUsers: 0, totalSegments: 0 });
    const read = async () => (await admin.gql('query($id: ID!) { generationRun(id: $id) { users completedUsers totalSegments successCount done } }', { id: runId })).data.generationRun;
    await until(async () => (await read()).done, { timeoutMs: 60_000, intervalMs: 200, what: 'the run to end on the worker' });
    expect(await read()).toEqual({ users: 1, completedUsers: 1, totalSegments: await presetCount(), successCount: await presetCount(), done: true });
    const day = new Date(`${today()}T00:00:00Z`);
    expect(await t.app.deps.prisma.dailyGeneratedSegment.count({ where: { userId: one.userId, date: day } })).toBe(await presetCount());
    expect(await t.app.deps.prisma.dailyGeneratedSegment.count({ where: { userId: other.userId, date: day } })).toBe(0);
    const audit = await t.app.deps.prisma.auditLog.findFirst({ where: { action: 'smart-segments.generate' }, orderBy: { createdAt: 'desc' } });
    expect(audit?.details).toMatchObject({ users: 1, userIds: [one.userId] });
  }, 120_000);
});

describe('queued runs (separate job workers)', () => {
  const queueRun = async (userIds: string[]) => {
    const jobs: UserSegmentsJobData[] = [];
    const stats = await queueDailyGeneration(t.app.deps, { enqueue: async (_name, data) => void jobs.push(data as unknown as UserSegmentsJobData) }, { userIds });
    return { stats, jobs };
  };

  it('count each user once, even when a job runs again, and end with the last user', async () => {
    const n = await presetCount();
    const a = await connectedUser(t.app, t.url);
    const b = await connectedUser(t.app, t.url);
    const { stats, jobs } = await queueRun([a.userId, b.userId]);
    expect(stats).toMatchObject({ users: 2, completedUsers: 0, runId: expect.any(String) });
    expect(jobs.map((j) => j.runId)).toEqual([stats.runId, stats.runId]);
    expect(await readGenerationRun(t.app.deps, stats.runId!)).toMatchObject({ completedUsers: 0, done: false });

    await generateQueuedUser(t.app.deps, jobs[0]);
    await generateQueuedUser(t.app.deps, jobs[0]); // the same job again: its worker died after counting
    expect(await readGenerationRun(t.app.deps, stats.runId!)).toMatchObject({ completedUsers: 1, totalSegments: n, successCount: n, done: false });

    // Banned since it was queued: skipped, and still counted so that the run ends.
    await t.app.deps.prisma.user.update({ where: { id: b.userId }, data: { isBanned: true } });
    expect(await generateQueuedUser(t.app.deps, jobs[1])).toMatchObject({ skipped: true, total: 0 });
    expect(await readGenerationRun(t.app.deps, stats.runId!)).toEqual({ ...stats, completedUsers: 2, totalSegments: n, successCount: n, failedCount: 0, done: true });
    expect((await t.app.deps.prisma.generationRun.findUniqueOrThrow({ where: { id: stats.runId! } })).finishedAt).not.toBeNull();
  }, 60_000);

  it('a job that fails counts its segments as failed, so the run still ends', async () => {
    const n = await presetCount();
    const a = await connectedUser(t.app, t.url);
    const { stats, jobs } = await queueRun([a.userId]);
    // The database refuses the segment rows (a lost connection): the job throws.
    const prisma = new Proxy(t.app.deps.prisma, {
      get: (target, prop) => (prop === 'dailyGeneratedSegment' ? { upsert: () => Promise.reject(new Error('connection lost')) } : Reflect.get(target, prop, target)),
    });
    await expect(generateQueuedUser({ ...t.app.deps, prisma }, jobs[0])).rejects.toThrow('connection lost');
    expect(await readGenerationRun(t.app.deps, stats.runId!)).toMatchObject({ completedUsers: 1, totalSegments: n, successCount: 0, failedCount: n, done: true });
  }, 60_000);

  it('an unknown or malformed run id reads as null; a run of nobody is done at once', async () => {
    expect(await readGenerationRun(t.app.deps, '00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await readGenerationRun(t.app.deps, 'nope')).toBeNull();
    const { stats, jobs } = await queueRun(['00000000-0000-4000-8000-000000000001']);
    expect(jobs).toEqual([]);
    expect(await readGenerationRun(t.app.deps, stats.runId!)).toMatchObject({ users: 0, done: true });
  });
});
