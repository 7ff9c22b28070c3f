import fc from 'fast-check';
import { segmentArb, contactsArb, datePool, NOW } from '../testing/arbitraries.js';
import { compileToHubSpot } from '../compile-hubspot.js';
import { compileEvaluator } from '../evaluate.js';
const samples = fc.sample(fc.tuple(segmentArb, contactsArb(datePool('UTC'))), { numRuns: 300, seed: 1 });
let sizes: number[] = [], sel: number[] = [], groups: number[] = [], errs = 0, searches: number[] = [];
for (const [s, cs] of samples) {
  sizes.push(JSON.stringify(s.where ?? {}).match(/"field"/g)?.length ?? 0);
  try { const q = compileToHubSpot(s, { now: NOW, timeZone: 'UTC', maxSearches: 50 }); groups.push(q.searches.reduce((n, x) => n + x.filterGroups.length, 0)); searches.push(q.searches.length); } catch (e) { errs++; }
  const p = compileEvaluator(s, { now: NOW }); sel.push(cs.filter(p).length / cs.length);
}
const avg = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
console.log({ avgConds: avg(sizes), maxConds: Math.max(...sizes), errs, avgGroups: avg(groups), maxSearches: Math.max(...searches), avgSel: avg(sel), allOrNone: sel.filter(x => x === 0 || x === 1).length });
