/**
 * Zoho API calls per question: `npm run bench -- zoho-calls [--contacts 5000] [--cases 595] [--rounds 3]`
 *
 * Runs every expected segment of the evaluation set (tests/fixtures/nl-eval.json) through the Zoho
 * connector against the Zoho sandbox over a loopback socket, as the product answers a question (count,
 * then read the native part; the residual evaluated on what comes back), and reports what Zoho would
 * charge: calls and API credits per question (COQL: 1 credit up to LIMIT 200, 2 up to 1,000, 3 up to
 * 2,000), and the time per question on the sandbox. The baseline is the same questions' HubSpot search
 * requests (compiled searches × pages of 200), the calls HubSpot's connector makes for the same answers.
 */
import { loadEvalFixture } from '../../api/segmentation/testing/eval-score.js';
import { segmentSchema, type Segment } from '../../api/segmentation/ast.js';
import { compileToHubSpot } from '../../api/segmentation/compile-hubspot.js';
import { selectContacts } from '../../api/segmentation/evaluate.js';
import { generateContacts } from '../../api/crm/hubspot-sandbox/data.js';
import type { HubSpotContact } from '../../api/crm/hubspot/model/index.js';
import { compileRecordEvaluator } from '../../api/segmentation/evaluate.js';
import { startZohoSandboxServer } from '../../api/crm/zoho-sandbox/server.js';
import { ZohoConnector } from '../../api/crm/zoho/connector.js';
import { resetZohoBudgets } from '../../api/crm/zoho/budget.js';
import type { Bench, BenchContext } from './harness.js';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

async function run(ctx: BenchContext) {
  const fixture = loadEvalFixture();
  const contacts = ctx.num('contacts', 5000, 1000);
  const maxCases = ctx.num('cases', fixture.cases.length, 60);
  const rounds = ctx.rounds(3, 1);
  const opts = { now: fixture.now, timeZone: fixture.timeZone };
  const segments: Segment[] = fixture.cases
    .map((c) => segmentSchema.safeParse(c.expected))
    .filter((p) => p.success)
    .map((p) => p.data!)
    .slice(0, maxCases);

  // HubSpot's requests for the same answers: each compiled search, one request per page of 200.
  const hub: HubSpotContact[] = generateContacts({ count: contacts, seed: 42, now: fixture.now }).map((c) => {
    const properties: Record<string, string | null> = {};
    for (const [k, v] of Object.entries(c)) properties[k] = v === null || v === undefined ? null : String(v);
    properties.hs_object_id = String(c.id);
    return { id: String(c.id), properties };
  });
  const hubspotCalls = segments.map((s) => {
    const searches = compileToHubSpot(s, opts).searches.length;
    const n = selectContacts({ ...s, sort: undefined, limit: undefined }, hub, opts).length;
    return Math.max(searches, Math.ceil(n / 200) || 1);
  });

  const running = await startZohoSandboxServer({ contactCount: contacts, seed: 42, now: fixture.now, dailyCredits: 0, concurrencyLimit: 0 });
  const callsPerRound: number[] = [];
  const creditsPerRound: number[] = [];
  const p95Calls: number[] = [];
  const timeP50: number[] = [];
  const timeP95: number[] = [];
  try {
    const token = running.sandbox.issueTestToken().accessToken;
    for (let r = 0; r < rounds; r++) {
      const z = new ZohoConnector({ baseUrl: `${running.url}/api/us`, getAccessToken: () => token, accountId: `bench-${r}` });
      const calls: number[] = [];
      const credits: number[] = [];
      const times: number[] = [];
      for (const segment of segments) {
        const [c0, k0, t0] = [z.api.calls, z.api.credits, performance.now()];
        const plan = z.compile(segment, { now: new Date(opts.now), timeZone: opts.timeZone });
        let n = 0;
        const keep = plan.residual ? compileRecordEvaluator(plan.residual, opts) : () => true;
        for await (const rec of z.read(plan, { onTotal: () => {} })) if (keep(rec)) n++;
        void n;
        times.push(performance.now() - t0);
        calls.push(z.api.calls - c0);
        credits.push(z.api.credits - k0);
      }
      callsPerRound.push(mean(calls));
      creditsPerRound.push(mean(credits));
      p95Calls.push(quantile(calls, 0.95));
      timeP50.push(quantile(times, 0.5));
      timeP95.push(quantile(times, 0.95));
      ctx.log(`round ${r + 1}/${rounds}: ${mean(calls).toFixed(2)} calls and ${mean(credits).toFixed(2)} credits per question (p95 ${quantile(calls, 0.95)} calls, max ${Math.max(...calls)}), ${quantile(times, 0.5).toFixed(1)} ms p50`);
    }
  } finally {
    await running.close();
    await resetZohoBudgets();
  }
  const note = `${segments.length} evaluation-set questions over ${contacts.toLocaleString('en-US')} people (count + read + deals, as the product answers)`;
  const hubMean = mean(hubspotCalls);
  return [
    { id: 'calls-per-question', label: 'Zoho API calls per question (mean)', unit: 'calls', rounds: callsPerRound, baseline: { label: 'HubSpot search requests', rounds: callsPerRound.map(() => hubMean) }, note },
    { id: 'calls-p95', label: 'Zoho API calls per question (p95)', unit: 'calls', rounds: p95Calls, note },
    { id: 'credits-per-question', label: 'Zoho API credits per question (mean)', unit: 'credits', rounds: creditsPerRound, note },
    { id: 'time-p50', label: 'time per question on the sandbox (p50)', unit: 'ms', rounds: timeP50, note },
    { id: 'time-p95', label: 'time per question on the sandbox (p95)', unit: 'ms', rounds: timeP95, target: { of: 'value' as const, max: 2000 }, note },
  ];
}

export const bench: Bench = { name: 'zoho-calls', title: 'Zoho: API calls and credits per question', run };
