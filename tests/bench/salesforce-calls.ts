/**
 * Salesforce API calls per question (npm run bench -- salesforce-calls [--people 5000]): every case of
 * the evaluation set asked as the product asks (the segment runner, 1,000 customers kept) through the
 * Salesforce connector against the Salesforce sandbox over HTTP, counting the calls the org's daily
 * allocation counts (composite = 1; userinfo, OAuth: 0).
 *
 * Target (issue 28): at most 1 + the further pages the answer needs (+1 per two-step condition):
 * budget = 1 + Σ_objects max(0, ⌈records read of the object / 2,000⌉ − 1) + two-step queries, where the
 * first page of every object travels in one composite call. Also: the calls of a count, and the calls
 * of the 12 Smart Segment presets, with their share of the allocation for 200 users a day.
 */
import { performance } from 'node:perf_hooks';
import { segmentSchema } from '../../api/segmentation/ast.js';
import { loadEvalFixture } from '../../api/segmentation/testing/eval-score.js';
import { SalesforceConnector } from '../../api/crm/salesforce/connector.js';
import type { SalesforceQuery } from '../../api/crm/salesforce/compile.js';
import { startSalesforceSandboxServer } from '../../api/crm/salesforce-sandbox/server.js';
import { fetchSegment, countSegment } from '../../api/services/segment-runner.js';
import { parseSegment } from '../../api/segmentation/index.js';
import { CATEGORIES } from '../../prisma/seed/content.js';
import type { Bench, BenchContext, FigureInput } from './harness.js';

const KEPT = 1000;
const PAGE = 2000;

async function run(ctx: BenchContext): Promise<FigureInput[]> {
  const PEOPLE = ctx.num('people', 5000, 1500);
  const fixture = loadEvalFixture();
  const at = { now: new Date(fixture.now), timeZone: fixture.timeZone };
  const running = await startSalesforceSandboxServer({ contactCount: PEOPLE, seed: 42, now: fixture.now, timeZone: 'GMT', clock: () => Date.parse(fixture.now) });
  const sb = running.sandbox;
  try {
    const connector = new SalesforceConnector({
      getAccessToken: () => sb.config.accessTokens[0],
      instanceUrl: running.url,
      requestsPerSecond: 1000,
      clock: { now: () => Date.parse(fixture.now), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
    });
    const calls: number[] = [];
    const countCalls: number[] = [];
    const ms: number[] = [];
    const over: string[] = [];
    let twoStep = 0;
    const cases = fixture.cases.filter((c) => segmentSchema.safeParse(c.expected).success);
    for (const c of ctx.quick ? cases.slice(0, 120) : cases) {
      const seg = segmentSchema.parse(c.expected);
      const plan = connector.compile(seg, at);
      const q = plan.native as SalesforceQuery;
      const before = sb.stats.apiCalls;
      const t0 = performance.now();
      await fetchSegment(connector, plan, at, { limit: KEPT });
      ms.push(performance.now() - t0);
      const used = sb.stats.apiCalls - before;
      calls.push(used);
      // the budget: one call for the first pages, the further pages of each object read, the steps
      const steps = q.steps.length; // (several travel in one composite call: never more calls than steps)
      if (steps) twoStep++;
      const objectsRead = await objectRecordsRead(connector, plan, q);
      const budget = 1 + objectsRead.reduce((s, n) => s + Math.max(0, Math.ceil(n / PAGE) - 1), 0) + steps;
      if (used > budget) over.push(`case ${c.id}: ${used} calls, budget ${budget}`);
      const cb = sb.stats.apiCalls;
      await countSegment(connector, plan, at);
      countCalls.push(sb.stats.apiCalls - cb);
    }
    for (const o of over) ctx.log(`over budget: ${o}`);

    // The Smart Segment presets, as daily generation runs them (1,000 customers kept each).
    const presetCalls: number[] = [];
    for (const p of CATEGORIES.flatMap((c) => c.presets)) {
      const { segment } = await parseSegment(p.description, at);
      const before = sb.stats.apiCalls;
      await fetchSegment(connector, connector.compile(segment, at), at, { limit: KEPT });
      presetCalls.push(sb.stats.apiCalls - before);
    }
    const perUserDay = presetCalls.reduce((s, x) => s + x, 0);
    const users = 200;
    const daily = users * perUserDay;
    const enterprise = 100_000 + users * 1000; // Enterprise Edition: 100,000 + 1,000 per Salesforce licence
    ctx.log(`${cases.length} questions: calls median ${median(calls)}, max ${Math.max(...calls)}; ${twoStep} with a two-step condition; ${over.length} over budget`);
    ctx.log(`presets: ${presetCalls.join(' + ')} = ${perUserDay} calls per user per day; ${users} users: ${daily} calls = ${((100 * daily) / enterprise).toFixed(1)}% of an Enterprise org with ${users} licences (${enterprise.toLocaleString('en-US')}), ${((100 * daily) / 100_000).toFixed(1)}% of the 100,000 base`);
    const note = `${PEOPLE.toLocaleString('en-US')} people (${sb.org.rows.Contact.length} contacts, ${sb.org.rows.Lead.filter((l) => !l.IsConverted).length} leads), ${calls.length} questions, 1,000 customers kept`;
    return [
      { id: 'calls-per-question', label: 'API calls per question', unit: 'count', rounds: calls, note },
      { id: 'over-budget', label: 'questions over 1 + pages (+1 two-step)', unit: 'count', rounds: [over.length], target: { of: 'value', min: 0, max: 0 }, note: `${twoStep} questions have a two-step condition` },
      { id: 'calls-per-count', label: 'API calls per exact count', unit: 'count', rounds: countCalls },
      { id: 'question-ms', label: 'question time (loopback sandbox)', unit: 'ms', rounds: ms },
      { id: 'preset-calls-per-day', label: 'calls per user per day (every preset)', unit: 'count', rounds: [perUserDay] },
      {
        id: 'generation-share',
        label: `share of the allocation, ${users} users × ${presetCalls.length} presets`,
        unit: '%',
        rounds: [(100 * daily) / enterprise],
        target: { of: 'value', max: 10 },
        note: `${daily.toLocaleString('en-US')} calls a day against ${enterprise.toLocaleString('en-US')} (Enterprise Edition: 100,000 + 1,000 per licence); the connector stops at 90% (SALESFORCE_API_RESERVE_PERCENT)`,
      },
    ];
  } finally {
    await running.close();
  }
}

/** How many records each object's query read for the plan (its total, or the first page for a capped read). */
async function objectRecordsRead(connector: SalesforceConnector, plan: Parameters<SalesforceConnector['count']>[0], q: SalesforceQuery): Promise<number[]> {
  // A capped read with a native order reads first pages only; otherwise every record the WHERE admits.
  const out: number[] = [];
  for (const object of ['Contact', 'Lead'] as const) {
    if (!q.objects[object]) continue;
    const one = { ...plan, native: { ...q, objects: { Contact: object === 'Contact' ? q.objects.Contact : null, Lead: object === 'Lead' ? q.objects.Lead : null }, limit: undefined, sort: undefined } };
    const n = await connector.count(one);
    out.push(plan.residual || q.limit === undefined || (q.sort && ['lifetimeValue', 'lastPurchaseDate', 'lastPurchaseAmount'].includes(q.sort.field)) ? n : Math.min(n, KEPT));
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export const bench: Bench = { name: 'salesforce-calls', title: 'Salesforce API calls per question', run };
