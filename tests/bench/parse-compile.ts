/**
 * Parse + compile latency over the evaluation questions.   npm run bench -- parse-compile
 *
 * Each sample parses one question (text -> segment) and compiles it (segment -> HubSpot searches),
 * cycling through the questions of both evaluation sets (the team's and the external one); tinybench times
 * the samples. Baseline in the same round: JSON.parse(JSON.stringify(segment)) of the same questions' parsed
 * segments (the cost of touching the AST at all). Cold typo lookups: the parser's correction cache is cleared
 * before each parse. Also as the query service parses: with the CRM's values as the vocabulary (the
 * sandbox's companies, cities, states, countries and e-mail domains) and the clarification decided
 * (clarify.ts, with the CRM's closest values for what it does not hold).
 * Target: p95 of parse + compile < 5 ms, warm, cold and with the vocabulary.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench as TinyBench, type Task } from 'tinybench';
import { compileHubSpotPlan } from '../../api/crm/hubspot/segments.js';
import { HUBSPOT_FIELD_MAP } from '../../api/crm/hubspot/field-map.js';
import type { Segment } from '../../api/segmentation/ast.js';
import { clearFuzzyCache } from '../../api/segmentation/parser/fuzzy.js';
import { parseSegment } from '../../api/segmentation/parser/index.js';
import { clarificationFor } from '../../api/segmentation/clarify.js';
import { sandboxVocabulary } from '../../api/segmentation/testing/sandbox-vocabulary.js';
import type { Bench } from './harness.js';
import { percentile } from './stats.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** A tinybench task's latency samples (ms). */
function samples(task: Task | undefined): number[] {
  const r = task?.result as { latency?: { samples?: number[] } } | undefined;
  const xs = r?.latency?.samples;
  if (!xs?.length) throw new Error(`tinybench task ${task?.name} has no samples`);
  return [...xs].sort((a, b) => a - b);
}

export const bench: Bench = {
  name: 'parse-compile',
  title: 'parse + compile of the evaluation questions',
  async run(ctx) {
    const fixture = JSON.parse(readFileSync(join(root, 'tests/fixtures/nl-eval.json'), 'utf8')) as { now: string; timeZone: string; cases: Array<{ question: string }> };
    const opts = { now: fixture.now, timeZone: fixture.timeZone };
    const external = JSON.parse(readFileSync(join(root, 'tests/fixtures/nl-eval-external.json'), 'utf8')) as { cases: Array<{ question: string }> };
    const questions = [...fixture.cases, ...external.cases].map((c) => c.question);
    const segments = questions.map((q) => parseSegment(q, opts).segment);
    const perRound = ctx.num('passes', 5, 1) * questions.length; // samples per task and round
    let i = 0;
    let j = 0;
    let k = 0;
    let m = 0;
    let sink = 0;
    const vocabulary = sandboxVocabulary(fixture.now);
    // as the HubSpot connector compiles (a long list over HubSpot's filters per search is left to the product)
    const compileCtx = { now: new Date(opts.now), timeZone: opts.timeZone };
    const compile = (segment: Segment) => compileHubSpotPlan(segment, compileCtx, HUBSPOT_FIELD_MAP).native.searches.length;
    const withNames = { ...opts, vocabulary };
    const tiny = new TinyBench({ iterations: perRound, time: 0, warmupIterations: questions.length });
    tiny
      .add('parse+compile', () => {
        const q = questions[i++ % questions.length];
        sink += compile(parseSegment(q, opts).segment);
      })
      .add('json round trip', () => {
        sink += JSON.stringify(JSON.parse(JSON.stringify(segments[j++ % segments.length]))).length;
      })
      .add('cold typo cache', () => {
        clearFuzzyCache();
        const q = questions[k++ % questions.length];
        sink += compile(parseSegment(q, opts).segment);
      })
      .add('with the vocabulary', () => {
        const q = questions[m++ % questions.length];
        const parsed = parseSegment(q, withNames);
        sink += (clarificationFor(parsed, opts)?.choices.length ?? 0) + compile(parsed.segment);
      });
    const p50: number[] = [];
    const p95: number[] = [];
    const jsonP50: number[] = [];
    const jsonP95: number[] = [];
    const coldP95: number[] = [];
    const namesP95: number[] = [];
    const rounds = ctx.rounds(5);
    for (let r = 0; r < rounds; r++) {
      await tiny.run();
      const [pc, json, cold, named] = tiny.tasks.map(samples);
      p50.push(percentile(pc, 50));
      p95.push(percentile(pc, 95));
      jsonP50.push(percentile(json, 50));
      jsonP95.push(percentile(json, 95));
      coldP95.push(percentile(cold, 95));
      namesP95.push(percentile(named, 95));
      ctx.log(`round ${r + 1}/${rounds}: p50 ${p50[r].toFixed(3)} ms, p95 ${p95[r].toFixed(3)} ms, cold p95 ${coldP95[r].toFixed(3)} ms`);
    }
    if (sink < 0) ctx.log(String(sink));
    const note = `${questions.length} questions, ${perRound} samples per round`;
    return [
      { id: 'p50', label: 'parse+compile p50', unit: 'ms', rounds: p50, baseline: { label: 'JSON round trip of the AST p50', rounds: jsonP50 }, note },
      { id: 'p95', label: 'parse+compile p95', unit: 'ms', rounds: p95, baseline: { label: 'JSON round trip p95', rounds: jsonP95 }, target: { of: 'value', max: 5 }, note },
      { id: 'cold-p95', label: 'p95, typo cache cleared', unit: 'ms', rounds: coldP95, baseline: { label: 'JSON round trip p95', rounds: jsonP95 }, target: { of: 'value', max: 5 } },
      {
        id: 'companies-p95',
        label: `p95 with the CRM's ${vocabulary.size} values, clarification decided`,
        unit: 'ms',
        rounds: namesP95,
        baseline: { label: 'JSON round trip p95', rounds: jsonP95 },
        target: { of: 'value', max: 5 },
      },
    ];
  },
};
