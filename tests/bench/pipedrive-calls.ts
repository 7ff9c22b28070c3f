/**
 * Pipedrive API calls per question: `npm run bench -- pipedrive-calls [--cases 595]`
 *
 * Runs the evaluation set's expected segments (tests/fixtures/nl-eval.json) through the product's
 * segment runner (an exact count and the customers, as a question does) on the Pipedrive sandbox (5,000
 * people, the official client over a loopback socket) and counts, per question, the requests the
 * connector sent and the tokens they cost against Pipedrive's daily budget (the sandbox's cost table:
 * v2 lists 10, v1 lists 20, v1 single reads 2, writes 10). Twice: a first pass in a fresh process (each
 * new filter is looked up, then created) and a second pass in which the process knows its filters
 * (records are never kept between questions here). Baseline: HubSpot search requests for the same
 * questions on the HubSpot sandbox. Figures, not targets: what a question costs is the point.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Segment } from '../../api/segmentation/ast.js';
import { HubSpotConnector } from '../../api/crm/hubspot/connector.js';
import { startHubSpotSandboxServer } from '../../api/crm/hubspot-sandbox/server.js';
import { PipedriveConnector } from '../../api/crm/pipedrive/connector.js';
import { resetRememberedFilters } from '../../api/crm/pipedrive/filters.js';
import { startPipedriveSandboxServer } from '../../api/crm/pipedrive-sandbox/server.js';
import { fetchSegment } from '../../api/services/segment-runner.js';
import type { Bench, BenchContext, FigureInput } from './harness.js';

const root = join(import.meta.dirname, '../..');
const unlimited = () => ({ acquire: async () => () => {}, pause() {} });

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function run(ctx: BenchContext): Promise<FigureInput[]> {
  const fixture = JSON.parse(readFileSync(join(root, 'tests/fixtures/nl-eval.json'), 'utf8')) as { now: string; timeZone: string; cases: { expected: Segment | null }[] };
  const segments = fixture.cases.map((c) => c.expected).filter((s): s is Segment => s !== null).slice(0, ctx.num('cases', 595, 60));
  const runCtx = { now: new Date(fixture.now), timeZone: fixture.timeZone };
  const pd = await startPipedriveSandboxServer({ now: fixture.now, burstLimit: 0, dailyTokenBudget: 1e9 });
  const hs = await startHubSpotSandboxServer({ now: fixture.now, rateLimitPerSecond: 0 });
  try {
    const hubspot = new HubSpotConnector({ getAccessToken: () => hs.sandbox.config.privateAppTokens[0], baseUrl: hs.url, searchLimiter: unlimited });
    const hsRequests: number[] = [];
    for (const s of segments) {
      const before = hs.sandbox.stats.searchRequests;
      await fetchSegment(hubspot, hubspot.compile(s, runCtx), runCtx);
      hsRequests.push(hs.sandbox.stats.searchRequests - before);
    }
    resetRememberedFilters();
    const connector = new PipedriveConnector({ getAccessToken: () => pd.sandbox.config.apiTokens[0], baseUrl: pd.url, searchLimiter: unlimited, resultTtlMs: 0 });
    await connector.verifyCredentials();
    const pass = async (label: string) => {
      const requests: number[] = [];
      const tokens: number[] = [];
      for (const s of segments) {
        const r0 = pd.sandbox.stats.requests;
        const t0 = pd.sandbox.limiter.stats.tokensSpent;
        await fetchSegment(connector, connector.compile(s, runCtx), runCtx);
        requests.push(pd.sandbox.stats.requests - r0);
        tokens.push(pd.sandbox.limiter.stats.tokensSpent - t0);
      }
      const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      ctx.log(`${label}: ${segments.length} questions, requests mean ${mean(requests).toFixed(1)} p95 ${quantile(sorted(requests), 0.95)} max ${Math.max(...requests)}; tokens mean ${mean(tokens).toFixed(0)} p95 ${quantile(sorted(tokens), 0.95)}`);
      return { requests, tokens, mean, sorted };
    };
    const byRoute0 = { ...pd.sandbox.stats.byRoute };
    const first = await pass('first pass (filters looked up and created)');
    const second = await pass('second pass (filters known to the process)');
    const routes = Object.entries(pd.sandbox.stats.byRoute).map(([k, v]) => `${k} ${v - (byRoute0[k] ?? 0)}`).join(', ');
    ctx.log(`requests by route over both passes: ${routes}`);
    const hsMean = hsRequests.reduce((a, b) => a + b, 0) / hsRequests.length;
    const budget = 180_000;
    return [
      { id: 'requests-mean', label: 'requests per question (first pass)', unit: 'count', rounds: [first.mean(first.requests)], baseline: { label: 'HubSpot searches per question', rounds: [hsMean] } },
      { id: 'requests-p95', label: 'requests per question p95 (first pass)', unit: 'count', rounds: [quantile(first.sorted(first.requests), 0.95)] },
      { id: 'requests-known-mean', label: 'requests per question (filters known)', unit: 'count', rounds: [second.mean(second.requests)], baseline: { label: 'HubSpot searches per question', rounds: [hsMean] } },
      { id: 'requests-known-max', label: 'requests per question max (filters known)', unit: 'count', rounds: [Math.max(...second.requests)] },
      { id: 'tokens-mean', label: 'budget tokens per question (filters known)', unit: 'count', rounds: [second.mean(second.tokens)] },
      {
        id: 'questions-per-day', label: 'questions per day on a 180,000-token budget (filters known)', unit: 'count', rounds: [Math.floor(budget / second.mean(second.tokens))],
        note: 'Growth plan, 3 seats: 30,000 × 2 × 3 tokens; shared with every other app of the company',
      },
    ];
  } finally {
    await pd.close();
    await hs.close();
  }
}

export const bench: Bench = { name: 'pipedrive-calls', title: 'Pipedrive API calls per question', run };
