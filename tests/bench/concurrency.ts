/**
 * Concurrency on the embedded default (PGlite, in-process HubSpot sandbox, worker in-process).
 *   npm run bench -- concurrency [--users 200] [--duration 60] [--think 6]
 *
 * Simulated people arrive over the first 10 s and sign in (a fifth of them earlier, to hold a
 * websocket subscription to their usage), then loop for --duration seconds: think for a
 * random 0.5–1.5 × --think seconds, then do one of: read the history (REST), read usage (GraphQL),
 * list today's Smart Segments, ask a question (REST POST /api/queries or GraphQL runQuery, half each,
 * every question a new text so each accepted one is a new history row), unlock a Smart Segment, or
 * sign in again. One in ten is on the
 * free tier (10 questions, 3 unlocks a day): its 429s are counted as refused, not as errors; the
 * others are on enterprise. Users share the sandbox's one portal, so questions are bound by HubSpot's
 * 5 searches/s, as on a shared demo account — question latency is mostly that queue.
 *
 * Checked afterwards in the database: every accepted question is stored for its user (each user asks
 * fewer than the 50 the history keeps), usage counters equal the charged questions and the unlocked
 * segments, and each subscriber's last usage event equals its final usage. Targets: zero 5xx, zero
 * lost writes, zero counter mismatches; p95 per action reported. Baseline in the same run: the p95
 * of GET /api/auth/status by one user alone before the load starts (the cheapest signed-in request).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../api/app.js';
import { loadConfig } from '../../api/config.js';
import { encryptSecret } from '../../api/crypto.js';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../api/crm/hubspot-sandbox/index.js';
import { createLogger } from '../../api/logger.js';
import { hubspotProvider } from '../../api/crm/hubspot/provider.js';
import { hashPassword } from '../../api/services/passwords.js';
import { dayToDate, usageDay } from '../../api/services/usage.js';
import { Client } from '../helpers/test-app.js';
import { collect, wsClient } from '../helpers/ws-client.js';
import type { Bench, BenchContext, FigureInput } from './harness.js';
import { percentile } from './stats.js';

const PASSWORD = 'bench-password-1';
const SEGMENTS_PER_USER = 4; // generated for today, to be unlocked
const MAX_QUESTIONS = 40; // per user: under the history's 50, so "every accepted one is stored" is checkable
const ACTIONS = ['history', 'usage', 'daily', 'question', 'unlock', 'signin'] as const;
type Action = (typeof ACTIONS)[number];
const WEIGHTS: Record<Action, number> = { history: 30, usage: 27, daily: 15, question: 15, unlock: 10, signin: 3 };
const QUESTIONS = ['customers with lifetime value over $%', 'leads in Canada created in the last % days', 'customers who bought in the last % days', 'opportunities with last purchase over $%'];

/** Deterministic PRNG (mulberry32): the same run picks the same actions. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Sample {
  action: Action;
  ms: number;
  at: number;
  outcome: 'ok' | 'refused' | 'error' | '5xx' | 'network';
}

interface SimUser {
  id: string;
  email: string;
  free: boolean;
  client: Client;
  segments: string[];
  asked: number;
  /** texts of questions answered 200 (stored), and of those charged (no CRM error) */
  accepted: string[];
  charged: number;
  subscription?: ReturnType<typeof collect<{ usageUpdated: { chatQueriesUsed: number; smartSegmentsUsed: number } }>>;
}

const RUN_QUERY = 'mutation($q: String!) { runQuery(input: { naturalLanguage: $q }) { hasError outcome query { naturalLanguage } } }';

async function act(u: SimUser, action: Action, pick: () => number): Promise<Sample['outcome']> {
  const c = u.client;
  const status = (s: number) => (s >= 500 ? '5xx' : s === 429 ? 'refused' : s >= 400 ? 'error' : 'ok');
  switch (action) {
    case 'history':
      return status((await c.get('/api/queries')).status);
    case 'daily':
      return status((await c.get('/api/smart-segments/daily')).status);
    case 'usage': {
      const r = await c.post('/graphql', { query: '{ usage { chatQueriesUsed smartSegmentsUsed } }' });
      return r.status >= 500 ? '5xx' : r.json?.errors ? 'error' : 'ok';
    }
    case 'signin':
      return status((await c.post('/api/auth/login', { email: u.email, password: PASSWORD })).status);
    case 'unlock': {
      const id = u.segments[Math.floor(pick() * u.segments.length)];
      return status((await c.post(`/api/smart-segments/${id}/unlock`)).status);
    }
    case 'question': {
      if (u.asked >= MAX_QUESTIONS) return status((await c.get('/api/queries')).status);
      const n = ++u.asked;
      const text = QUESTIONS[n % QUESTIONS.length].replace('%', String(100 + n));
      if (pick() < 0.5) {
        const r = await c.post('/api/queries', { naturalLanguage: text });
        if (r.status === 200) {
          u.accepted.push(text);
          if (!r.json.hasError) u.charged++;
        }
        return status(r.status);
      }
      const r = await c.post('/graphql', { query: RUN_QUERY, variables: { q: text } });
      if (r.status >= 500) return '5xx';
      const err = r.json?.errors?.[0] as { extensions?: { code?: string } } | undefined;
      if (err) return err.extensions?.code === 'QUOTA_EXCEEDED' || err.extensions?.code === 'RATE_LIMITED' ? 'refused' : 'error';
      const p = r.json.data.runQuery as { hasError: boolean; outcome: string; query: { naturalLanguage: string } | null };
      if (p.query) {
        u.accepted.push(p.query.naturalLanguage);
        if (!p.hasError) u.charged++;
      }
      return 'ok';
    }
  }
}

async function run(ctx: BenchContext): Promise<FigureInput[]> {
  const USERS = ctx.num('users', 200, 20);
  const DURATION = ctx.num('duration', 60, 8);
  const THINK = ctx.num('think', 6, 2);
  const WINDOW = ctx.num('window', 10, 4);
  const RAMP = Math.min(10, DURATION / 3);
  // the embedded app runs the worker in-process: no scheduled job may fire during the run
  process.env.GENERATION_CRON = 'off';
  process.env.MAINTENANCE_CRON = 'off';
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'crm-bench-conc-')),
    LOG_LEVEL: 'silent',
    SANDBOX_CONTACTS: '5000',
    PORT: '0',
    NODE_ENV: 'test',
    // 200 people signing in at once from one address (127.0.0.1): each attempt is counted until its
    // password is checked, so the address's sign-in budget is set to the crowd, not to one office.
    LOGIN_IP_MAX_FAILURES: '100000',
  });
  const app = buildApp(config, { logger: createLogger('silent'), onSeeded: () => {} });
  const { url } = await app.start(0);
  const subscribers: SimUser[] = [];
  try {
    const { prisma } = app.deps;
    // Users are made directly in the database (one password hash for all: registration's argon2
    // is not what this bench measures); signing in is real.
    const hash = await hashPassword(PASSWORD);
    const token = encryptSecret(DEFAULT_SANDBOX_CREDENTIALS.privateAppToken, config.tokenEncryptionKey);
    const tiers = Object.fromEntries((await prisma.pricingTier.findMany()).map((t) => [t.name, t.id]));
    const presets = await prisma.smartSegmentPreset.findMany({ where: { isActive: true }, take: SEGMENTS_PER_USER, orderBy: { sortOrder: 'asc' } });
    const date = dayToDate(usageDay(app.deps.now(), config.usageTimeZone));
    const users: SimUser[] = [];
    for (let i = 0; i < USERS; i++) {
      const free = i % 10 === 9;
      const email = `conc${i}@example.com`;
      const row = await prisma.user.create({
        data: {
          email, password: hash, firstName: 'C', lastName: String(i), crmType: 'hubspot', industry: 'telecom', currentTierId: tiers[free ? 'free' : 'enterprise'],
          integrations: { create: { provider: hubspotProvider.crmType, tokenType: 'pat', accessTokenCiphertext: token, scopes: [], accountId: String(DEFAULT_SANDBOX_CREDENTIALS.hubId) } },
          dailySegments: { create: presets.map((p, k) => ({ presetId: p.id, date, customerCount: 10 + k })) },
        },
        include: { dailySegments: { select: { id: true } } },
      });
      users.push({ id: row.id, email, free, client: new Client(url), segments: row.dailySegments.map((s) => s.id), asked: 0, accepted: [], charged: 0 });
    }
    ctx.log(`${USERS} users created (${users.filter((u) => u.free).length} on the free tier)`);
    const samples: Sample[] = [];
    const signIn = async (u: SimUser, at: number) => {
      const s = performance.now();
      const r = await u.client.post('/api/auth/login', { email: u.email, password: PASSWORD }).catch(() => null);
      samples.push({ action: 'signin', ms: performance.now() - s, at, outcome: !r ? 'network' : r.status >= 500 ? '5xx' : r.status === 200 ? 'ok' : 'error' });
      if (r?.status !== 200 && at < 0) throw new Error(`${u.email} could not sign in: ${r?.status} ${r?.text}`);
      return r?.status === 200;
    };
    await signIn(users[0], -1);
    // Baseline: one user alone, the cheapest signed-in request.
    const alone: number[] = [];
    for (let i = 0; i < 50; i++) {
      const s = performance.now();
      await users[0].client.get('/api/auth/status');
      alone.push(performance.now() - s);
    }
    alone.sort((a, b) => a - b);
    for (const u of users.filter((_u, i) => i % 5 === 0)) {
      if (u !== users[0]) await signIn(u, -1);
      const ws = wsClient(url, `crm_session=${u.client.cookies.get('crm_session')}`);
      u.subscription = collect(ws, 'subscription { usageUpdated { chatQueriesUsed smartSegmentsUsed } }');
      subscribers.push(u);
      (u as SimUser & { ws?: ReturnType<typeof wsClient> }).ws = ws;
    }
    ctx.log(`${subscribers.length} websocket subscriptions; load for ${DURATION} s (think ${THINK} s)`);

    const total = Object.values(WEIGHTS).reduce((a, b) => a + b, 0);
    const start = performance.now();
    const end = start + DURATION * 1000;
    await Promise.all(
      users.map(async (u, i) => {
        const pick = rng(1000 + i);
        // arrivals spread over a ramp (a crowd of argon2 verifications at one instant measures argon2)
        await new Promise((r) => setTimeout(r, pick() * RAMP * 1000));
        if (!u.client.cookies.size && !(await signIn(u, performance.now() - start))) return; // counted; this person gives up
        while (performance.now() < end) {
          let x = pick() * total;
          const action = ACTIONS.find((a) => (x -= WEIGHTS[a]) < 0) ?? 'history';
          const s = performance.now();
          const outcome = await act(u, action, pick).catch(() => 'network' as const);
          samples.push({ action, ms: performance.now() - s, at: performance.now() - start, outcome });
          await new Promise((r) => setTimeout(r, (0.5 + pick()) * THINK * 1000));
        }
      }),
    );
    const ran = (performance.now() - start) / 1000;
    await new Promise((r) => setTimeout(r, 1000)); // the last usage events on their way

    // What the database kept.
    const lost: string[] = [];
    let usageMismatches = 0;
    let unlockMismatches = 0;
    for (const u of users) {
      const stored = new Set((await prisma.query.findMany({ where: { userId: u.id }, select: { naturalLanguage: true } })).map((q) => q.naturalLanguage));
      for (const q of u.accepted) if (!stored.has(q)) lost.push(`${u.email}: ${q}`);
      const usage = await prisma.dailyUsage.findUnique({ where: { userId_date: { userId: u.id, date } } });
      if ((usage?.chatQueriesUsed ?? 0) !== u.charged) usageMismatches++;
      const unlocked = await prisma.dailyGeneratedSegment.count({ where: { userId: u.id, isUnlocked: true } });
      if ((usage?.smartSegmentsUsed ?? 0) !== unlocked) unlockMismatches++;
    }
    let staleSubscribers = 0;
    for (const u of subscribers) {
      const usage = await prisma.dailyUsage.findUnique({ where: { userId_date: { userId: u.id, date } } });
      const last = u.subscription!.items.at(-1)?.usageUpdated;
      const final = { chatQueriesUsed: usage?.chatQueriesUsed ?? 0, smartSegmentsUsed: usage?.smartSegmentsUsed ?? 0 };
      // a subscriber that caused no usage gets no event; otherwise the last event is the final state
      if (last ? last.chatQueriesUsed !== final.chatQueriesUsed || last.smartSegmentsUsed !== final.smartSegmentsUsed : final.chatQueriesUsed + final.smartSegmentsUsed > 0) staleSubscribers++;
    }
    for (const l of lost.slice(0, 5)) ctx.log(`LOST: ${l}`);

    const count = (o: Sample['outcome']) => samples.filter((s) => s.outcome === o).length;
    const p95Of = (xs: Sample[]) => percentile(xs.map((s) => s.ms).sort((a, b) => a - b), 95);
    // rounds: consecutive windows of the run (the first, with people arriving, included)
    const windows: Sample[][] = [];
    for (const s of samples) {
      if (s.at < 0) continue; // signed in before the load
      (windows[Math.floor(s.at / 1000 / WINDOW)] ??= []).push(s);
    }
    const windowP95 = windows.filter((w) => w && w.length >= 10).map(p95Of);
    const perAction = ACTIONS.map((a) => ({ a, xs: samples.filter((s) => s.action === a && s.outcome !== 'network') }));
    for (const { a, xs } of perAction) ctx.log(`${a.padEnd(9)} ${String(xs.length).padStart(5)} requests, p50 ${percentile(xs.map((s) => s.ms).sort((x, y) => x - y), 50).toFixed(0)} ms, p95 ${p95Of(xs).toFixed(0)} ms`);
    const refused = count('refused');
    const accepted = users.reduce((a, u) => a + u.accepted.length, 0);
    ctx.log(`${samples.length} requests in ${ran.toFixed(0)} s (${(samples.length / ran).toFixed(0)}/s): ${accepted} questions accepted, ${refused} refused (429), ${count('error')} other 4xx/GraphQL errors, ${count('5xx')} 5xx, ${count('network')} network errors`);
    const note = `${USERS} users, ${DURATION} s, think ${THINK} s, ${subscribers.length} websockets, embedded PGlite; ${(samples.length / ran).toFixed(0)} requests/s, ${accepted} questions accepted, ${refused} refused (429)`;
    const baseline = { label: 'GET /api/auth/status p95, one user alone', rounds: [percentile(alone, 95)] };
    return [
      { id: 'p95', label: 'p95 of every request, per window', unit: 'ms', rounds: windowP95, baseline, note },
      ...perAction.filter(({ xs }) => xs.length).map(({ a, xs }) => ({ id: `p95-${a}`, label: `p95 ${a}`, unit: 'ms', rounds: [p95Of(xs)], baseline })),
      { id: '5xx', label: '5xx answers and dropped connections', unit: 'count', rounds: [count('5xx') + count('network')], target: { of: 'value', min: 0, max: 0 } },
      { id: 'errors', label: 'other errors (4xx but 429, GraphQL errors)', unit: 'count', rounds: [count('error')], target: { of: 'value', min: 0, max: 0 } },
      { id: 'refused', label: 'refused by the daily quota (429)', unit: 'count', rounds: [refused] },
      { id: 'lost', label: 'accepted questions missing from history', unit: 'count', rounds: [lost.length], target: { of: 'value', min: 0, max: 0 } },
      { id: 'usage', label: 'users whose usage ≠ charged questions or unlocked segments', unit: 'count', rounds: [usageMismatches + unlockMismatches], target: { of: 'value', min: 0, max: 0 } },
      { id: 'subscribers', label: 'subscribers whose last event ≠ final usage', unit: 'count', rounds: [staleSubscribers], target: { of: 'value', min: 0, max: 0 } },
    ];
  } finally {
    for (const u of subscribers) {
      u.subscription?.dispose();
      await (u as SimUser & { ws?: ReturnType<typeof wsClient> }).ws?.dispose();
    }
    await app.stop();
  }
}

export const bench: Bench = { name: 'concurrency', title: 'concurrent users on the embedded default', run };
