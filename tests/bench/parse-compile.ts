/**
 * Parse + compile latency over the evaluation questions.   npx tsx tests/bench/parse-compile.ts [rounds]
 *
 * Each question is parsed (text -> segment) and compiled (segment -> HubSpot searches). Baselines measured
 * in the same run on the same machine, so the figures read as ratios:
 *   - json: JSON.parse(JSON.stringify(segment)) of the parsed segment (cost of touching the AST at all);
 *   - regex: one case-insensitive regex pass over the question (cost of reading the text at all).
 * Also measured with the CRM's own company names passed to the parser (the sandbox's), as the service does.
 * Target: p95 of parse + compile < 5 ms.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileToHubSpot } from '../../api/segmentation/compile-hubspot.js';
import { clearFuzzyCache } from '../../api/segmentation/parser/fuzzy.js';
import { parseSegment } from '../../api/segmentation/parser/index.js';
import { KnownCompanies } from '../../api/segmentation/parser/known-companies.js';
import { generateContacts } from '../../api/crm/hubspot-sandbox/data.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = JSON.parse(readFileSync(join(root, 'tests/fixtures/nl-eval.json'), 'utf8')) as {
  now: string;
  timeZone: string;
  cases: Array<{ question: string }>;
};
const rounds = Number(process.argv[2] ?? 20);
const opts = { now: fixture.now, timeZone: fixture.timeZone };
const questions = fixture.cases.map((c) => c.question);
const WORDS = /\b(customers?|leads?|in|over|under|last|since|before|top|by|not|or|and)\b/gi;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), max: s[s.length - 1], mean: xs.reduce((a, b) => a + b, 0) / xs.length };
}

// warm-up: builds the fuzzy index, JIT-compiles the hot paths
for (let r = 0; r < 3; r++) for (const q of questions) compileToHubSpot(parseSegment(q, opts).segment, opts);

const total: number[] = [];
const parse: number[] = [];
const compile: number[] = [];
const json: number[] = [];
const regex: number[] = [];
let sink = 0;
for (let r = 0; r < rounds; r++) {
  for (const q of questions) {
    const t0 = performance.now();
    const { segment } = parseSegment(q, opts);
    const t1 = performance.now();
    const compiled = compileToHubSpot(segment, opts);
    const t2 = performance.now();
    sink += compiled.searches.length;
    parse.push(t1 - t0);
    compile.push(t2 - t1);
    total.push(t2 - t0);
    const t3 = performance.now();
    sink += JSON.stringify(JSON.parse(JSON.stringify(segment))).length;
    const t4 = performance.now();
    sink += q.match(WORDS)?.length ?? 0;
    const t5 = performance.now();
    json.push(t4 - t3);
    regex.push(t5 - t4);
  }
}

// cold typo lookups: the correction cache is cleared before every parse
const cold: number[] = [];
for (const q of questions) {
  clearFuzzyCache();
  const t0 = performance.now();
  compileToHubSpot(parseSegment(q, opts).segment, opts);
  cold.push(performance.now() - t0);
}

// as the service parses: with the CRM's own company names (the sandbox's, 5,000 contacts)
const names = [...new Set(generateContacts({ count: 5000, seed: 42, now: fixture.now }).map((c) => c.company).filter((x): x is string => !!x))];
const tBuild = performance.now();
const knownCompanies = KnownCompanies.from(names);
const buildMs = performance.now() - tBuild;
const withNames: number[] = [];
for (let r = 0; r < Math.max(1, Math.floor(rounds / 4)); r++) {
  for (const q of questions) {
    const t0 = performance.now();
    compileToHubSpot(parseSegment(q, { ...opts, knownCompanies }).segment, opts);
    withNames.push(performance.now() - t0);
  }
}

const fmt = (x: number) => `${x.toFixed(3)} ms`;
const row = (name: string, xs: number[]) => {
  const s = stats(xs);
  return `${name.padEnd(16)} p50 ${fmt(s.p50).padStart(10)}   p95 ${fmt(s.p95).padStart(10)}   max ${fmt(s.max).padStart(10)}   mean ${fmt(s.mean).padStart(10)}`;
};
console.log(`${questions.length} questions x ${rounds} rounds = ${total.length} samples (node ${process.version})`);
console.log(row('parse+compile', total));
console.log(row('  parse', parse));
console.log(row('  compile', compile));
console.log(row('cold typo cache', cold));
console.log(row(`${names.length} companies`, withNames), `  (dictionary built once in ${buildMs.toFixed(1)} ms)`);
console.log(row('baseline json', json));
console.log(row('baseline regex', regex));
const t = stats(total);
const j = stats(json);
const g = stats(regex);
console.log(`ratio p50: ${(t.p50 / j.p50).toFixed(0)}x json round-trip, ${(t.p50 / g.p50).toFixed(0)}x regex pass`);
const c = stats(cold);
const w = stats(withNames);
console.log(
  `target p95 < 5 ms: ${t.p95 < 5 && c.p95 < 5 && w.p95 < 5 ? 'met' : 'NOT met'} (warm ${fmt(t.p95)}, cold typo cache ${fmt(c.p95)}, with company names ${fmt(w.p95)})`,
);
if (sink < 0) console.log(sink);
