// Paddle billing: signed sandbox webhooks move users between tiers; /api/paddle/config and the
// GraphQL paddleConfig give checkout the next tier's price. Webhooks are signed here exactly as
// Paddle documents it: Paddle-Signature: ts=<unix seconds>;h1=<hex HMAC-SHA256("<ts>:<raw body>")>.
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireEndedSubscriptions } from '../../api/services/billing/paddle.js';
import { minorToMajor } from '../../api/services/billing/paddle-event.js';
import { ADMIN, Client, DEMO, startTestApp, type TestApp } from '../helpers/test-app.js';

const SECRET = 'pdl_ntfset_test_secret'; // what startTestApp configures as PADDLE_WEBHOOK_SECRET
const PRO_MONTHLY = 'pri_sandbox_pro_monthly';
const PRO_YEARLY = 'pri_sandbox_pro_yearly';
const ENTERPRISE_MONTHLY = 'pri_sandbox_enterprise_monthly';
const DAY = 86_400_000;

let t: TestApp;
/** The app's clock: real time unless a test moves it. (Signature freshness always uses real time.) */
let clockOffsetMs = 0;
beforeAll(async () => {
  t = await startTestApp({}, { now: () => new Date(Date.now() + clockOffsetMs) });
});
afterAll(async () => {
  await t?.close();
});

// --- signing and delivery ---------------------------------------------------------------------

function sign(body: string, opts: { secret?: string; ts?: number } = {}) {
  const ts = opts.ts ?? Math.floor(Date.now() / 1000);
  const h1 = createHmac('sha256', opts.secret ?? SECRET).update(`${ts}:${body}`).digest('hex');
  return `ts=${ts};h1=${h1}`;
}

async function deliver(body: string, signature: string | null = sign(body)) {
  const res = await fetch(`${t.url}/api/paddle/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'paddle-signature': signature }) },
    body,
  });
  return { status: res.status, json: (await res.json()) as any };
}

// --- realistic events from the fixtures, with fresh ids and times ------------------------------

const paddleId = (prefix: string) => `${prefix}_01${randomBytes(12).toString('hex')}`;

function fixture(name: string): any {
  return JSON.parse(readFileSync(new URL(`../fixtures/paddle/${name}.json`, import.meta.url), 'utf8'));
}

function setPrice(item: any, priceId: string, interval: 'month' | 'year' = 'month') {
  item.price.id = priceId;
  if ('price_id' in item) item.price_id = priceId;
  item.price.billing_cycle = { interval, frequency: 1 };
}

interface Who {
  email?: string;
  userId?: string;
  customerId: string;
  subscriptionId: string;
}

function transactionCompleted(who: Who, opts: { priceId?: string; occurredAt?: Date; periodStart?: Date } = {}) {
  const e = fixture('transaction.completed');
  const start = opts.periodStart ?? new Date();
  e.event_id = paddleId('evt');
  e.notification_id = paddleId('ntf');
  e.occurred_at = (opts.occurredAt ?? new Date()).toISOString();
  e.data.id = paddleId('txn');
  e.data.customer_id = who.customerId;
  e.data.subscription_id = who.subscriptionId;
  e.data.custom_data = { ...(who.email ? { email: who.email } : {}), ...(who.userId ? { userId: who.userId } : {}) };
  e.data.billing_period = { starts_at: start.toISOString(), ends_at: new Date(start.getTime() + 30 * DAY).toISOString() };
  const priceId = opts.priceId ?? PRO_MONTHLY;
  setPrice(e.data.items[0], priceId, priceId.endsWith('_yearly') ? 'year' : 'month');
  e.data.details.line_items[0].price_id = priceId;
  return e;
}

function subscriptionEvent(
  type: 'subscription.created' | 'subscription.updated' | 'subscription.canceled' | 'subscription.past_due',
  who: Who,
  opts: { priceId?: string; interval?: 'month' | 'year'; occurredAt: Date; periodStart?: Date; periodEnd?: Date; cancelAtPeriodEnd?: boolean },
) {
  const e = fixture(type === 'subscription.canceled' ? 'subscription.canceled' : 'subscription.updated');
  e.event_id = paddleId('evt');
  e.notification_id = paddleId('ntf');
  e.event_type = type;
  e.occurred_at = opts.occurredAt.toISOString();
  e.data.id = who.subscriptionId;
  e.data.customer_id = who.customerId;
  e.data.custom_data = who.email ? { email: who.email } : null;
  if (type === 'subscription.past_due') e.data.status = 'past_due';
  setPrice(e.data.items[0], opts.priceId ?? PRO_MONTHLY, opts.interval);
  if (type !== 'subscription.canceled') {
    const start = opts.periodStart ?? new Date();
    const end = opts.periodEnd ?? new Date(start.getTime() + 30 * DAY);
    e.data.current_billing_period = { starts_at: start.toISOString(), ends_at: end.toISOString() };
    e.data.scheduled_change = opts.cancelAtPeriodEnd ? { action: 'cancel', effective_at: end.toISOString(), resume_at: null } : null;
  }
  return e;
}

// --- database helpers ---------------------------------------------------------------------------

let userSeq = 0;
async function newUser() {
  userSeq += 1;
  const user = await t.app.deps.prisma.user.create({
    data: {
      email: `payer${userSeq}@example.com`,
      password: 'x',
      firstName: 'Pay',
      lastName: `Er${userSeq}`,
      crmType: 'hubspot',
      industry: 'telecom',
      currentTier: { connect: { name: 'free' } },
    },
  });
  const who: Who = { email: user.email, customerId: paddleId('ctm'), subscriptionId: paddleId('sub') };
  return { user, who };
}

const tierOf = async (userId: string) =>
  (await t.app.deps.prisma.user.findUniqueOrThrow({ where: { id: userId }, include: { currentTier: true } })).currentTier?.name;
const eventRow = (eventId: string) => t.app.deps.prisma.paddleTransaction.findUnique({ where: { paddleEventId: eventId } });
const subscription = (subscriptionId: string) =>
  t.app.deps.prisma.userSubscription.findUnique({ where: { paddleSubscriptionId: subscriptionId }, include: { pricingTier: true } });

// -------------------------------------------------------------------------------------------------

describe('Paddle webhook: a signed transaction.completed', () => {
  it('upgrades the user, records the event and shows the pro limits in GET /api/usage/current', async () => {
    const c = new Client(t.url);
    const email = 'upgrade-me@example.com';
    const registered = await c.post('/api/auth/register', {
      firstName: 'Up', lastName: 'Grade', email, crmType: 'hubspot', industry: 'it_software',
      password: 'correct horse battery', confirmPassword: 'correct horse battery',
    });
    expect(registered.status).toBe(201);
    expect((await c.get('/api/usage/current')).json).toMatchObject({ chatQueryLimit: 10, smartSegmentLimit: 3, tierName: 'Free Plan' });
    const user = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { email } });
    const who: Who = { email: 'Upgrade-Me@Example.com', customerId: paddleId('ctm'), subscriptionId: paddleId('sub') };

    // The usageUpdated subscription hears about the tier change.
    const iterator = t.app.deps.events.pubsub.subscribe('usageUpdated', user.id)[Symbol.asyncIterator]();
    const pushed = iterator.next();

    const event = transactionCompleted(who);
    const body = JSON.stringify(event);
    const r = await deliver(body);
    expect(r).toEqual({ status: 200, json: { received: true, applied: true } });

    expect((await c.get('/api/usage/current')).json).toEqual({
      chatQueriesUsed: 0, chatQueryLimit: 100, smartSegmentsUsed: 0, smartSegmentLimit: 25, tierName: 'Pro Plan',
    });
    const update = await Promise.race([pushed, new Promise((_, reject) => setTimeout(() => reject(new Error('no usageUpdated')), 2000))]);
    expect((update as IteratorResult<any>).value).toMatchObject({ chatQueryLimit: 100, tierName: 'Pro Plan' });
    await iterator.return?.();

    const after = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.paddleCustomerId).toBe(who.customerId);
    const row = await eventRow(event.event_id);
    expect(row).toMatchObject({
      userId: user.id,
      eventType: 'transaction.completed',
      paddleTransactionId: event.data.id,
      paddleSubscriptionId: who.subscriptionId,
      paddleCustomerId: who.customerId,
      status: 'completed',
      currency: 'USD',
      priceId: PRO_MONTHLY,
      productName: 'CRM Assistant Pro',
      billingPeriod: 'month',
    });
    expect(row!.amount!.toFixed(2)).toBe('49.00');
    expect(row!.webhookData).toEqual(event);
    expect(Math.abs(row!.processedAt!.getTime() - Date.now())).toBeLessThan(10_000);
    const sub = await subscription(who.subscriptionId);
    expect(sub).toMatchObject({ userId: user.id, status: 'active', cancelAtPeriodEnd: false });
    expect(sub!.pricingTier!.name).toBe('pro');
    expect(sub!.currentPeriodEnd!.toISOString()).toBe(event.data.billing_period.ends_at);
    expect(sub!.lastEventAt!.toISOString()).toBe(event.occurred_at);
  });

  it('matches by custom_data.userId and later by the remembered customer id alone', async () => {
    const { user, who } = await newUser();
    const first = transactionCompleted({ ...who, email: undefined, userId: user.id }, { priceId: PRO_YEARLY });
    expect((await deliver(JSON.stringify(first))).json).toEqual({ received: true, applied: true });
    expect(await tierOf(user.id)).toBe('pro');
    expect((await eventRow(first.event_id))!.billingPeriod).toBe('year');

    // Upgrade to enterprise: no custom data at all, only the customer id Paddle knows.
    const second = transactionCompleted({ customerId: who.customerId, subscriptionId: paddleId('sub') }, { priceId: ENTERPRISE_MONTHLY });
    expect((await deliver(JSON.stringify(second))).json).toEqual({ received: true, applied: true });
    expect(await tierOf(user.id)).toBe('enterprise');
    expect((await eventRow(second.event_id))!.userId).toBe(user.id);
  });
});

describe('Paddle webhook: signature checks (401, nothing stored)', () => {
  async function expectRejected(body: string, signature: string | null, eventId: string, userId: string, message: RegExp) {
    const r = await deliver(body, signature);
    expect(r.status).toBe(401);
    expect(r.json.error).toBe('Invalid signature');
    expect(r.json.message).toMatch(message);
    expect(await eventRow(eventId)).toBeNull();
    expect(await tierOf(userId)).toBe('free');
    expect(JSON.stringify(r.json)).not.toContain(SECRET);
  }

  it('rejects a signature made with the wrong secret', async () => {
    const { user, who } = await newUser();
    const event = transactionCompleted(who);
    const body = JSON.stringify(event);
    await expectRejected(body, sign(body, { secret: 'pdl_ntfset_not_the_secret' }), event.event_id, user.id, /verification failed/);
  });

  it('rejects a tampered body (signed, then the price changed)', async () => {
    const { user, who } = await newUser();
    const event = transactionCompleted(who);
    const signature = sign(JSON.stringify(event));
    const tampered = JSON.stringify(event).replaceAll(PRO_MONTHLY, ENTERPRISE_MONTHLY);
    await expectRejected(tampered, signature, event.event_id, user.id, /verification failed/);
    // Re-serialising the same JSON differently also breaks the signature: the raw text is signed.
    await expectRejected(JSON.stringify(event, null, 2), signature, event.event_id, user.id, /verification failed/);
  });

  it('rejects stale and future timestamps', async () => {
    const { user, who } = await newUser();
    const event = transactionCompleted(who);
    const body = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    await expectRejected(body, sign(body, { ts: now - 600 }), event.event_id, user.id, /outside the allowed window/);
    await expectRejected(body, sign(body, { ts: now - 30 }), event.event_id, user.id, /outside the allowed window/);
    await expectRejected(body, sign(body, { ts: now + 600 }), event.event_id, user.id, /outside the allowed window/);
    // The same body freshly signed is accepted.
    expect((await deliver(body)).status).toBe(200);
  });

  it('rejects a missing or malformed Paddle-Signature header', async () => {
    const { user, who } = await newUser();
    const event = transactionCompleted(who);
    const body = JSON.stringify(event);
    await expectRejected(body, null, event.event_id, user.id, /Missing Paddle-Signature/);
    await expectRejected(body, 'garbage', event.event_id, user.id, /Malformed/);
    await expectRejected(body, sign(body).replace(/;h1=.*/, ''), event.event_id, user.id, /Malformed/);
  });

  it('answers 400 and stores nothing for a signed body that is not a Paddle event', async () => {
    const body = JSON.stringify({ event_id: 'evt_01notanevent', hello: 'world' });
    const r = await deliver(body);
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('Invalid webhook payload');
    expect(await eventRow('evt_01notanevent')).toBeNull();
  });
});

describe('Paddle webhook: idempotency and unknown prices', () => {
  it('ignores a replayed event: no second row, no change', async () => {
    const { user, who } = await newUser();
    const event = transactionCompleted(who);
    const body = JSON.stringify(event);
    expect((await deliver(body)).json).toEqual({ received: true, applied: true });
    expect(await tierOf(user.id)).toBe('pro');
    // Put the user back by hand: a replay that re-applied the event would upgrade them again.
    await t.app.deps.prisma.user.update({ where: { id: user.id }, data: { currentTier: { connect: { name: 'free' } } } });
    const replays = await Promise.all([deliver(body), deliver(body)]); // Paddle re-signs every attempt
    for (const r of replays) expect(r).toEqual({ status: 200, json: { received: true, duplicate: true } });
    expect(await t.app.deps.prisma.paddleTransaction.count({ where: { paddleEventId: event.event_id } })).toBe(1);
    expect(await tierOf(user.id)).toBe('free');
  });

  it('records an unknown price id without changing the tier, and answers 200', async () => {
    const { user, who } = await newUser();
    const event = transactionCompleted(who, { priceId: 'pri_01unknownpricexyz' });
    const r = await deliver(JSON.stringify(event));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ received: true, applied: false });
    expect(r.json.reason).toMatch(/Unknown price id pri_01unknownpricexyz/);
    expect(await tierOf(user.id)).toBe('free');
    expect(await eventRow(event.event_id)).toMatchObject({ userId: user.id, priceId: 'pri_01unknownpricexyz', eventType: 'transaction.completed' });
    expect(await subscription(who.subscriptionId)).toBeNull();
  });

  it('records an event for an unknown customer with no user', async () => {
    const event = transactionCompleted({ email: 'nobody@example.com', customerId: paddleId('ctm'), subscriptionId: paddleId('sub') });
    const r = await deliver(JSON.stringify(event));
    expect(r.json).toMatchObject({ received: true, applied: false, reason: expect.stringMatching(/No user matches/) });
    expect((await eventRow(event.event_id))!.userId).toBeNull();
  });
});

describe('Paddle webhook: subscriptions', () => {
  it('keeps the newer state when an older subscription.updated arrives after a newer one', async () => {
    const { user, who } = await newUser();
    const t1 = new Date(Date.now() - 60_000);
    const t2 = new Date(Date.now() - 30_000);
    const newer = subscriptionEvent('subscription.updated', who, { priceId: ENTERPRISE_MONTHLY, occurredAt: t2 });
    const older = subscriptionEvent('subscription.updated', who, { priceId: PRO_MONTHLY, occurredAt: t1 });
    expect((await deliver(JSON.stringify(newer))).json).toEqual({ received: true, applied: true });
    const late = await deliver(JSON.stringify(older));
    expect(late.status).toBe(200);
    expect(late.json).toMatchObject({ received: true, applied: false, reason: expect.stringMatching(/Out-of-order/) });
    expect(await tierOf(user.id)).toBe('enterprise');
    const sub = await subscription(who.subscriptionId);
    expect(sub!.pricingTier!.name).toBe('enterprise');
    expect(sub!.lastEventAt!.toISOString()).toBe(t2.toISOString());
    expect(await eventRow(older.event_id)).toMatchObject({ userId: user.id, eventType: 'subscription.updated' });
  });

  it('keeps the tier when cancelled at period end, until expireEndedSubscriptions runs after the end', async () => {
    const { user, who } = await newUser();
    const start = new Date(Date.now() - 20 * DAY);
    const end = new Date(start.getTime() + 30 * DAY);
    await deliver(JSON.stringify(transactionCompleted(who, { periodStart: start, occurredAt: new Date(Date.now() - 60_000) })));
    expect(await tierOf(user.id)).toBe('pro');

    const cancel = subscriptionEvent('subscription.updated', who, { occurredAt: new Date(), periodStart: start, periodEnd: end, cancelAtPeriodEnd: true });
    expect((await deliver(JSON.stringify(cancel))).json).toEqual({ received: true, applied: true });
    expect(await tierOf(user.id)).toBe('pro');
    expect(await subscription(who.subscriptionId)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, currentPeriodEnd: end });

    const before = await expireEndedSubscriptions({ ...t.app.deps, now: () => new Date(end.getTime() - 1000) });
    expect(before.downgradedUserIds).not.toContain(user.id);
    expect(await tierOf(user.id)).toBe('pro');

    const after = await expireEndedSubscriptions({ ...t.app.deps, now: () => new Date(end.getTime() + 1000) });
    expect(after.downgradedUserIds).toContain(user.id);
    expect(after.expired).toBeGreaterThanOrEqual(1);
    expect(await tierOf(user.id)).toBe('free');
    expect((await subscription(who.subscriptionId))!.status).toBe('canceled');
    // Idempotent: nothing left to expire.
    expect(await expireEndedSubscriptions({ ...t.app.deps, now: () => new Date(end.getTime() + 2000) })).toEqual({ expired: 0, downgradedUserIds: [] });
  });

  it('does not count a subscription cancelled at period end once its period is over', async () => {
    // Downgrade: enterprise is cancelled at period end, then a pro subscription is bought.
    const { user, who } = await newUser();
    const pro: Who = { ...who, subscriptionId: paddleId('sub') };
    const start = new Date(Date.now() - 25 * DAY);
    const end = new Date(start.getTime() + 30 * DAY);
    const enterprise = { priceId: ENTERPRISE_MONTHLY, periodStart: start, periodEnd: end };
    await deliver(JSON.stringify(subscriptionEvent('subscription.created', who, { ...enterprise, occurredAt: new Date(Date.now() - 120_000) })));
    await deliver(JSON.stringify(subscriptionEvent('subscription.updated', who, { ...enterprise, cancelAtPeriodEnd: true, occurredAt: new Date(Date.now() - 60_000) })));
    await deliver(JSON.stringify(subscriptionEvent('subscription.created', pro, { occurredAt: new Date(Date.now() - 30_000) })));
    expect(await tierOf(user.id)).toBe('enterprise'); // still inside the enterprise period
    clockOffsetMs = end.getTime() + 60_000 - Date.now(); // the enterprise period is over
    try {
      const r = await deliver(JSON.stringify(subscriptionEvent('subscription.updated', pro, { occurredAt: new Date() })));
      expect(r.json).toEqual({ received: true, applied: true });
      expect(await tierOf(user.id)).toBe('pro');
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('drops the user to free at once on subscription.canceled', async () => {
    const { user, who } = await newUser();
    const created = subscriptionEvent('subscription.created', who, { occurredAt: new Date(Date.now() - 60_000) });
    expect((await deliver(JSON.stringify(created))).json).toEqual({ received: true, applied: true });
    expect(await tierOf(user.id)).toBe('pro');
    const canceled = subscriptionEvent('subscription.canceled', who, { occurredAt: new Date() });
    expect((await deliver(JSON.stringify(canceled))).json).toEqual({ received: true, applied: true });
    expect(await tierOf(user.id)).toBe('free');
    expect(await subscription(who.subscriptionId)).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: false });
  });

  it('keeps the tier while the subscription is past due', async () => {
    const { user, who } = await newUser();
    await deliver(JSON.stringify(subscriptionEvent('subscription.created', who, { occurredAt: new Date(Date.now() - 60_000) })));
    const pastDue = subscriptionEvent('subscription.past_due', who, { occurredAt: new Date() });
    expect((await deliver(JSON.stringify(pastDue))).json).toEqual({ received: true, applied: true });
    expect(await tierOf(user.id)).toBe('pro');
    expect((await subscription(who.subscriptionId))!.status).toBe('past_due');
  });
});

describe('checkout configuration', () => {
  it('GET /api/paddle/config gives a free user the pro monthly price, and refuses anonymous callers', async () => {
    const anonymous = await new Client(t.url).get('/api/paddle/config');
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ error: 'Unauthorized', message: 'You must be signed in' });

    const demo = new Client(t.url);
    await demo.login(DEMO);
    const r = await demo.get('/api/paddle/config');
    expect(r).toMatchObject({ status: 200, json: { environment: 'sandbox', clientToken: 'test_sandbox_client_token', priceId: PRO_MONTHLY } });

    const admin = new Client(t.url); // seeded on the pro tier
    await admin.login(ADMIN);
    expect((await admin.get('/api/paddle/config')).json.priceId).toBe(ENTERPRISE_MONTHLY);
  });

  it('gives priceId null when there is no higher tier', async () => {
    const c = new Client(t.url);
    const email = 'top-tier@example.com';
    await c.post('/api/auth/register', {
      firstName: 'Top', lastName: 'Tier', email, crmType: 'hubspot', industry: 'it_software',
      password: 'correct horse battery', confirmPassword: 'correct horse battery',
    });
    await t.app.deps.prisma.user.update({ where: { email }, data: { currentTier: { connect: { name: 'enterprise' } } } });
    expect((await c.get('/api/paddle/config')).json).toEqual({ environment: 'sandbox', clientToken: 'test_sandbox_client_token', priceId: null });
  });

  it('GraphQL paddleConfig', async () => {
    const query = '{ paddleConfig { environment clientToken priceId } }';
    const anonymous = await new Client(t.url).gql(query);
    expect(anonymous.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const demo = new Client(t.url);
    await demo.login(DEMO);
    expect(await demo.gql(query)).toEqual({
      data: { paddleConfig: { environment: 'sandbox', clientToken: 'test_sandbox_client_token', priceId: PRO_MONTHLY } },
    });
  });
});

describe('amount units', () => {
  it('converts Paddle minor-unit strings to major units per currency', () => {
    expect(minorToMajor('4900', 'USD')).toBe('49.00');
    expect(minorToMajor('65215', 'EUR')).toBe('652.15');
    expect(minorToMajor('4900', 'JPY')).toBe('4900.00');
    expect(minorToMajor('12.5', 'USD')).toBeNull();
    expect(minorToMajor(null, 'USD')).toBeNull();
  });
});
