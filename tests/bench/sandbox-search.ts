/**
 * Sandbox search benchmark: `npm run bench -- sandbox-search [--contacts 200000] [--iterations 8] [--rounds 5]`
 *
 * Builds 200,000 synthetic contacts, then times one search page (limit 200) for a mix of realistic
 * searches. Each timed search starts from an empty result cache (the sandbox caches evaluated searches
 * so that paging is cheap; a cold page is the honest worst case). The baseline is measured in the same
 * run: a plain linear scan over the contact array with the same predicate, the same sort and the same
 * page rendering — read the figures as a ratio. Target: p95 of a cold page < 50 ms.
 */
import { generateContacts, type SandboxContact } from '../../api/crm/hubspot-sandbox/data.js';
import { createContactStore, executeSearch } from '../../api/crm/hubspot-sandbox/search.js';
import { renderContact, type ContactStore } from '../../api/crm/hubspot-sandbox/store.js';
import type { Bench, BenchContext } from './harness.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 86_400_000;

interface Case {
  name: string;
  body: Record<string, unknown>;
  predicate: (c: SandboxContact) => boolean;
  sort?: { key: (c: SandboxContact) => number | string | null; desc: boolean };
  after?: number;
}

const lower = (s: string | null) => (s === null ? null : s.toLowerCase());
const tokens = (s: string) => [s, ...s.split(/[^\p{L}\p{N}]+/u)];

const CASES: Case[] = [
  {
    name: 'country IN (North America)',
    body: { filterGroups: [{ filters: [{ propertyName: 'country', operator: 'IN', values: ['united states', 'canada', 'mexico'] }] }] },
    predicate: (c) => ['united states', 'canada', 'mexico'].includes(lower(c.country) ?? ''),
  },
  {
    name: 'customer AND bought in last 90 days',
    body: {
      filterGroups: [{ filters: [
        { propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' },
        { propertyName: 'recent_deal_close_date', operator: 'GTE', value: String(NOW - 90 * DAY) },
      ] }],
    },
    predicate: (c) => c.lifecyclestage === 'customer' && c.recent_deal_close_date !== null && c.recent_deal_close_date >= NOW - 90 * DAY,
  },
  {
    name: 'amount GT 5000, sort amount DESC',
    body: {
      filterGroups: [{ filters: [{ propertyName: 'recent_deal_amount', operator: 'GT', value: '5000' }] }],
      sorts: [{ propertyName: 'recent_deal_amount', direction: 'DESCENDING' }],
    },
    predicate: (c) => c.recent_deal_amount !== null && c.recent_deal_amount > 5000,
    sort: { key: (c) => c.recent_deal_amount, desc: true },
  },
  {
    name: 'created 6-12 months ago (BETWEEN)',
    body: { filterGroups: [{ filters: [{ propertyName: 'createdate', operator: 'BETWEEN', value: String(NOW - 365 * DAY), highValue: String(NOW - 180 * DAY) }] }] },
    predicate: (c) => c.createdate >= NOW - 365 * DAY && c.createdate <= NOW - 180 * DAY,
  },
  {
    name: 'email CONTAINS_TOKEN *@acme.com',
    body: { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@acme.com' }] }] },
    predicate: (c) => c.email !== null && c.email.toLowerCase().endsWith('@acme.com'),
  },
  {
    name: '3 OR groups (DE customers | FR rev>2000 | pipeline)',
    body: {
      filterGroups: [
        { filters: [{ propertyName: 'country', operator: 'EQ', value: 'germany' }, { propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' }] },
        { filters: [{ propertyName: 'country', operator: 'EQ', value: 'france' }, { propertyName: 'total_revenue', operator: 'GT', value: '2000' }] },
        { filters: [{ propertyName: 'lifecyclestage', operator: 'IN', values: ['opportunity', 'salesqualifiedlead'] }] },
      ],
    },
    predicate: (c) =>
      (lower(c.country) === 'germany' && c.lifecyclestage === 'customer') ||
      (lower(c.country) === 'france' && c.total_revenue !== null && c.total_revenue > 2000) ||
      c.lifecyclestage === 'opportunity' || c.lifecyclestage === 'salesqualifiedlead',
  },
  {
    name: 'never bought leads, sort createdate DESC',
    body: {
      filterGroups: [{ filters: [
        { propertyName: 'recent_deal_close_date', operator: 'NOT_HAS_PROPERTY' },
        { propertyName: 'lifecyclestage', operator: 'IN', values: ['lead', 'marketingqualifiedlead'] },
      ] }],
      sorts: [{ propertyName: 'createdate', direction: 'DESCENDING' }],
    },
    predicate: (c) => c.recent_deal_close_date === null && (c.lifecyclestage === 'lead' || c.lifecyclestage === 'marketingqualifiedlead'),
    sort: { key: (c) => c.createdate, desc: true },
  },
  {
    name: 'outside the US, deep page after=9800',
    body: { filterGroups: [{ filters: [{ propertyName: 'country', operator: 'NEQ', value: 'united states' }] }], after: '9800' },
    predicate: (c) => lower(c.country) !== 'united states',
    after: 9800,
  },
  {
    name: 'full-text query "smith"',
    body: { query: 'smith' },
    predicate: (c) => [c.firstname, c.lastname, c.email, c.company].some((v) => v !== null && v.toLowerCase().includes('smith')),
  },
  {
    name: 'company token "logistics", sort lastname ASC',
    body: {
      filterGroups: [{ filters: [{ propertyName: 'company', operator: 'CONTAINS_TOKEN', value: 'logistics' }] }],
      sorts: [{ propertyName: 'lastname', direction: 'ASCENDING' }],
    },
    predicate: (c) => c.company !== null && tokens(c.company.toLowerCase()).includes('logistics'),
    sort: { key: (c) => lower(c.lastname), desc: false },
  },
];

const PROPS = ['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname'];

/** Naive baseline: scan, sort, slice and render one page. */
function linearScan(store: ContactStore, cs: Case): number {
  const rows: number[] = [];
  const contacts = store.contacts;
  for (let i = 0; i < contacts.length; i++) if (cs.predicate(contacts[i])) rows.push(i);
  if (cs.sort) {
    const { key, desc } = cs.sort;
    rows.sort((a, b) => {
      const ka = key(contacts[a]);
      const kb = key(contacts[b]);
      if (ka === null || kb === null) return ka === null && kb === null ? a - b : ka === null ? 1 : -1;
      const c = ka < kb ? -1 : ka > kb ? 1 : 0;
      return (c || a - b) * (desc ? -1 : 1);
    });
  }
  const start = cs.after ?? 0;
  const page = rows.slice(start, start + 200).map((r) => renderContact(store, r, PROPS));
  return rows.length + page.length * 0;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

async function run(ctx: BenchContext) {
  const COUNT = ctx.num('contacts', 200_000, 20_000);
  const ITERATIONS = ctx.num('iterations', 8, 2); // per case and round
  const rounds = ctx.rounds(5);
  let t = performance.now();
  const contacts = generateContacts({ count: COUNT, seed: 2026, now: NOW });
  const genMs = performance.now() - t;
  t = performance.now();
  const store = createContactStore(contacts);
  const storeMs = performance.now() - t;
  t = performance.now();
  store.warmUp();
  const warmMs = performance.now() - t;
  ctx.log(`contacts: ${COUNT.toLocaleString('en-US')}  generate: ${genMs.toFixed(0)} ms  store: ${storeMs.toFixed(0)} ms  index warm-up: ${warmMs.toFixed(0)} ms  iterations: ${ITERATIONS} × ${rounds} rounds`);

  const perCase = CASES.map(() => ({ times: [] as number[], scans: [] as number[], cached: [] as number[], total: 0 }));
  const roundP50: number[] = [];
  const roundP95: number[] = [];
  const scanP50: number[] = [];
  const scanP95: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const all: number[] = [];
    const allScan: number[] = [];
    CASES.forEach((cs, ci) => {
      const acc = perCase[ci];
      for (let i = 0; i < ITERATIONS; i++) {
        store.resultCache.clear();
        let s = performance.now();
        const res = executeSearch(store, { limit: 200, ...cs.body });
        const took = performance.now() - s;
        acc.times.push(took);
        all.push(took);
        acc.total = res.total;
        if (res.paging && Number(res.paging.next.after) + 200 <= 10_000) {
          s = performance.now();
          executeSearch(store, { limit: 200, ...cs.body, after: res.paging.next.after });
          acc.cached.push(performance.now() - s);
        }
        s = performance.now();
        const n = linearScan(store, cs);
        const scan = performance.now() - s;
        acc.scans.push(scan);
        allScan.push(scan);
        if (n !== acc.total) throw new Error(`baseline mismatch for "${cs.name}": ${n} vs ${acc.total}`);
      }
    });
    all.sort((a, b) => a - b);
    allScan.sort((a, b) => a - b);
    roundP50.push(quantile(all, 0.5));
    roundP95.push(quantile(all, 0.95));
    scanP50.push(quantile(allScan, 0.5));
    scanP95.push(quantile(allScan, 0.95));
    ctx.log(`round ${r + 1}/${rounds}: cold page p50 ${fmt(roundP50[r])} ms, p95 ${fmt(roundP95[r])} ms; linear scan p50 ${fmt(scanP50[r])} ms`);
  }

  // Per-search detail over every round, for reading which search is slow.
  const header = ['search (limit 200)', 'matches', 'p50 ms', 'p95 ms', 'max ms', 'next page ms', 'scan p50 ms', 'speed-up'];
  const rowsOut = CASES.map((cs, ci) => {
    const { times, scans, cached, total } = perCase[ci];
    times.sort((a, b) => a - b);
    scans.sort((a, b) => a - b);
    cached.sort((a, b) => a - b);
    return [
      cs.name,
      total.toLocaleString('en-US'),
      fmt(quantile(times, 0.5)),
      fmt(quantile(times, 0.95)),
      fmt(times[times.length - 1]),
      cached.length ? fmt(quantile(cached, 0.5)) : '-',
      fmt(quantile(scans, 0.5)),
      `${(quantile(scans, 0.5) / quantile(times, 0.5)).toFixed(1)}x`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rowsOut.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  ctx.log(line(header));
  for (const r of rowsOut) ctx.log(line(r));

  const note = `${COUNT.toLocaleString('en-US')} contacts, ${CASES.length} searches × ${ITERATIONS} per round, each from an empty result cache`;
  return [
    { id: 'page-p50', label: 'cold page p50', unit: 'ms', rounds: roundP50, baseline: { label: 'linear scan p50', rounds: scanP50 }, note },
    { id: 'page-p95', label: 'cold page p95', unit: 'ms', rounds: roundP95, baseline: { label: 'linear scan p95', rounds: scanP95 }, target: { of: 'value' as const, max: 50 }, note },
  ];
}

export const bench: Bench = { name: 'sandbox-search', title: 'HubSpot sandbox search (one cold page of 200)', run };
