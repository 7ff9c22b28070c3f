/**
 * The evaluation set (tests/fixtures/nl-eval.json, each case's expected segment) on the same synthetic
 * people, through HubSpot (its compiler and the HubSpot sandbox's search engine) and through the
 * Salesforce connector against the Salesforce sandbox over HTTP (the product's segment runner, so a
 * plan's residual is applied as in production). Every case gives the same people, except where the
 * meaning differs by definition, and those differences must be exactly the documented ones:
 *
 *  1. A purchase date is a day in Salesforce (Opportunity.CloseDate); HubSpot keeps an instant. A
 *     bound that is not a midnight (e.g. "in the last 30 days" at noon) splits its day in HubSpot, not
 *     in Salesforce: the people who differ bought last on that day. Sorting by it orders days.
 *  2. Without a sort, results are in id order and the two CRMs' ids differ: a capped list ("25 leads in
 *     Spain") takes different people from the same set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segmentSchema, type Segment, type SegmentNode } from '../../segmentation/ast.js';
import { compileToHubSpot } from '../../segmentation/compile-hubspot.js';
import { resolveContext, resolveDateExpr } from '../../segmentation/resolve.js';
import { loadEvalFixture } from '../../segmentation/testing/eval-score.js';
import { fetchSegment } from '../../services/segment-runner.js';
import { generateContacts, type SandboxContact } from '../hubspot-sandbox/data.js';
import { createContactStore, executeSearch } from '../hubspot-sandbox/search.js';
import { sortContacts, type HubSpotContact } from '../hubspot/model/index.js';
import { startSalesforceSandboxServer, type RunningSalesforceSandbox } from '../salesforce-sandbox/server.js';
import { SalesforceConnector } from './connector.js';

const fixture = loadEvalFixture();
const COUNT = 2000;
const ctx = { now: new Date(fixture.now), timeZone: fixture.timeZone };
const contacts = generateContacts({ count: COUNT, seed: 42, now: fixture.now });
const byId = new Map(contacts.map((c) => [String(c.id), c]));
const store = createContactStore(contacts);
let running: RunningSalesforceSandbox;
let connector: SalesforceConnector;

beforeAll(async () => {
  running = await startSalesforceSandboxServer({ contactCount: COUNT, seed: 42, now: fixture.now, timeZone: 'GMT' });
  connector = new SalesforceConnector({ getAccessToken: () => running.sandbox.config.accessTokens[0], instanceUrl: running.url, requestsPerSecond: 1000 });
});
afterAll(async () => {
  await running?.close();
});

/** HubSpot's answer: the compiled searches run on the HubSpot sandbox's engine, ordered and capped as the product does. */
function hubspot(seg: Segment, limitOverride?: number | null): string[] {
  const compiled = compileToHubSpot(limitOverride === null ? { ...seg, limit: undefined } : seg, { now: fixture.now, timeZone: fixture.timeZone });
  const found = new Map<string, HubSpotContact>();
  for (const s of compiled.searches) {
    for (let after = '0'; ; ) {
      const page = executeSearch(store, { ...s, after, limit: 200 });
      for (const r of page.results) found.set(r.id, r as HubSpotContact);
      if (!page.paging?.next?.after || Number(page.paging.next.after) >= 9800) break;
      after = page.paging.next.after;
    }
  }
  let all = [...found.values()];
  all = compiled.sort ? sortContacts(all, compiled.sort) : all.sort((a, b) => Number(a.id) - Number(b.id));
  return (compiled.maxResults !== undefined ? all.slice(0, compiled.maxResults) : all).map((c) => c.id);
}

async function salesforce(seg: Segment): Promise<string[]> {
  const plan = connector.compile(seg, ctx);
  const { customers } = await fetchSegment(connector, plan, ctx);
  return customers.map((c) => String(running.sandbox.personOf(c.id)!.id));
}

/** The UTC days of the lastPurchaseDate bounds of a segment's conditions. */
function purchaseBoundDays(node: SegmentNode | undefined): Set<string> {
  const out = new Set<string>();
  const rctx = resolveContext({ now: fixture.now, timeZone: fixture.timeZone });
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const walk = (n: SegmentNode) => {
    if ('and' in n) n.and.forEach(walk);
    else if ('or' in n) n.or.forEach(walk);
    else if ('not' in n) walk(n.not);
    else if (n.field === 'lastPurchaseDate') {
      if ('value' in n && typeof n.value === 'object') out.add(day(resolveDateExpr(n.value, rctx)));
      if ('from' in n && typeof n.from === 'object') {
        out.add(day(resolveDateExpr(n.from, rctx)));
        out.add(day(resolveDateExpr(n.to as never, rctx)));
      }
    }
  };
  if (node) walk(node);
  return out;
}

const lastDay = (c: SandboxContact | undefined) => (c?.recent_deal_close_date ? new Date(c.recent_deal_close_date).toISOString().slice(0, 10) : null);

describe('the evaluation set on Salesforce and on HubSpot', () => {
  it('gives the same people for every case whose meaning maps; the others differ only as documented', async () => {
    const outcome = { same: 0, purchaseDay: 0, idOrder: 0 };
    const unexplained: string[] = [];
    for (const c of fixture.cases) {
      const parsed = segmentSchema.safeParse(c.expected);
      if (!parsed.success) continue;
      const seg = parsed.data;
      const hs = hubspot(seg);
      const sf = await salesforce(seg);
      const a = new Set(hs);
      const b = new Set(sf);
      if (a.size === b.size && hs.every((x) => b.has(x))) {
        outcome.same++;
        continue;
      }
      const differing = [...hs.filter((x) => !b.has(x)), ...sf.filter((x) => !a.has(x))];
      // 1. purchase days: every differing person bought last on a bound's day (a condition), or the
      //    capped lists of a sort by purchase date hold the same days (ties within a day)
      const bounds = purchaseBoundDays(seg.where);
      if (bounds.size && differing.every((id) => bounds.has(lastDay(byId.get(id))!))) {
        outcome.purchaseDay++;
        continue;
      }
      if (seg.sort?.field === 'lastPurchaseDate' && seg.limit !== undefined) {
        const days = (ids: string[]) => ids.map((id) => lastDay(byId.get(id))).join();
        if (days(hs) === days(sf)) {
          outcome.purchaseDay++;
          continue;
        }
      }
      // 2. id order: a cap without a sort takes the first ids; the uncapped sets agree
      if (!seg.sort && seg.limit !== undefined && hs.length === sf.length) {
        const all = new Set(hubspot(seg, null));
        const sfAll = await salesforce({ ...seg, limit: undefined });
        if (sfAll.length === all.size && sfAll.every((x) => all.has(x)) && sf.every((x) => all.has(x))) {
          outcome.idOrder++;
          continue;
        }
      }
      unexplained.push(`case ${c.id}: HubSpot ${hs.length}, Salesforce ${sf.length}, differing ${differing.slice(0, 5).join(', ')} — ${JSON.stringify(seg)}`);
    }
    expect(unexplained).toEqual([]);
    // Most of the set maps (the README states the split: 563 same / 31 purchase days / 1 id order at 5,000 people)
    expect(outcome.same).toBeGreaterThan(540);
    expect(outcome.purchaseDay).toBeGreaterThan(0);
    console.log('evaluation set, Salesforce vs HubSpot:', outcome);
  }, 600_000);
});
