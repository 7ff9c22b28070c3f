/**
 * End-to-end POST /api/queries latency against the embedded HubSpot sandbox at 5,000 and 200,000
 * contacts (npx tsx tests/bench/query-e2e.ts [contacts...]). Needs the test PostgreSQL (TEST_PG_URL).
 *
 * For each question: the HTTP round trip of POST /api/queries (parse, compile, CRM search through the
 * connector — including HubSpot's 5 requests/s per-account throttle — and storing results), then the
 * CRM part alone (the same compiled segment fetched through the connector), so the share spent in the
 * CRM can be read. The sandbox's result cache is cleared before each of the two runs. Baseline in the same run: GET /api/usage/current (an authenticated request with one
 * database read).
 */
import { performance } from 'node:perf_hooks';
import { compileToHubSpot } from '../../api/segmentation/index.js';
import { connectorForUser } from '../../api/services/crm.js';
import { parseQuestion } from '../../api/services/nl-parser.js';
import { MAX_STORED_RESULTS } from '../../api/services/queries.js';
import { fetchSegment } from '../../api/services/segment-runner.js';
import { connectedUser } from '../helpers/crm.js';
import { startTestApp } from '../helpers/test-app.js';
import { ms, summarize } from './stats.js';

const QUESTIONS = [
  'customers in Europe who bought in the last 30 days with lifetime value over $5k',
  'leads in Canada',
  'top 10 customers by lifetime value',
  'subscribers who never purchased',
  'opportunities in North America with last purchase over $2,000',
  'customers in Germany or France',
  'paying customers who haven\'t bought in 6 months',
  'people at acme.com',
  'leads created this quarter',
  'customers in California with lifetime value between $1,000 and $10,000',
  'biggest spenders in Asia-Pacific',
  'contacts with no email',
  'customers not in Europe who bought last year',
  'leads or subscribers in the UK',
  'customers with lifetime value over 50000',
];

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
for (const contacts of sizes.length ? sizes : [5000, 200_000]) {
  const t = await startTestApp({ SANDBOX_CONTACTS: String(contacts) });
  try {
    const { c, userId } = await connectedUser(t.app, t.url, 'enterprise');
    const user = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    const baseline: number[] = [];
    for (let i = 0; i < 30; i++) {
      const s = performance.now();
      await c.get('/api/usage/current');
      baseline.push(performance.now() - s);
    }
    const e2e: number[] = [];
    const crm: number[] = [];
    for (const round of [0, 1]) {
      for (const q of QUESTIONS) {
        await new Promise((r) => setTimeout(r, 1100)); // an idle throttle window, as for a person typing
        t.app.sandbox!.store.resultCache.clear(); // both runs start cold in the CRM
        const s = performance.now();
        const r = await c.post('/api/queries', { naturalLanguage: q });
        const took = performance.now() - s;
        if (r.status !== 200 || r.json.hasError) throw new Error(`query failed: ${q}: ${r.status} ${r.text}`);
        await new Promise((res) => setTimeout(res, 1100));
        const { segment } = await parseQuestion(t.app.deps, q);
        const compiled = compileToHubSpot(segment, { now: t.app.deps.now(), timeZone: 'UTC' });
        t.app.sandbox!.store.resultCache.clear();
        const s2 = performance.now();
        await fetchSegment(await connectorForUser(t.app.deps, user), compiled, { limit: MAX_STORED_RESULTS });
        const crmTook = performance.now() - s2;
        if (round === 1) {
          e2e.push(took);
          crm.push(crmTook);
        }
      }
    }
    const E = summarize(e2e);
    const C = summarize(crm);
    const B = summarize(baseline);
    console.log(`\nPOST /api/queries at ${contacts.toLocaleString('en-US')} contacts (${E.n} questions, warm)`);
    console.log(`  end-to-end   p50 ${ms(E.p50)}  p95 ${ms(E.p95)}  max ${ms(E.max)}`);
    console.log(`  CRM only     p50 ${ms(C.p50)}  p95 ${ms(C.p95)}  -> share of time in the CRM: ${((100 * C.sum) / E.sum).toFixed(0)}%`);
    console.log(`  baseline GET /api/usage/current p50 ${ms(B.p50)}  -> e2e p50 = ${(E.p50 / B.p50).toFixed(1)}x baseline`);
  } finally {
    await t.close();
  }
}
