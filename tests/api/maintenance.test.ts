// Database maintenance: cleanup statistics and runs (exact cutoff day), retention validation, daily
// maintenance purges, audit entries, and admin-only access over REST and GraphQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../api/errors.js';
import {
  parseRetentionDays,
  retentionCutoffDay,
  retentionFromQuery,
  runDailyMaintenance,
} from '../../api/services/maintenance.js';
import { ADMIN, Client, DEMO, startTestApp, type TestApp } from '../helpers/test-app.js';

const NOW = new Date('2026-03-10T12:00:00Z'); // today is 2026-03-10 in UTC
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.UTC(2026, 2, 10) - offset * DAY); // a DATE `offset` days before today
const ymd = (d: Date) => d.toISOString().slice(0, 10);

let t: TestApp;
let admin: Client;
let demo: Client;
let userId: string;

beforeAll(async () => {
  t = await startTestApp({}, { now: () => NOW });
  admin = new Client(t.url);
  await admin.login(ADMIN);
  demo = new Client(t.url);
  await demo.login(DEMO);
  const u = await t.app.deps.prisma.user.create({
    data: { email: 'usage-owner@example.com', password: 'x', firstName: 'U', lastName: 'O', crmType: 'hubspot', industry: 'telecom' },
  });
  userId = u.id;
});
afterAll(async () => {
  await t?.close();
});

describe('retention rules', () => {
  it('computes the cutoff day in the usage time zone', () => {
    expect(retentionCutoffDay(NOW, 'UTC', 30)).toBe('2026-02-08');
    expect(retentionCutoffDay(NOW, 'UTC', 1)).toBe('2026-03-09');
    // 2026-03-10T12:00Z is already 2026-03-11 in Auckland
    expect(retentionCutoffDay(NOW, 'Pacific/Auckland', 1)).toBe('2026-03-10');
    expect(retentionCutoffDay(new Date('2026-03-01T00:30:00Z'), 'UTC', 365)).toBe('2025-03-01');
  });

  it('accepts 1 to 365, defaults a missing value to 90 and refuses the rest', () => {
    expect(parseRetentionDays(undefined)).toBe(90);
    expect(parseRetentionDays(null)).toBe(90);
    expect(parseRetentionDays(1)).toBe(1);
    expect(parseRetentionDays(365)).toBe(365);
    expect(parseRetentionDays('30')).toBe(30);
    for (const bad of [0, 366, -5, 1.5, 'abc', '', true, {}]) {
      expect(() => parseRetentionDays(bad)).toThrow('Retention days must be between 1 and 365');
    }
    // the query parameter falls back to 90 when it is not a number, but a bad number is refused
    expect(retentionFromQuery(undefined)).toBe(90);
    expect(retentionFromQuery('abc')).toBe(90);
    expect(retentionFromQuery('')).toBe(90);
    expect(retentionFromQuery('7')).toBe(7);
    expect(() => retentionFromQuery('0')).toThrow(AppError);
    expect(() => retentionFromQuery('400')).toThrow(AppError);
    expect(() => retentionFromQuery('2.5')).toThrow(AppError);
  });
});

describe('usage cleanup (REST)', () => {
  it('reports an empty table with a null oldest date', async () => {
    const r = await admin.get('/api/admin/cleanup/stats?retention=30');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ totalRecords: 0, retentionDays: 30, oldRecords: 0, wouldDelete: 0, oldestRecordDate: null });
  });

  it('counts records older than N days with the boundary day kept', async () => {
    for (const offset of [0, 1, 29, 30, 31, 45, 400]) {
      await t.app.deps.prisma.dailyUsage.create({ data: { userId, date: day(offset), chatQueriesUsed: 1 } });
    }
    const r = await admin.get('/api/admin/cleanup/stats?retention=30');
    expect(r.json).toEqual({ totalRecords: 7, retentionDays: 30, oldRecords: 3, wouldDelete: 3, oldestRecordDate: ymd(day(400)) });
    const r90 = await admin.get('/api/admin/cleanup/stats?retention=abc');
    expect(r90.status).toBe(200);
    expect(r90.json).toMatchObject({ retentionDays: 90, oldRecords: 1, wouldDelete: 1 });
    expect((await admin.get('/api/admin/cleanup/stats')).json).toMatchObject({ retentionDays: 90 });
    expect((await admin.get('/api/admin/cleanup/stats?retention=1')).json).toMatchObject({ oldRecords: 5 });
  });

  it.each([['0'], ['400'], ['-3'], ['1.5']])('refuses ?retention=%s with 400', async (value) => {
    const r = await admin.get(`/api/admin/cleanup/stats?retention=${value}`);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error: 'Retention days must be between 1 and 365', message: 'Retention days must be between 1 and 365' });
  });

  it.each([[0], [366], ['abc'], [2.5]])('refuses retentionDays %j on run and deletes nothing', async (value) => {
    const r = await admin.post('/api/admin/cleanup/run', { retentionDays: value });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('Retention days must be between 1 and 365');
    expect(await t.app.deps.prisma.dailyUsage.count()).toBe(7);
  });

  it('deletes exactly the records older than N days and audits the run', async () => {
    const r = await admin.post('/api/admin/cleanup/run', { retentionDays: 30 });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ message: 'Deleted 3 usage records older than 30 days', deletedCount: 3 });
    const left = await t.app.deps.prisma.dailyUsage.findMany({ orderBy: { date: 'desc' } });
    expect(left.map((u) => ymd(u.date))).toEqual([0, 1, 29, 30].map((o) => ymd(day(o))));
    const audit = await t.app.deps.prisma.auditLog.findFirstOrThrow({ where: { action: 'maintenance.cleanup' }, include: { actor: true } });
    expect(audit.actor?.email).toBe(ADMIN.email);
    expect(audit.details).toMatchObject({ retentionDays: 30, deletedCount: 3, cutoffDate: '2026-02-08' });

    const again = await admin.post('/api/admin/cleanup/run', { retentionDays: 30 });
    expect(again.json).toMatchObject({ message: 'Deleted 0 usage records older than 30 days', deletedCount: 0 });
    const one = await admin.post('/api/admin/cleanup/run', { retentionDays: 1 });
    expect(one.json).toMatchObject({ message: 'Deleted 2 usage records older than 1 day', deletedCount: 2 });
    expect((await t.app.deps.prisma.dailyUsage.findMany()).map((u) => ymd(u.date)).sort()).toEqual([ymd(day(1)), ymd(day(0))]);
  });
});

describe('daily maintenance', () => {
  it('purges expired sessions, old login attempts, spent OAuth states, old segments and usage', async () => {
    const prisma = t.app.deps.prisma;
    const at = (ms: number) => new Date(NOW.getTime() + ms);
    const s = (tokenHash: string, data: { expiresAt: Date; revokedAt?: Date }) => prisma.session.create({ data: { tokenHash, userId, ...data } });
    const expired = await s('m-expired', { expiresAt: at(-1000) });
    const revokedLongAgo = await s('m-revoked-old', { expiresAt: at(DAY), revokedAt: at(-2 * DAY) });
    const revokedRecently = await s('m-revoked-new', { expiresAt: at(DAY), revokedAt: at(-3600_000) });
    const live = await s('m-live', { expiresAt: at(DAY) });
    // sign-in throttle counters: one whose window has ended, one still counting
    await prisma.authThrottle.create({ data: { scope: 'login', email: 'x@example.com', address: '10.0.0.1', count: 3, windowEndsAt: at(-1000) } });
    await prisma.authThrottle.create({ data: { scope: 'login_address', email: '', address: '10.0.0.1', count: 3, windowEndsAt: at(60_000) } });
    const state = (stateHash: string, expiresAt: Date, usedAt?: Date) =>
      prisma.oAuthState.create({
        data: { stateHash, userId, sessionId: live.id, provider: 'hubspot', redirectUri: 'http://x/cb', expiresAt, usedAt, createdAt: at(-3 * DAY) },
      });
    const stExpired = await state('st-expired', at(-1000));
    const stUsedOld = await state('st-used-old', at(DAY), at(-2 * DAY));
    const stUsedNew = await state('st-used-new', at(DAY), at(-3600_000));
    const stFresh = await state('st-fresh', at(600_000));
    const preset = await prisma.smartSegmentPreset.findFirstOrThrow();
    const oldSegment = await prisma.dailyGeneratedSegment.create({ data: { userId, presetId: preset.id, date: day(91) } });
    const boundarySegment = await prisma.dailyGeneratedSegment.create({ data: { userId, presetId: preset.id, date: day(90) } });
    await prisma.dailyUsage.create({ data: { userId, date: day(100) } });
    const ended = await prisma.userSubscription.create({
      data: { userId, status: 'active', cancelAtPeriodEnd: true, currentPeriodStart: at(-31 * DAY), currentPeriodEnd: at(-DAY) },
    });
    const running = await prisma.userSubscription.create({
      data: { userId, status: 'active', cancelAtPeriodEnd: true, currentPeriodStart: at(-DAY), currentPeriodEnd: at(29 * DAY) },
    });
    // contacts files: an upload never imported for two days goes; a fresh one and imported contacts stay
    const upload = (status: string, updatedAt: Date) => prisma.contactImport.create({ data: { userId, fileName: `${status}.csv`, format: 'csv', status, updatedAt } });
    const staleUpload = await upload('uploaded', at(-2 * DAY));
    const freshUpload = await upload('uploaded', at(-3600_000));
    const imported = await upload('active', at(-10 * DAY));

    const r = await admin.post('/api/admin/maintenance/daily');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      retentionDays: 90,
      usageRecordsDeleted: 1,
      expiredSessionsDeleted: 2,
      loginAttemptsDeleted: 1,
      oauthStatesDeleted: 2,
      dailySegmentsDeleted: 1,
    });
    expect(r.json.message).toBe(
      'Daily maintenance completed: removed 1 usage record, 2 expired sessions, 1 login attempt, 2 OAuth states, 1 old daily segment; 1 ended subscription expired, 1 contacts file left unimported removed',
    );
    expect(r.json.tasks).toEqual([
      { name: 'usageRecords', count: 1 },
      { name: 'expiredSessions', count: 2 },
      { name: 'loginAttempts', count: 1 },
      { name: 'oauthStates', count: 2 },
      { name: 'dailySegments', count: 1 },
      { name: 'endedSubscriptions', count: 1 },
      { name: 'staleContactImports', count: 1 },
    ]);
    expect(await prisma.contactImport.findMany({ where: { id: { in: [staleUpload.id, freshUpload.id, imported.id] } }, select: { id: true } })).toEqual(
      expect.arrayContaining([{ id: freshUpload.id }, { id: imported.id }]),
    );
    expect(await prisma.contactImport.count({ where: { id: staleUpload.id } })).toBe(0);
    expect((await prisma.userSubscription.findUniqueOrThrow({ where: { id: ended.id } })).status).toBe('canceled');
    expect((await prisma.userSubscription.findUniqueOrThrow({ where: { id: running.id } })).status).toBe('active');

    const ids = async <T extends { id: string }>(rows: Promise<T[]>) => (await rows).map((x) => x.id).sort();
    const sessions = await ids(prisma.session.findMany({ where: { id: { in: [expired.id, revokedLongAgo.id, revokedRecently.id, live.id] } } }));
    expect(sessions).toEqual([revokedRecently.id, live.id].sort());
    expect(await prisma.authThrottle.findMany({ where: { address: '10.0.0.1' }, select: { scope: true } })).toEqual([{ scope: 'login_address' }]);
    const states = await ids(prisma.oAuthState.findMany({ where: { id: { in: [stExpired.id, stUsedOld.id, stUsedNew.id, stFresh.id] } } }));
    expect(states).toEqual([stUsedNew.id, stFresh.id].sort());
    expect(await ids(prisma.dailyGeneratedSegment.findMany())).toEqual([boundarySegment.id]);
    expect(oldSegment.id).not.toBe(boundarySegment.id);
    // the admin's own session survived
    expect((await admin.get('/api/admin/cleanup/stats')).status).toBe(200);

    const audit = await prisma.auditLog.findFirstOrThrow({ where: { action: 'maintenance.daily' } });
    expect(audit.details).toMatchObject({ retentionDays: 90, failedTasks: [] });
  });

  it('runs extra tasks, keeps going after a failure and then reports it', async () => {
    const ran: string[] = [];
    const err = await runDailyMaintenance(t.app.deps, {
      extraTasks: [
        { name: 'broken', run: async () => { ran.push('broken'); throw new Error('task exploded'); } },
        { name: 'endedSubscriptions', run: async () => { ran.push('ok'); return 2; } },
      ],
    }).catch((e: unknown) => e);
    expect(ran).toEqual(['broken', 'ok']);
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect([e.code, e.status, e.message]).toEqual(['INTERNAL', 500, 'Daily maintenance failed: broken']);
    expect(e.options.details).toMatchObject({
      failedTasks: ['broken'],
      summary: { tasks: expect.arrayContaining([{ name: 'endedSubscriptions', count: 2 }, { name: 'broken', count: 0 }]) },
    });
  });
});

describe('access control', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/admin/cleanup/stats?retention=30'],
    ['POST', '/api/admin/cleanup/run', { retentionDays: 30 }],
    ['POST', '/api/admin/maintenance/daily', {}],
  ];

  it.each(routes)('%s %s: 401 anonymous, 403 for a normal user', async (method, p, body) => {
    const anon = await new Client(t.url).request(method, p, body);
    expect(anon.status).toBe(401);
    const user = await demo.request(method, p, body);
    expect(user.status).toBe(403);
    expect(user.json.message).toBe('You need administrator privileges to do this');
  });

  const ops = [
    'query { cleanupStats(retentionDays: 30) { totalRecords } }',
    'mutation { runCleanup(input: { retentionDays: 30 }) { deletedCount } }',
    'mutation { runDailyMaintenance { message } }',
  ];

  it.each(ops)('GraphQL %s is admin only', async (op) => {
    expect((await new Client(t.url).gql(op)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await demo.gql(op)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('serves the GraphQL operations to an administrator', async () => {
    await t.app.deps.prisma.dailyUsage.create({ data: { userId, date: day(5) } });
    const stats = await admin.gql('query { cleanupStats { totalRecords retentionDays oldRecords wouldDelete oldestRecordDate } }');
    expect(stats.data.cleanupStats).toEqual({ totalRecords: 3, retentionDays: 90, oldRecords: 0, wouldDelete: 0, oldestRecordDate: ymd(day(5)) });
    const bad = await admin.gql('mutation { runCleanup(input: { retentionDays: 366 }) { deletedCount } }');
    expect(bad.errors?.[0]).toMatchObject({ message: 'Retention days must be between 1 and 365', extensions: { code: 'BAD_USER_INPUT' } });
    const badStats = await admin.gql('query { cleanupStats(retentionDays: 0) { totalRecords } }');
    expect(badStats.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const run = await admin.gql('mutation { runCleanup(input: { retentionDays: 1 }) { message deletedCount retentionDays } }');
    expect(run.data.runCleanup).toEqual({ message: 'Deleted 1 usage record older than 1 day', deletedCount: 1, retentionDays: 1 });
    const daily = await admin.gql('mutation { runDailyMaintenance { message usageRecordsDeleted tasks { name count } } }');
    expect(daily.data.runDailyMaintenance).toMatchObject({ usageRecordsDeleted: 0 });
    expect(daily.data.runDailyMaintenance.message).toMatch(/^Daily maintenance completed/);
  });
});
