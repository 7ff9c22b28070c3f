/**
 * Daily Smart Segment generation throughput: 200 users × the 12 seeded presets against the embedded
 * sandbox (npx tsx tests/bench/generation.ts [users] [seconds]). Needs the test PostgreSQL.
 *
 * All users are connected to the sandbox's one demo portal, so, as on HubSpot, they share its limit of
 * 5 search requests per second: generation cannot go faster than that, and the figure to read is how
 * close it gets (search requests/s ÷ 5). For scale, the sandbox's own search throughput (the same
 * searches executed in-process without HTTP or throttling) is measured in the same run. The run stops
 * taking new users after the time budget and extrapolates the full run.
 */
import { performance } from 'node:perf_hooks';
import { PROVIDER } from '../../api/services/crm.js';
import { encryptSecret } from '../../api/crypto.js';
import { DEFAULT_SANDBOX_CREDENTIALS, executeSearch } from '../../api/crm/hubspot-sandbox/index.js';
import { compileToHubSpot } from '../../api/segmentation/index.js';
import { parseQuestion } from '../../api/services/nl-parser.js';
import { generateDailySegments } from '../../api/services/smart-segments/generate.js';
import { startTestApp } from '../helpers/test-app.js';

const USERS = Number(process.argv[2] ?? 200);
const SECONDS = Number(process.argv[3] ?? 60);
const CRM_LIMIT = 5;

const t = await startTestApp({ SANDBOX_CONTACTS: '5000' });
try {
  const { prisma, config } = t.app.deps;
  const free = await prisma.pricingTier.findUniqueOrThrow({ where: { name: 'free' } });
  const token = encryptSecret(DEFAULT_SANDBOX_CREDENTIALS.privateAppToken, config.tokenEncryptionKey);
  for (let i = 0; i < USERS; i++) {
    await prisma.user.create({
      data: {
        email: `bench${i}@example.com`, password: 'x', firstName: 'B', lastName: String(i), crmType: 'hubspot', industry: 'telecom',
        currentTierId: free.id,
        integrations: { create: { provider: PROVIDER, tokenType: 'pat', accessTokenCiphertext: token, scopes: [], accountId: String(DEFAULT_SANDBOX_CREDENTIALS.hubId) } },
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

  const requestsBefore = t.app.sandbox!.stats.searchRequests;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), SECONDS * 1000);
  const started = performance.now();
  const stats = await generateDailySegments(t.app.deps, { concurrency: 4, signal: abort.signal });
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  const requests = t.app.sandbox!.stats.searchRequests - requestsBefore;
  const segPerSecond = stats.totalSegments / seconds;
  const reqPerSecond = requests / seconds;
  console.log(`\nDaily generation: ${USERS} users × ${presets.length} presets, 5,000 contacts, one shared portal`);
  console.log(`  ran ${seconds.toFixed(1)} s: ${stats.completedUsers}/${USERS} users, ${stats.totalSegments} segments (${stats.failedCount} failed), ${requests} search requests, ${t.app.sandbox!.stats.rateLimited} answered 429`);
  console.log(`  throughput ${segPerSecond.toFixed(2)} segments/s, ${reqPerSecond.toFixed(2)} search requests/s = ${((100 * reqPerSecond) / CRM_LIMIT).toFixed(0)}% of the CRM limit (${CRM_LIMIT}/s per portal)`);
  console.log(`  sandbox's own search throughput ${ownPerSecond.toFixed(0)} searches/s -> generation uses ${((100 * reqPerSecond) / ownPerSecond).toFixed(2)}% of it`);
  console.log(`  full run (${USERS * presets.length} segments) at this rate: ${((USERS * presets.length) / segPerSecond / 60).toFixed(1)} min`);
} finally {
  await t.close();
}
