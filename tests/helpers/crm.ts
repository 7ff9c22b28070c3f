// Test helpers around the embedded HubSpot sandbox: connected users and expected segment members.
import { expect } from 'vitest';
import type { App } from '../../api/app.js';
import { DEFAULT_SANDBOX_CREDENTIALS, renderContact } from '../../api/crm/hubspot-sandbox/index.js';
import { SEGMENT_PROPERTIES } from '../../api/crm/hubspot/model/index.js';
import { compileEvaluator, parseSegment, type Segment } from '../../api/segmentation/index.js';
import { Client } from './test-app.js';

export async function registerUser(url: string, opts: { crmType?: string } = {}) {
  const c = new Client(url);
  const email = `u${Math.random().toString(36).slice(2)}@example.com`;
  const r = await c.post('/api/auth/register', {
    firstName: 'Test', lastName: 'User', email, crmType: opts.crmType ?? 'hubspot', industry: 'telecom',
    password: 'pw-123456', confirmPassword: 'pw-123456',
  });
  expect(r.status).toBe(201);
  return { c, userId: r.json.user.id as string, email };
}

export async function connectedUser(app: App, url: string, tier = 'free') {
  const u = await registerUser(url);
  if (tier !== 'free') {
    const tierRow = await app.deps.prisma.pricingTier.findUniqueOrThrow({ where: { name: tier } });
    await app.deps.prisma.user.update({ where: { id: u.userId }, data: { currentTierId: tierRow.id } });
  }
  expect((await u.c.post('/api/crm/token', { token: DEFAULT_SANDBOX_CREDENTIALS.privateAppToken })).status).toBe(200);
  return u;
}

/** Ids of the sandbox contacts a question selects, evaluated in memory (the reference answer). */
export async function expectedIds(app: App, question: string): Promise<string[]> {
  const opts = { now: app.deps.now(), timeZone: app.deps.config.usageTimeZone };
  const { segment } = await parseSegment(question, opts);
  return expectedSegmentIds(app, segment);
}

/** Ids of the sandbox contacts a segment selects, evaluated in memory. */
export function expectedSegmentIds(app: App, segment: Segment): string[] {
  const opts = { now: app.deps.now(), timeZone: app.deps.config.usageTimeZone };
  const matches = compileEvaluator(segment, opts);
  const store = app.sandbox!.store;
  const ids: string[] = [];
  for (let row = 0; row < store.size; row++) {
    const contact = renderContact(store, row, SEGMENT_PROPERTIES);
    if (matches(contact)) ids.push(contact.id);
  }
  return ids;
}
