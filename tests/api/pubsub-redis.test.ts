// Several API processes behind one Redis: an event published by one instance reaches a subscriber
// whose websocket is held by another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../api/app.js';
import { createLogger } from '../../api/logger.js';
import { Client, DEMO, startTestApp, type TestApp } from '../helpers/test-app.js';
import { collect, wsClient } from '../helpers/ws-client.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let a: TestApp;
let b: App;
let bUrl: string;
beforeAll(async () => {
  a = await startTestApp({ REDIS_URL });
  b = buildApp(a.config, { logger: createLogger('silent'), onSeeded: () => {} });
  bUrl = (await b.start(0)).url;
});
afterAll(async () => {
  await b?.stop();
  await a?.close();
});

describe('Redis pub/sub fan-out', () => {
  it('delivers usageUpdated published on instance A to a subscriber connected to instance B', async () => {
    const onB = new Client(bUrl);
    await onB.login(DEMO);
    const ws = wsClient(bUrl, `crm_session=${onB.cookies.get('crm_session')}`);
    const sub = collect<{ usageUpdated: { chatQueriesUsed: number; chatQueryLimit: number } }>(
      ws,
      'subscription { usageUpdated { chatQueriesUsed chatQueryLimit } }',
    );
    await new Promise((r) => setTimeout(r, 500)); // subscription registered in Redis

    // A query on instance A (CRM not connected → kept with hasError, no quota) publishes nothing,
    // so change the tier on A through the admin API: that publishes usage to the tier's users.
    const admin = new Client(a.url);
    await admin.login({ email: 'admin@test.local', password: 'admin-password-1' });
    const tiers = (await admin.get('/api/admin/pricing-tiers')).json as any[];
    const free = tiers.find((t) => t.name === 'free');
    const r = await admin.put(`/api/admin/pricing-tiers/${free.id}`, {
      displayName: free.displayName, chatQueryLimit: 12, smartSegmentLimit: free.smartSegmentLimit,
      priceMonthly: free.priceMonthly, priceYearly: free.priceYearly,
    });
    expect(r.status).toBe(200);
    const items = await sub.next(1, 10_000);
    expect(items[0].usageUpdated).toEqual({ chatQueriesUsed: 0, chatQueryLimit: 12 });
    sub.dispose();
    await ws.dispose();
  });
});
