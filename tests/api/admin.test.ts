import type { PrismaClient } from '@prisma/client';
import { encodeGlobalID as gid } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyUsageSeries } from '../../api/services/usage-stats.js';
import { listAdminUsers } from '../../api/services/users.js';
import { isForeignKeyViolation } from '../../api/services/smart-segments/content.js';
import { dayToDate, usageDay } from '../../api/services/usage.js';
import { ADMIN, Client, DEMO, startTestApp, type TestApp } from '../helpers/test-app.js';

// A clock that ticks from a fixed mid-day instant: a deterministic usage day, increasing timestamps.
const BASE = Date.parse('2026-06-15T12:00:00Z');
const started = Date.now();
const clock = () => new Date(BASE + (Date.now() - started));
const DAY = 86_400_000;

let t: TestApp;
let prisma: PrismaClient;
let admin: Client;
let demo: Client;
let anon: Client;
let demoId: string;

beforeAll(async () => {
  t = await startTestApp({}, { now: clock });
  prisma = t.app.deps.prisma;
  admin = new Client(t.url);
  await admin.login(ADMIN);
  demo = new Client(t.url);
  await demo.login(DEMO);
  anon = new Client(t.url);
  demoId = (await prisma.user.findUniqueOrThrow({ where: { email: DEMO.email } })).id;
});
afterAll(async () => {
  await t?.close();
});

const today = () => dayToDate(usageDay(clock(), t.config.usageTimeZone));
const someUuid = '00000000-0000-4000-8000-000000000000';
const category = (name: string) => prisma.smartSegmentCategory.findUniqueOrThrow({ where: { name } });
const newUser = (email: string, data: Record<string, unknown> = {}) =>
  prisma.user.create({ data: { email, password: 'x', firstName: email.split('@')[0], lastName: 'Test', crmType: 'zoho', industry: 'telecom', ...data } });

describe('access control', () => {
  it('refuses every admin REST route to anonymous (401) and normal users (403)', async () => {
    const free = await category('free');
    const preset = await prisma.smartSegmentPreset.findFirstOrThrow({ where: { categoryId: free.id } });
    const formula = await prisma.impactScoreFormula.findFirstOrThrow({ where: { categoryId: free.id } });
    const pro = await prisma.pricingTier.findUniqueOrThrow({ where: { name: 'pro' } });
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['POST', `/api/admin/users/${demoId}/ban`, { reason: 'spam' }],
      ['POST', `/api/admin/users/${demoId}/unban`, {}],
      ['GET', '/api/admin/usage-stats'],
      ['GET', '/api/admin/pricing-tiers'],
      ['POST', '/api/admin/pricing-tiers', { name: 'x', displayName: 'X', chatQueryLimit: 1, smartSegmentLimit: 1, priceMonthly: 1, priceYearly: 1 }],
      ['PUT', `/api/admin/pricing-tiers/${pro.id}`, { displayName: 'Hacked' }],
      ['GET', '/api/admin/smart-segments/categories'],
      ['POST', '/api/admin/smart-segments/categories', { name: 'x', displayName: 'X' }],
      ['DELETE', `/api/admin/smart-segments/categories/${free.id}`],
      ['GET', '/api/admin/smart-segments/presets'],
      ['GET', `/api/admin/smart-segments/presets?categoryId=${free.id}`],
      ['POST', '/api/admin/smart-segments/presets', { name: 'x', categoryId: free.id, description: 'leads' }],
      ['DELETE', `/api/admin/smart-segments/presets/${preset.id}`],
      ['GET', '/api/admin/smart-segments/formulas'],
      ['POST', '/api/admin/smart-segments/formulas', { name: 'x', categoryId: free.id, formula: 'customerCount' }],
      ['DELETE', `/api/admin/smart-segments/formulas/${formula.id}`],
    ];
    for (const [method, path, body] of routes) {
      expect([method, path, (await anon.request(method, path, body)).status]).toEqual([method, path, 401]);
      const r = await demo.request(method, path, body);
      expect([method, path, r.status]).toEqual([method, path, 403]);
      expect(r.json).toEqual({ error: 'Forbidden', message: 'You need administrator privileges to do this' });
    }
    // Nothing happened.
    expect((await prisma.pricingTier.findUniqueOrThrow({ where: { id: pro.id } })).displayName).toBe('Pro Plan');
    expect(await prisma.smartSegmentPreset.count({ where: { id: preset.id } })).toBe(1);
    expect(await prisma.impactScoreFormula.count({ where: { id: formula.id } })).toBe(1);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: demoId } })).isBanned).toBe(false);
    expect(await prisma.auditLog.count()).toBe(0);
  });

  it('refuses every admin GraphQL operation to anonymous and normal users', async () => {
    const ops = [
      'query { adminUsers { edges { node { id } } } }',
      'query { usageStats { totalUsers } }',
      'query { dailyUsageSeries { date } }',
      'query { pricingTiers { id } }',
      'query { adminSmartSegmentCategories { id } }',
      'query { adminSmartSegmentPresets { id } }',
      'query { adminImpactScoreFormulas { id } }',
      'query { auditLog(first: 5) { edges { node { id } } } }',
      `mutation { createPricingTier(input: { name: "x", displayName: "X", chatQueryLimit: 1, smartSegmentLimit: 1, priceMonthly: "1", priceYearly: "1" }) { pricingTier { id } } }`,
      `mutation { updatePricingTier(input: { id: "${gid('PricingTier', someUuid)}", displayName: "X" }) { pricingTier { id } } }`,
      'mutation { createSmartSegmentCategory(input: { name: "x", displayName: "X" }) { category { id } } }',
      `mutation { deleteSmartSegmentCategory(input: { id: "${gid('SmartSegmentCategory', someUuid)}" }) { deletedId } }`,
      `mutation { createSmartSegmentPreset(input: { name: "x", categoryId: "${gid('SmartSegmentCategory', someUuid)}", description: "leads" }) { preset { id } } }`,
      `mutation { deleteSmartSegmentPreset(input: { id: "${gid('SmartSegmentPreset', someUuid)}" }) { deletedId } }`,
      `mutation { createImpactScoreFormula(input: { name: "x", categoryId: "${gid('SmartSegmentCategory', someUuid)}", formula: "1" }) { formula { id } } }`,
      `mutation { deleteImpactScoreFormula(input: { id: "${gid('ImpactScoreFormula', someUuid)}" }) { deletedId } }`,
      `mutation { banUser(input: { userId: "${gid('User', demoId)}", reason: "x" }) { user { id } } }`,
      `mutation { unbanUser(input: { userId: "${gid('User', demoId)}" }) { user { id } } }`,
      `query { validateImpactFormula(formula: "1") { valid } }`,
      `mutation { generateSmartSegments { stats { users } } }`,
      `mutation { clearSmartSegments(input: { userId: "${gid('User', demoId)}" }) { deletedCount } }`,
    ];
    for (const op of ops) {
      expect([op, (await anon.gql(op)).errors?.[0]?.extensions?.code]).toEqual([op, 'UNAUTHENTICATED']);
      expect([op, (await demo.gql(op)).errors?.[0]?.extensions?.code]).toEqual([op, 'FORBIDDEN']);
    }
  });
});

describe('users and statistics', () => {
  it('lists user rows with tier and today\'s usage, "No Tier" as null, in one query', async () => {
    const noTier = await newUser('notier@example.com');
    const banned = await newUser('banned@example.com', { currentTierId: (await prisma.pricingTier.findUniqueOrThrow({ where: { name: 'pro' } })).id });
    expect((await admin.post(`/api/admin/users/${banned.id}/ban`, { reason: 'Chargeback fraud' })).status).toBe(200);
    await prisma.dailyUsage.createMany({
      data: [
        { userId: demoId, date: today(), chatQueriesUsed: 4, smartSegmentsUsed: 1 },
        { userId: demoId, date: new Date(today().getTime() - DAY), chatQueriesUsed: 9, smartSegmentsUsed: 3 },
      ],
    });

    const r = await admin.get('/api/admin/users');
    expect(r.status).toBe(200);
    expect(r.json.map((u: { email: string }) => u.email)).toEqual([ADMIN.email, DEMO.email, 'notier@example.com', 'banned@example.com']);
    const byEmail = Object.fromEntries(r.json.map((u: { email: string }) => [u.email, u]));
    expect(byEmail[DEMO.email]).toEqual({
      id: demoId,
      firstName: 'Demo',
      lastName: 'User',
      email: DEMO.email,
      crmType: 'hubspot',
      industry: 'it_software',
      tierName: 'Free Plan',
      chatQueryLimit: 10,
      smartSegmentLimit: 3,
      todaysUsage: { chatQueriesUsed: 4, smartSegmentsUsed: 1 },
      isBanned: false,
      bannedAt: null,
      banReason: null,
    });
    expect(byEmail['notier@example.com']).toMatchObject({
      id: noTier.id,
      tierName: null,
      chatQueryLimit: 10,
      smartSegmentLimit: 3,
      todaysUsage: { chatQueriesUsed: 0, smartSegmentsUsed: 0 },
    });
    expect(byEmail['banned@example.com']).toMatchObject({
      tierName: 'Pro Plan',
      chatQueryLimit: 100,
      smartSegmentLimit: 25,
      isBanned: true,
      banReason: 'Chargeback fraud',
    });
    expect(Date.parse(byEmail['banned@example.com'].bannedAt)).toBeGreaterThan(BASE - 1);

    const g = await admin.gql('{ adminUsers(first: 10) { totalCount edges { node { userId email tierName chatQueryLimit todaysUsage { chatQueriesUsed smartSegmentsUsed } isBanned bannedAt banReason } } } }');
    expect(g.errors).toBeUndefined();
    expect(g.data.adminUsers.totalCount).toBe(4);
    expect(g.data.adminUsers.edges[1].node).toEqual({
      userId: demoId,
      email: DEMO.email,
      tierName: 'Free Plan',
      chatQueryLimit: 10,
      todaysUsage: { chatQueriesUsed: 4, smartSegmentsUsed: 1 },
      isBanned: false,
      bannedAt: null,
      banReason: null,
    });

    // The number of queries does not depend on the number of users.
    const calls: string[] = [];
    const recording = new Proxy(prisma, {
      get(target, prop) {
        const delegate = Reflect.get(target, prop);
        if (typeof prop !== 'string' || !delegate || typeof delegate !== 'object' || !('findMany' in delegate)) return delegate;
        return new Proxy(delegate, {
          get(d, method) {
            const fn = Reflect.get(d, method);
            return typeof fn === 'function' ? (...args: unknown[]) => (calls.push(`${prop}.${String(method)}`), fn.apply(d, args)) : fn;
          },
        });
      },
    });
    await listAdminUsers({ ...t.app.deps, prisma: recording });
    expect(calls).toEqual(['user.findMany', 'pricingTier.findUnique']); // the last: free-tier fallback for "No Tier"
  });

  it('computes usage statistics as documented', async () => {
    // So far: admin and demo (signed in: active), notier (nothing: inactive), banned (inactive).
    const recent = await newUser('recent@example.com');
    const old = await newUser('old@example.com');
    const idle = await newUser('idle@example.com');
    const banned = await prisma.user.findUniqueOrThrow({ where: { email: 'banned@example.com' } });
    await prisma.dailyUsage.createMany({
      data: [
        { userId: recent.id, date: new Date(today().getTime() - 29 * DAY), chatQueriesUsed: 2, smartSegmentsUsed: 0 }, // oldest day in the window
        { userId: old.id, date: new Date(today().getTime() - 30 * DAY), chatQueriesUsed: 5, smartSegmentsUsed: 1 }, // just outside
        { userId: idle.id, date: today(), chatQueriesUsed: 0, smartSegmentsUsed: 0 }, // a row without usage
        { userId: banned.id, date: today(), chatQueriesUsed: 7, smartSegmentsUsed: 0 },
      ],
    });
    const preset = await prisma.smartSegmentPreset.findFirstOrThrow();
    await prisma.dailyGeneratedSegment.createMany({
      data: [
        { userId: demoId, presetId: preset.id, date: today() },
        { userId: recent.id, presetId: preset.id, date: today() },
      ],
    });
    const expected = { totalUsers: 7, activeUsers: 3, totalChatQueries: 4 + 9 + 2 + 5 + 0 + 7, totalSmartSegments: 2 };
    const r = await admin.get('/api/admin/usage-stats');
    expect(r.status).toBe(200);
    expect(r.json).toEqual(expected);
    expect((await admin.gql('{ usageStats { totalUsers activeUsers totalChatQueries totalSmartSegments } }')).data.usageStats).toEqual(expected);
    await prisma.dailyGeneratedSegment.deleteMany();
  });
  it('gives the daily series of queries and unlocks: one point per usage day, oldest first, zeros filled', async () => {
    const series = async (days?: number) => {
      const r = await admin.gql(`query($d: Int) { dailyUsageSeries(days: $d) { date chatQueries smartSegmentUnlocks } }`, { d: days ?? null });
      expect(r.errors).toBeUndefined();
      return r.data.dailyUsageSeries as { date: string; chatQueries: number; smartSegmentUnlocks: number }[];
    };
    const ymd = (daysAgo: number) => new Date(today().getTime() - daysAgo * DAY).toISOString().slice(0, 10);
    const before = await series();
    expect(before).toHaveLength(30);
    expect(before[0].date).toBe(ymd(29));
    expect(before[29].date).toBe(ymd(0));
    expect(before.map((p) => p.date)).toEqual([...before.map((p) => p.date)].sort());

    const a = await newUser('series-a@example.com');
    const b = await newUser('series-b@example.com');
    await prisma.dailyUsage.createMany({
      data: [
        { userId: a.id, date: today(), chatQueriesUsed: 3, smartSegmentsUsed: 2 },
        { userId: b.id, date: today(), chatQueriesUsed: 4, smartSegmentsUsed: 1 },
        { userId: a.id, date: new Date(today().getTime() - 10 * DAY), chatQueriesUsed: 6, smartSegmentsUsed: 0 },
        { userId: a.id, date: new Date(today().getTime() - 29 * DAY), chatQueriesUsed: 1, smartSegmentsUsed: 1 }, // first day of the window
        { userId: b.id, date: new Date(today().getTime() - 30 * DAY), chatQueriesUsed: 50, smartSegmentsUsed: 50 }, // outside
        { userId: b.id, date: new Date(today().getTime() + DAY), chatQueriesUsed: 70, smartSegmentsUsed: 70 }, // tomorrow: not yet
      ],
    });
    const after = await series();
    const delta = after.map((p, i) => ({ date: p.date, chat: p.chatQueries - before[i].chatQueries, unlocks: p.smartSegmentUnlocks - before[i].smartSegmentUnlocks }));
    expect(delta.filter((d) => d.chat || d.unlocks)).toEqual([
      { date: ymd(29), chat: 1, unlocks: 1 },
      { date: ymd(10), chat: 6, unlocks: 0 },
      { date: ymd(0), chat: 7, unlocks: 3 },
    ]);

    // Other windows, and the bounds.
    const week = await series(7);
    expect(week.map((p) => p.date)).toEqual(after.slice(23).map((p) => p.date));
    expect(week).toEqual(after.slice(23));
    expect((await series(31))[0]).toMatchObject({ date: ymd(30) });
    expect((await series(1)).map((p) => p.date)).toEqual([ymd(0)]);
    for (const days of [0, 91, -1]) {
      const r = await admin.gql('query($d: Int) { dailyUsageSeries(days: $d) { date } }', { d: days });
      expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(r.errors?.[0]?.message).toBe('Days must be a whole number from 1 to 90');
    }
    await prisma.dailyUsage.deleteMany({ where: { userId: { in: [a.id, b.id] } } });
    await prisma.user.deleteMany({ where: { id: { in: [a.id, b.id] } } });
  });

  it('sums the daily series in one grouped query', async () => {
    const calls: string[] = [];
    const recording = new Proxy(prisma, {
      get(target, prop) {
        const d = Reflect.get(target, prop);
        if (typeof prop !== 'string' || !d || typeof d !== 'object' || !('groupBy' in d)) return d;
        return new Proxy(d, {
          get(dt, method) {
            const fn = Reflect.get(dt, method);
            return typeof fn === 'function' ? (...args: unknown[]) => (calls.push(`${prop}.${String(method)}`), fn.apply(dt, args)) : fn;
          },
        });
      },
    });
    const points = await dailyUsageSeries({ ...t.app.deps, prisma: recording });
    expect(points).toHaveLength(30);
    expect(calls).toEqual(['dailyUsage.groupBy']);
  });
});

describe('pricing tiers', () => {
  const starter = { name: 'starter', displayName: 'Starter Plan', chatQueryLimit: 50, smartSegmentLimit: 10, priceMonthly: 19.5, priceYearly: 195 };

  it('lists all tiers with two-decimal prices', async () => {
    const r = await admin.get('/api/admin/pricing-tiers');
    expect(r.status).toBe(200);
    expect(r.json.map((x: { name: string }) => x.name)).toEqual(['free', 'pro', 'enterprise']);
    expect(r.json[1]).toMatchObject({
      name: 'pro',
      displayName: 'Pro Plan',
      chatQueryLimit: 100,
      smartSegmentLimit: 25,
      priceMonthly: '49.00',
      priceYearly: '490.00',
      isActive: true,
      paddlePriceIdMonthly: 'pri_sandbox_pro_monthly',
      paddlePriceIdYearly: 'pri_sandbox_pro_yearly',
    });
    expect(r.json[0].priceMonthly).toBe('0.00');
  });

  it('creates a tier, refuses a duplicate name and invalid fields', async () => {
    const r = await admin.post('/api/admin/pricing-tiers', starter);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ ...starter, priceMonthly: '19.50', priceYearly: '195.00', isActive: true });
    const dup = await admin.post('/api/admin/pricing-tiers', { ...starter, name: ' Starter ' });
    expect(dup.status).toBe(409);
    expect(dup.json.message).toBe('A pricing tier named starter already exists');
    const other = { ...starter, name: 'other' };
    for (const [patch, message] of [
      [{ name: undefined }, 'Name is required'],
      [{ name: 'Pro Plan' }, 'Name must be a lowercase slug (letters, digits and dashes), e.g. pro'],
      [{ displayName: '' }, 'Display name is required'],
      [{ chatQueryLimit: undefined }, 'Chat query limit is required'],
      [{ chatQueryLimit: -1 }, 'Chat query limit must be a valid positive number'],
      [{ smartSegmentLimit: 2.5 }, 'Smart segment limit must be a valid positive number'],
      [{ priceMonthly: 'abc' }, 'Monthly price must be a valid positive number'],
      [{ priceYearly: -3 }, 'Yearly price must be a valid positive number'],
    ] as const) {
      const bad = await admin.post('/api/admin/pricing-tiers', { ...other, ...patch });
      expect([patch, bad.status, bad.json.message]).toEqual([patch, 400, message]);
    }
    expect(await prisma.pricingTier.count()).toBe(4);
  });

  it('validates edits exactly as the spec says and keeps name and active flag', async () => {
    const tier = await prisma.pricingTier.findUniqueOrThrow({ where: { name: 'starter' } });
    const path = `/api/admin/pricing-tiers/${tier.id}`;
    for (const [patch, message] of [
      [{ chatQueryLimit: -1 }, 'Chat query limit must be a valid positive number'],
      [{ chatQueryLimit: 'ten' }, 'Chat query limit must be a valid positive number'],
      [{ chatQueryLimit: 1.5 }, 'Chat query limit must be a valid positive number'],
      [{ smartSegmentLimit: -2 }, 'Smart segment limit must be a valid positive number'],
      [{ smartSegmentLimit: null }, 'Smart segment limit must be a valid positive number'],
      [{ priceMonthly: '-1.00' }, 'Monthly price must be a valid positive number'],
      [{ priceMonthly: '1.234' }, 'Monthly price must be a valid positive number'],
      [{ priceMonthly: 'abc' }, 'Monthly price must be a valid positive number'],
      [{ priceYearly: '-0.01' }, 'Yearly price must be a valid positive number'],
      [{ priceYearly: '' }, 'Yearly price must be a valid positive number'],
      [{ displayName: '   ' }, 'Display name cannot be empty'],
      [{ name: 'premium' }, 'The name of a pricing tier cannot be changed'],
      [{ isActive: false }, 'The active status of a pricing tier cannot be changed'],
    ] as const) {
      const r = await admin.put(path, { displayName: 'Starter', ...patch });
      expect([patch, r.status, r.json.message]).toEqual([patch, 400, message]);
    }
    expect(await prisma.pricingTier.findUniqueOrThrow({ where: { id: tier.id } })).toEqual(tier);
    expect((await admin.put(`/api/admin/pricing-tiers/${someUuid}`, { displayName: 'X' })).status).toBe(404);
    expect((await admin.put('/api/admin/pricing-tiers/not-a-uuid', { displayName: 'X' })).status).toBe(404);
  });

  it('applies an edit, audits it and pushes the new limits to the users of the tier', async () => {
    const tier = await prisma.pricingTier.findUniqueOrThrow({ where: { name: 'starter' } });
    const member = await newUser('starter@example.com', { currentTierId: tier.id });
    const iterator = t.app.deps.events.pubsub.subscribe('usageUpdated', member.id)[Symbol.asyncIterator]();
    const pushed = iterator.next();
    const r = await admin.put(`/api/admin/pricing-tiers/${tier.id}`, {
      name: 'starter', // unchanged: allowed
      isActive: true, // unchanged: allowed
      displayName: 'Starter',
      chatQueryLimit: 60,
      smartSegmentLimit: '12',
      priceMonthly: '21.00',
      priceYearly: '210.5',
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'starter', displayName: 'Starter', chatQueryLimit: 60, smartSegmentLimit: 12, priceMonthly: '21.00', priceYearly: '210.50', isActive: true });
    const event = await Promise.race([pushed, new Promise((_, reject) => setTimeout(() => reject(new Error('no usageUpdated')), 3000))]);
    expect((event as IteratorResult<unknown>).value).toEqual({ userId: member.id, chatQueriesUsed: 0, chatQueryLimit: 60, smartSegmentsUsed: 0, smartSegmentLimit: 12, tierName: 'Starter' });
    await iterator.return?.();
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { action: 'pricingTier.update', targetId: tier.id } });
    expect(audit.details).toEqual({
      name: 'starter',
      changes: {
        displayName: { from: 'Starter Plan', to: 'Starter' },
        chatQueryLimit: { from: 50, to: 60 },
        smartSegmentLimit: { from: 10, to: 12 },
        priceMonthly: { from: '19.50', to: '21.00' },
        priceYearly: { from: '195.00', to: '210.50' },
      },
    });
  });

  it('creates and edits tiers over GraphQL with the same rules', async () => {
    const created = await admin.gql(
      `mutation { createPricingTier(input: { name: "team", displayName: "Team", chatQueryLimit: 300, smartSegmentLimit: 40, priceMonthly: "99", priceYearly: "990.00" }) { pricingTier { id tierId name priceMonthly isActive } } }`,
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createPricingTier.pricingTier).toMatchObject({ name: 'team', priceMonthly: '99.00', isActive: true });
    const { id, tierId } = created.data.createPricingTier.pricingTier;
    const bad = await admin.gql(`mutation($id: ID!) { updatePricingTier(input: { id: $id, chatQueryLimit: -5 }) { pricingTier { id } } }`, { id });
    expect(bad.errors?.[0]).toMatchObject({ message: 'Chat query limit must be a valid positive number', extensions: { code: 'BAD_USER_INPUT' } });
    const ok = await admin.gql(`mutation($id: ID!) { updatePricingTier(input: { id: $id, displayName: "Team Plan" }) { pricingTier { tierId displayName chatQueryLimit } } }`, { id });
    expect(ok.data.updatePricingTier.pricingTier).toEqual({ tierId, displayName: 'Team Plan', chatQueryLimit: 300 });
    // GraphQL takes Relay ids only (raw uuids are for the REST routes).
    const raw = await admin.gql(`mutation($id: ID!) { updatePricingTier(input: { id: $id, displayName: "Raw" }) { pricingTier { id } } }`, { id: tierId });
    expect(raw.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const list = await admin.gql('{ pricingTiers { name priceYearly } }');
    expect(list.data.pricingTiers.map((x: { name: string }) => x.name)).toEqual(['free', 'starter', 'pro', 'team', 'enterprise']);
  });
});

describe('smart-segment categories', () => {
  it('creates a category with defaults and refuses duplicates and invalid input', async () => {
    const r = await admin.post('/api/admin/smart-segments/categories', { name: 'vip', displayName: 'VIP', description: '' });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ name: 'vip', displayName: 'VIP', description: null, isLocked: true, sortOrder: 0, isActive: true });
    const dup = await admin.post('/api/admin/smart-segments/categories', { name: 'vip', displayName: 'Again' });
    expect([dup.status, dup.json.message]).toEqual([409, 'A category named vip already exists']);
    for (const [body, message] of [
      [{ displayName: 'X' }, 'Name is required'],
      [{ name: 'two words', displayName: 'X' }, 'Name must be a lowercase slug (letters, digits and dashes), e.g. added-revenue'],
      [{ name: 'x' }, 'Display name is required'],
      [{ name: 'x', displayName: 'X', sortOrder: 1.5 }, 'Sort order must be a whole number'],
      [{ name: 'x', displayName: 'X', isLocked: 'yes' }, 'isLocked must be true or false'],
    ] as const) {
      const bad = await admin.post('/api/admin/smart-segments/categories', body);
      expect([body, bad.status, bad.json.message]).toEqual([body, 400, message]);
    }
    const list = await admin.get('/api/admin/smart-segments/categories');
    expect(list.json.map((c: { name: string }) => c.name)).toEqual(['free', 'vip', 'added-revenue', 'operational-hygiene', 'reactivation']);
  });

  it('refuses to delete a category that has presets (also at the database level)', async () => {
    const free = await category('free');
    const r = await admin.delete(`/api/admin/smart-segments/categories/${free.id}`);
    expect(r.status).toBe(409);
    expect(r.json.message).toBe('This category has 3 presets. Delete or move them before deleting the category.');
    expect(await prisma.impactScoreFormula.count({ where: { categoryId: free.id } })).toBe(1);
    // The database refuses it on its own too, with an error the service recognises.
    const direct = await prisma.smartSegmentCategory.delete({ where: { id: free.id } }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(isForeignKeyViolation(direct)).toBe(true);
    expect(await prisma.smartSegmentCategory.count({ where: { id: free.id } })).toBe(1);
  });

  it('deletes an empty category together with its formulas', async () => {
    const vip = await category('vip');
    const f = await admin.post('/api/admin/smart-segments/formulas', { name: 'VIP score', categoryId: vip.id, formula: 'customerCount', isActive: true });
    expect(f.status).toBe(201);
    const r = await admin.delete(`/api/admin/smart-segments/categories/${vip.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ success: true, id: vip.id });
    expect(await prisma.impactScoreFormula.count({ where: { id: f.json.id } })).toBe(0);
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { action: 'smartSegmentCategory.delete', targetId: vip.id } });
    expect(audit.details).toEqual({ name: 'vip', formulasDeleted: 1 });
    expect((await admin.delete(`/api/admin/smart-segments/categories/${vip.id}`)).status).toBe(404);
  });
});

describe('smart-segment presets', () => {
  it('creates presets, filters by category and refuses invalid input and duplicates', async () => {
    const reactivation = await category('reactivation');
    const body = { name: 'Quiet VIPs', categoryId: reactivation.id, description: 'customers with lifetime value over $20k inactive for 90+ days', sortOrder: 5, isActive: true, defaultQuery: null };
    const r = await admin.post('/api/admin/smart-segments/presets', body);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ ...body, defaultQuery: null });
    const dup = await admin.post('/api/admin/smart-segments/presets', body);
    expect([dup.status, dup.json.message]).toEqual([409, 'A preset named Quiet VIPs already exists in the category Reactivation']);
    const other = await category('added-revenue');
    expect((await admin.post('/api/admin/smart-segments/presets', { ...body, categoryId: other.id })).status).toBe(201);
    for (const [patch, message] of [
      [{ categoryId: someUuid }, 'The selected category does not exist'],
      [{ categoryId: 'nope' }, 'The selected category does not exist'],
      [{ categoryId: undefined }, 'Category is required'],
      [{ description: '  ' }, 'Description is required'],
      [{ description: 'x'.repeat(501) }, 'Description must be at most 500 characters'],
      [{ name: '' }, 'Name is required'],
      [{ sortOrder: 'first' }, 'Sort order must be a whole number'],
    ] as const) {
      const bad = await admin.post('/api/admin/smart-segments/presets', { ...body, name: 'Another', ...patch });
      expect([patch, bad.status, bad.json.message]).toEqual([patch, 400, message]);
    }
    const filtered = await admin.get(`/api/admin/smart-segments/presets?categoryId=${reactivation.id}`);
    expect(filtered.json.map((p: { name: string }) => p.name)).toEqual(['Lapsed customers', 'Dormant high spenders', 'Leads who never purchased', 'Quiet VIPs']);
    expect((await admin.get('/api/admin/smart-segments/presets')).json).toHaveLength(14);
    expect((await admin.get('/api/admin/smart-segments/presets?categoryId=bad')).status).toBe(400);
  });

  it('refuses criteria the daily generation cannot run, and reads them back as the admin types', async () => {
    const reactivation = await category('reactivation');
    const body = { name: 'Unrunnable', categoryId: reactivation.id, sortOrder: 0, isActive: true };
    const before = await prisma.smartSegmentPreset.count();
    // a phrase the parser does not understand: refused on create (REST and GraphQL), nothing stored
    const vague = await admin.post('/api/admin/smart-segments/presets', { ...body, description: 'customers with open support tickets' });
    expect(vague.status).toBe(400);
    expect(vague.json.message).toMatch(/^Part of the description was not understood: ".*tickets.*"/);
    const gql = await admin.gql('mutation($c: ID!) { createSmartSegmentPreset(input: { name: "Unrunnable", categoryId: $c, description: "contacts who never bought with last purchase over $500" }) { preset { id } } }', {
      c: gid('SmartSegmentCategory', reactivation.id),
    });
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'description' });
    expect(await prisma.smartSegmentPreset.count()).toBe(before);

    const check = async (description: string) => (await admin.gql('query($d: String!) { checkPresetDescription(description: $d) { valid message understood notes } }', { d: description })).data.checkPresetDescription;
    expect(await check('customers with lifetime value over $5k')).toEqual({ valid: true, message: null, understood: expect.stringMatching(/lifetime value over \$5,000/), notes: [] });
    const partly = await check('customers with lifetime value over $5k and open support tickets');
    expect(partly).toMatchObject({ valid: false, understood: expect.stringMatching(/lifetime value over \$5,000/) });
    // the message the form shows is the one creating the preset gives
    const created = await admin.post('/api/admin/smart-segments/presets', { ...body, description: 'customers with lifetime value over $5k and open support tickets' });
    expect([created.status, created.json.message]).toEqual([400, partly.message]);
    expect(await check('   ')).toEqual({ valid: false, message: 'Description is required', understood: null, notes: [] });
    // administrators only
    expect((await demo.gql('{ checkPresetDescription(description: "leads") { valid } }')).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('deletes a preset with its favourites and generated segments', async () => {
    const reactivation = await category('reactivation');
    const [target, kept] = await prisma.smartSegmentPreset.findMany({ where: { categoryId: reactivation.id }, orderBy: { sortOrder: 'asc' }, take: 2 });
    for (const presetId of [target.id, kept.id]) {
      await prisma.userSegmentFavorite.create({ data: { userId: demoId, presetId } });
      await prisma.dailyGeneratedSegment.create({ data: { userId: demoId, presetId, date: today(), customerCount: 3 } });
    }
    const r = await admin.delete(`/api/admin/smart-segments/presets/${target.id}`);
    expect(r.status).toBe(200);
    expect(await prisma.smartSegmentPreset.count({ where: { id: target.id } })).toBe(0);
    expect(await prisma.userSegmentFavorite.count({ where: { presetId: target.id } })).toBe(0);
    expect(await prisma.dailyGeneratedSegment.count({ where: { presetId: target.id } })).toBe(0);
    expect(await prisma.userSegmentFavorite.count({ where: { presetId: kept.id } })).toBe(1);
    expect(await prisma.dailyGeneratedSegment.count({ where: { presetId: kept.id } })).toBe(1);
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { action: 'smartSegmentPreset.delete', targetId: target.id } });
    expect(audit.details).toEqual({ name: target.name, favoritesDeleted: 1, dailySegmentsDeleted: 1 });
    expect((await admin.delete(`/api/admin/smart-segments/presets/${target.id}`)).status).toBe(404);
  });
});

describe('impact formulas', () => {
  it('refuses invalid formulas and stores nothing', async () => {
    const hygiene = await category('operational-hygiene');
    const before = await prisma.impactScoreFormula.findMany({ orderBy: { id: 'asc' } });
    for (const [formula, message] of [
      ['customerCount *', 'Syntax error in formula: '],
      ['customerCount * bogus', 'Unknown variable "bogus". Available variables: customerCount, revenuePerCustomer, engagementRate, conversionRate, churnRisk, marketingCost'],
      ['x = 1', '"x = 1": assignments are not allowed'],
      ['evaluate("1")', 'Function "evaluate" is not allowed'],
      ['customerCount.constructor', 'property and index access are not allowed'],
      // formulas that would never give a score, or none for an empty segment
      ['customerCount ^ 1e308', 'Formula gives no score for a typical segment: it gives Infinity'],
      ['9^9^9', 'Formula gives no score for a typical segment: it gives Infinity'],
      ['0/0', 'Formula gives no score for a typical segment: it gives NaN'],
      ['revenuePerCustomer / customerCount', 'Formula gives no score with an empty segment (every variable 0): it gives NaN'],
    ] as const) {
      const r = await admin.post('/api/admin/smart-segments/formulas', { name: 'Bad', categoryId: hygiene.id, formula, isActive: true });
      expect([formula, r.status]).toEqual([formula, 400]);
      expect(r.json.message).toContain(message);
    }
    expect(await prisma.impactScoreFormula.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
  });

  it('stores the variables used and keeps one active formula per category', async () => {
    const hygiene = await category('operational-hygiene');
    const seeded = await prisma.impactScoreFormula.findFirstOrThrow({ where: { categoryId: hygiene.id } });
    expect(seeded.isActive).toBe(true);

    const inactive = await admin.post('/api/admin/smart-segments/formulas', { name: 'Draft', categoryId: hygiene.id, formula: 'sqrt(customerCount) * 2' });
    expect(inactive.status).toBe(201);
    expect(inactive.json).toMatchObject({ isActive: false, variables: ['customerCount'], description: null });
    expect((await prisma.impactScoreFormula.findUniqueOrThrow({ where: { id: seeded.id } })).isActive).toBe(true);

    const active = await admin.post('/api/admin/smart-segments/formulas', {
      name: 'Spec example',
      categoryId: hygiene.id,
      description: 'From the spec',
      formula: 'customerCount * 0.3 + revenuePerCustomer * 0.7',
      isActive: true,
    });
    expect(active.status).toBe(201);
    expect(active.json).toMatchObject({ isActive: true, variables: ['customerCount', 'revenuePerCustomer'], categoryId: hygiene.id });
    const rows = await prisma.impactScoreFormula.findMany({ where: { categoryId: hygiene.id, isActive: true } });
    expect(rows.map((f) => f.id)).toEqual([active.json.id]);
    // Other categories keep their active formula.
    expect(await prisma.impactScoreFormula.count({ where: { isActive: true } })).toBe(4);

    const listed = await admin.get(`/api/admin/smart-segments/formulas?categoryId=${hygiene.id}`);
    const listedRows = listed.json.map((f: { name: string; isActive: boolean }) => [f.name, f.isActive]);
    expect(listedRows[0]).toEqual(['Spec example', true]); // the active one first, then by creation
    expect(listedRows.slice(1).sort()).toEqual([
      ['Cleanup effort', false],
      ['Draft', false],
    ]);
    const del = await admin.delete(`/api/admin/smart-segments/formulas/${inactive.json.id}`);
    expect(del.status).toBe(200);
    expect(await prisma.impactScoreFormula.count({ where: { id: inactive.json.id } })).toBe(0);
  });

  it('manages content over GraphQL', async () => {
    const cat = await admin.gql('mutation { createSmartSegmentCategory(input: { name: "gql", displayName: "GraphQL", sortOrder: 9 }) { category { id categoryId isLocked sortOrder } } }');
    expect(cat.errors).toBeUndefined();
    const { id: catGid, categoryId } = cat.data.createSmartSegmentCategory.category;
    expect(cat.data.createSmartSegmentCategory.category).toMatchObject({ isLocked: true, sortOrder: 9 });
    const preset = await admin.gql(
      'mutation($c: ID!) { createSmartSegmentPreset(input: { name: "P", categoryId: $c, description: "leads" }) { preset { id presetId categoryId defaultQuery category { name } } } }',
      { c: catGid },
    );
    expect(preset.data.createSmartSegmentPreset.preset).toMatchObject({ categoryId, defaultQuery: null, category: { name: 'gql' } });
    const formula = await admin.gql(
      'mutation($c: ID!) { createImpactScoreFormula(input: { name: "F", categoryId: $c, formula: "max(customerCount, 1)", isActive: true }) { formula { id isActive variables } } }',
      { c: catGid },
    );
    expect(formula.data.createImpactScoreFormula.formula).toMatchObject({ isActive: true, variables: ['customerCount'] });
    const bad = await admin.gql('mutation($c: ID!) { createImpactScoreFormula(input: { name: "F", categoryId: $c, formula: "foo" }) { formula { id } } }', { c: catGid });
    expect(bad.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(bad.errors?.[0].message).toContain('Unknown variable "foo"');
    // The same check as the admin types, before saving.
    const check = await admin.gql('query($f: String!) { validateImpactFormula(formula: $f) { valid message variables } }', { f: 'foo' });
    expect(check.data.validateImpactFormula).toMatchObject({ valid: false, variables: [] });
    expect(check.data.validateImpactFormula.message).toBe(bad.errors?.[0].message);
    const good = await admin.gql('query($f: String!) { validateImpactFormula(formula: $f) { valid message variables } }', { f: 'customerCount * 2' });
    expect(good.data.validateImpactFormula).toEqual({ valid: true, message: null, variables: ['customerCount'] });

    const lists = await admin.gql(
      'query($c: ID) { adminSmartSegmentPresets(categoryId: $c) { name } adminImpactScoreFormulas(categoryId: $c) { name } adminSmartSegmentCategories { name } }',
      { c: catGid },
    );
    expect(lists.data.adminSmartSegmentPresets).toEqual([{ name: 'P' }]);
    expect(lists.data.adminImpactScoreFormulas).toEqual([{ name: 'F' }]);
    expect(lists.data.adminSmartSegmentCategories.map((c: { name: string }) => c.name)).toContain('gql');

    const blocked = await admin.gql('mutation($id: ID!) { deleteSmartSegmentCategory(input: { id: $id }) { deletedId } }', { id: catGid });
    expect(blocked.errors?.[0]).toMatchObject({ message: 'This category has 1 preset. Delete or move them before deleting the category.', extensions: { code: 'CONFLICT' } });
    const delPreset = await admin.gql('mutation($id: ID!) { deleteSmartSegmentPreset(input: { id: $id }) { deletedId } }', { id: preset.data.createSmartSegmentPreset.preset.id });
    expect(delPreset.data.deleteSmartSegmentPreset).toEqual({ deletedId: preset.data.createSmartSegmentPreset.preset.id });
    const delFormula = await admin.gql('mutation($id: ID!) { deleteImpactScoreFormula(input: { id: $id }) { deletedId } }', { id: formula.data.createImpactScoreFormula.formula.id });
    expect(delFormula.data.deleteImpactScoreFormula.deletedId).toBe(formula.data.createImpactScoreFormula.formula.id);
    const delCat = await admin.gql('mutation($id: ID!) { deleteSmartSegmentCategory(input: { id: $id }) { deletedId } }', { id: catGid });
    expect(delCat.data.deleteSmartSegmentCategory.deletedId).toBe(catGid);
  });
});

describe('audit log', () => {
  it('shows every administrative action, newest first, with the actor email, page by page', async () => {
    const total = await prisma.auditLog.count();
    const adminUser = await prisma.user.findUniqueOrThrow({ where: { email: ADMIN.email } });
    expect(await prisma.auditLog.count({ where: { NOT: { actorId: adminUser.id } } })).toBe(0);
    const q = `query($after: String) { auditLog(first: 4, after: $after) {
      edges { node { id action targetType targetId details actorEmail createdAt } }
      pageInfo { hasNextPage endCursor } } }`;
    const actions: string[] = [];
    const times: number[] = [];
    let after: string | null = null;
    for (;;) {
      const page: any = await admin.gql(q, { after });
      expect(page.errors).toBeUndefined();
      for (const { node } of page.data.auditLog.edges) {
        expect(node.actorEmail).toBe(ADMIN.email);
        actions.push(node.action);
        times.push(Date.parse(node.createdAt));
      }
      if (!page.data.auditLog.pageInfo.hasNextPage) break;
      after = page.data.auditLog.pageInfo.endCursor;
    }
    expect(actions).toHaveLength(total);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // The last actions of the GraphQL content test, newest first; the first ever action was the ban.
    expect(actions.slice(0, 4)).toEqual([
      'smartSegmentCategory.delete',
      'impactScoreFormula.delete',
      'smartSegmentPreset.delete',
      'impactScoreFormula.create',
    ]);
    expect(actions.at(-1)).toBe('user.ban');
    expect(new Set(actions)).toEqual(
      new Set([
        'user.ban',
        'pricingTier.create',
        'pricingTier.update',
        'smartSegmentCategory.create',
        'smartSegmentCategory.delete',
        'smartSegmentPreset.create',
        'smartSegmentPreset.delete',
        'impactScoreFormula.create',
        'impactScoreFormula.delete',
      ]),
    );
  });
});
