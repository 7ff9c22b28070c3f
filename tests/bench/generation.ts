/**
 * Daily Smart Segment generation throughput: 200 users × the 12 seeded presets against the embedded
 * sandbox (npm run bench -- generation [--users 200] [--seconds 60]). Needs the test PostgreSQL.
 *
 * All users are connected to the sandbox's one demo portal, so, as on HubSpot, they share its limit of
 * 5 search requests per second: generation cannot go faster than that, and the figure to read is how
 * close it gets (search requests/s ÷ 5). For scale, the sandbox's own search throughput (the same
 * searches executed in-process without HTTP or throttling) is measured in the same run. The run is the
 * product's: one job per user on the app's jobs worker (two users at a time); after the time budget
 * the jobs not started are cancelled, and the full run is extrapolated. Rounds are consecutive
 * windows of the one run (--window seconds). Target: 80–100% of the limit, and no 429 from the CRM.
 */
import { performance } from 'node:perf_hooks';
import { hubspotProvider } from '../../api/crm/hubspot/provider.js';
import { encryptSecret } from '../../api/crypto.js';
import { DEFAULT_SANDBOX_CREDENTIALS, executeSearch } from '../../api/crm/hubspot-sandbox/index.js';
import { compileToHubSpot } from '../../api/segmentation/index.js';
import { parseQuestion } from '../../api/services/nl-parser.js';
import { GENERATE_USER_SEGMENTS_JOB, queueDailyGeneration } from '../../api/services/smart-segments/generate.js';
import { readGenerationRun } from '../../api/services/smart-segments/generation-runs.js';
import { startTestApp } from '../helpers/test-app.js';
import type { Bench, BenchContext, FigureInput } from './harness.js';

const CRM_LIMIT = 5;

async function run(ctx: BenchContext): Promise<FigureInput[]> {
  const USERS = ctx.num('users', 200, 10);
  const SECONDS = ctx.num('seconds', 60, 6);
  const WINDOW = ctx.num('window', 10, 3);
  const t = await startTestApp({ SANDBOX_CONTACTS: '5000' });
    if (!t.app.deps.jobs) throw new Error('the app runs no jobs worker');
  try {
    const { prisma, config } = t.app.deps;
    const free = await prisma.pricingTier.findUniqueOrThrow({ where: { name: 'free' } });
    const token = encryptSecret(DEFAULT_SANDBOX_CREDENTIALS.privateAppToken, config.tokenEncryptionKey);
    for (let i = 0; i < USERS; i++) {
      await prisma.user.create({
        data: {
          email: `bench${i}@example.com`, password: 'x', firstName: 'B', lastName: String(i), crmType: 'hubspot', industry: 'telecom',
          currentTierId: free.id,
          integrations: { create: { provider: hubspotProvider.crmType, tokenType: 'pat', accessTokenCiphertext: token, scopes: [], accountId: String(DEFAULT_SANDBOX_CREDENTIALS.hubId) } },
        },
      });
    }
    const presets = await prisma.smartSegmentPreset.findMany({ where: { isActive: true } });

    // The sandbox's own throughput on the same searches (no HTTP, no throttle).
    const searches = [];
    for (const p of presets) {
      const { segment } = await parseQuestion(t.app.deps, p.description);
      searches.push(...compileToHubSpot(segment, { now: new Date(), timeZone: 'UTC' }).searches);
    }
    let own = 0;
    const ownStart = performance.now();
    while (performance.now() - ownStart < 2000) {
      for (const s of searches) {
        executeSearch(t.app.sandbox!.store, { ...s, limit: 200 });
        own++;
      }
    }
    const ownPerSecond = own / ((performance.now() - ownStart) / 1000);

    const sandbox = t.app.sandbox!;
    const requestsBefore = sandbox.stats.searchRequests;
    const limitedBefore = sandbox.stats.rateLimited;
    // The run goes through the product's one engine: one job per user on the worker inside the app's
    // process (two users at a time, as every worker). After the time budget the jobs not started
    // are cancelled and the users in progress finish.
    const jobsSql = t.app.database.bulk;
    const cancelNotStarted = () => jobsSql.query(`DELETE FROM agenda_jobs WHERE name = $1 AND locked_at IS NULL AND last_finished_at IS NULL`, [GENERATE_USER_SEGMENTS_JOB]);
    const unfinished = () =>
      jobsSql.query<{ n: number }>(`SELECT count(*)::int AS n FROM agenda_jobs WHERE name = $1 AND last_finished_at IS NULL`, [GENERATE_USER_SEGMENTS_JOB]).then((r) => r.rows[0].n);
    let cancelled = false;
    const timer = setTimeout(() => {
      cancelled = true;
      void cancelNotStarted();
    }, SECONDS * 1000);
    // Per-window rates: the run's own rhythm (users start and finish) shows as the spread.
    const reqRate: number[] = [];
    let lastRequests = requestsBefore;
    let lastAt = performance.now();
    const sampler = setInterval(() => {
      const now = performance.now();
      reqRate.push((sandbox.stats.searchRequests - lastRequests) / ((now - lastAt) / 1000));
      lastRequests = sandbox.stats.searchRequests;
      lastAt = now;
    }, WINDOW * 1000);
    const started = performance.now();
    const { runId } = await queueDailyGeneration(t.app.deps, t.app.deps.jobs!);
    while (!(await readGenerationRun(t.app.deps, runId))!.done && !(cancelled && (await unfinished()) === 0)) await new Promise((r) => setTimeout(r, 500));
    const stats = (await readGenerationRun(t.app.deps, runId))!;
    clearTimeout(timer);
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    const requests = sandbox.stats.searchRequests - requestsBefore;
    const limited = sandbox.stats.rateLimited - limitedBefore;
    const segPerSecond = stats.totalSegments / seconds;
    const reqPerSecond = requests / seconds;
    ctx.log(`ran ${seconds.toFixed(1)} s: ${stats.completedUsers}/${USERS} users, ${stats.totalSegments} segments (${stats.failedCount} failed), ${requests} search requests, ${limited} answered 429`);
    ctx.log(`throughput ${segPerSecond.toFixed(2)} segments/s, ${reqPerSecond.toFixed(2)} search requests/s = ${((100 * reqPerSecond) / CRM_LIMIT).toFixed(0)}% of the CRM limit; sandbox's own ${ownPerSecond.toFixed(0)} searches/s`);
    ctx.log(`full run (${USERS * presets.length} segments) at this rate: ${((USERS * presets.length) / segPerSecond / 60).toFixed(1)} min`);
    const note = `${USERS} users × ${presets.length} presets, 5,000 contacts, one shared portal; ${WINDOW} s windows of a ${seconds.toFixed(0)} s run; ${segPerSecond.toFixed(2)} segments/s`;
    return [
      { id: 'search-rps', label: 'CRM search requests/s', unit: 'req/s', rounds: reqRate, baseline: { label: 'HubSpot limit per portal', rounds: [CRM_LIMIT] }, target: { of: 'ratio', min: 0.8, max: 1 }, note },
      { id: 'segments-per-s', label: 'segments/s', unit: 'seg/s', rounds: [segPerSecond] },
      { id: 'crm-429', label: 'CRM answers 429', unit: 'count', rounds: [limited], target: { of: 'value', min: 0, max: 0 }, note: 'the sandbox answered 429 (the connector retries them)' },
      { id: 'failed', label: 'failed segments', unit: 'count', rounds: [stats.failedCount], target: { of: 'value', min: 0, max: 0 } },
    ];
  } finally {
    await t.close();
  }
}

export const bench: Bench = { name: 'generation', title: 'daily Smart Segment generation', run };
