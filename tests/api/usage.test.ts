import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeQuota, currentUsage, nextUsageDayStart, publishUsage, refundQuota, usageDay } from '../../api/services/usage.js';
import { AppError } from '../../api/errors.js';
import { Client, DEMO, startTestApp, type TestApp } from '../helpers/test-app.js';
import { collect, wsClient } from '../helpers/ws-client.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function demoUser() {
  return t.app.deps.prisma.user.findUniqueOrThrow({ where: { email: DEMO.email } });
}

describe('usage metering', () => {
  it('computes the usage day in the configured time zone', () => {
    const instant = new Date('2026-03-01T23:30:00Z');
    expect(usageDay(instant, 'UTC')).toBe('2026-03-01');
    expect(usageDay(instant, 'Europe/Berlin')).toBe('2026-03-02');
    expect(usageDay(instant, 'America/Los_Angeles')).toBe('2026-03-01');
  });

  it('knows when the usage day ends (the limits reset), across a DST change', () => {
    const instant = new Date('2026-03-01T23:30:00Z');
    expect(nextUsageDayStart(instant, 'UTC').toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(nextUsageDayStart(instant, 'Europe/Berlin').toISOString()).toBe('2026-03-02T23:00:00.000Z');
    expect(nextUsageDayStart(new Date('2026-03-08T12:00:00Z'), 'America/Los_Angeles').toISOString()).toBe('2026-03-09T07:00:00.000Z'); // PDT from 8 March
    expect(nextUsageDayStart(new Date('2026-03-02T00:00:00Z'), 'UTC').toISOString()).toBe('2026-03-03T00:00:00.000Z'); // at midnight: the next one
  });

  it('never over-spends under 30 concurrent consumers at a limit of 10', async () => {
    const user = await t.app.deps.prisma.user.create({
      data: { email: 'race@example.com', password: 'x', firstName: 'R', lastName: 'C', crmType: 'hubspot', industry: 'telecom' },
    });
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => consumeQuota(t.app.deps, user, 'chat')));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(10);
    expect(rejected).toHaveLength(20);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect(r.reason.status).toBe(429);
      expect(r.reason.options.details).toEqual({ used: 10, limit: 10, tier: 'Free Plan', remaining: 0 });
    }
    const usage = await currentUsage(t.app.deps, user);
    expect(usage).toMatchObject({ chatQueriesUsed: 10, chatQueryLimit: 10, smartSegmentsUsed: 0, smartSegmentLimit: 3, tierName: 'Free Plan' });
    await refundQuota(t.app.deps, user.id, 'chat');
    expect((await currentUsage(t.app.deps, user)).chatQueriesUsed).toBe(9);
  });

  it('falls back to the free tier for users without one', async () => {
    const user = await t.app.deps.prisma.user.create({
      data: { email: 'notier@example.com', password: 'x', firstName: 'N', lastName: 'T', crmType: 'hubspot', industry: 'telecom' },
    });
    expect((await currentUsage(t.app.deps, user)).tierName).toBe('Free Plan');
  });

  it('serves GET /api/usage/current and refuses anonymous callers', async () => {
    expect((await new Client(t.url).get('/api/usage/current')).status).toBe(401);
    const c = new Client(t.url);
    await c.login(DEMO);
    const r = await c.get('/api/usage/current');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ chatQueriesUsed: 0, chatQueryLimit: 10, smartSegmentsUsed: 0, smartSegmentLimit: 3, tierName: 'Free Plan' });
  });

  it('pushes usageUpdated to the signed-in user over graphql-ws, and only to them', async () => {
    const c = new Client(t.url);
    await c.login(DEMO);
    const client = wsClient(t.url, `crm_session=${c.cookies.get('crm_session')}`);
    const sub = collect<{ usageUpdated: { chatQueriesUsed: number; tierName: string } }>(
      client,
      'subscription { usageUpdated { chatQueriesUsed tierName } }',
    );
    await new Promise((r) => setTimeout(r, 300));
    const demo = await demoUser();
    const other = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { email: 'race@example.com' } });
    await publishUsage(t.app.deps, other); // not for this subscriber
    await consumeQuota(t.app.deps, demo, 'chat');
    await publishUsage(t.app.deps, demo);
    const items = await sub.next(1);
    expect(items).toEqual([{ usageUpdated: { chatQueriesUsed: 1, tierName: 'Free Plan' } }]);
    sub.dispose();
    await client.dispose();
  });

  it('rejects anonymous subscriptions', async () => {
    const client = wsClient(t.url, '');
    const sub = collect(client, 'subscription { usageUpdated { chatQueriesUsed } }');
    await expect(sub.next(1, 3000)).rejects.toThrow(/signed in|UNAUTHENTICATED/);
    await client.dispose();
  });
});
