/**
 * Scoring of the natural-language evaluation sets, shared by `npm run eval:nl` and the regression tests.
 *
 * The team's set (tests/fixtures/nl-eval.json): exact match on the tuning and held-out sets, and honesty
 * on the unanswerable cases (the service asks before running anything — a clarification, or "not
 * understood" when nothing was — and what it understood equals the expectation, which holds only what
 * can be understood).
 *
 * The external set (tests/fixtures/nl-eval-external.json, issue 23: questions nobody on the team wrote)
 * gets a verdict per case, as the query service would answer (clarify.ts decides whether it asks):
 * - exact: runs at once, with the expected segment;
 * - clarification: nothing runs, the user is asked (with what was understood and choices); `rightChoice`
 *   says whether one of the choices is the expected segment;
 * - flagged: runs a different segment, but the reply names an assumption it made;
 * - confident-wrong: runs a different segment with nothing flagged (the worst kind).
 * Unanswerable cases: honest = a clarification (nothing runs, nothing charged) whose understood part
 * equals `expected`; `asks-differs` = asks, but understood something else; `runs` = ran anyway.
 *
 * Held-out cases are scored for figures only: nothing here prints them (see scripts/eval-nl.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { segmentSchema, type Segment } from '../ast.js';
import { clarificationFor, type Clarification } from '../clarify.js';
import { normalizeSegment } from '../normalize.js';
import { parseSegment, type ParseOptions, type ParseResult } from '../parser/index.js';

export interface EvalCase {
  id: number;
  family: string;
  set: 'tuning' | 'heldout';
  question: string;
  expected: unknown;
  unrecognized?: string[];
  unanswerable?: boolean;
  /** external set: blind-* (written from the brief) or real-* (public material) */
  origin?: string;
  /** external set: a definitional fix of the expectation, with its reason (the original is kept) */
  fix?: string;
}

export interface EvalFixture {
  now: string;
  timeZone: string;
  cases: EvalCase[];
}

export type Verdict = 'exact' | 'clarification' | 'flagged' | 'confident-wrong';
export type Honesty = 'honest' | 'asks-differs' | 'runs';

export interface CaseScore {
  c: EvalCase;
  got: ParseResult;
  /** undefined when the expectation itself is not a valid segment (a field the parser does not have yet) */
  expected?: Segment;
  /** the parsed segment equals the expectation (and the unrecognised phrases, when the case lists them) */
  exact: boolean;
  /** unanswerable cases: the service asks, and what it understood equals the expectation */
  honest?: boolean;
  /** what the service would ask; undefined when it runs at once */
  clarification?: Clarification;
  /** answerable cases, as the service answers */
  verdict?: Verdict;
  /** unanswerable cases, as the service answers */
  honesty?: Honesty;
  /** a clarification offers the expected segment as one of its choices */
  rightChoice?: boolean;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

export function loadEvalFixture(file = 'tests/fixtures/nl-eval.json'): EvalFixture {
  return JSON.parse(readFileSync(join(root, file), 'utf8')) as EvalFixture;
}

/**
 * The round an external case was written in: 1 (ids 1–367, half held out), 2 (368–527, all tuning), 3 (from 528,
 * written blind and collected from public material in session 31, half of each group held out by random.Random(33)),
 * 4 (from 878, written blind by two new writers in session 32, half of each writer held out by random.Random(44)),
 * 5 (from 1038, two more writers in session 32, half of each held out by random.Random(55)), 6 (from 1198, session 33,
 * random.Random(66)), 7 (from 1358, session 33, random.Random(77)), 8 (from 1518, session 34, random.Random(88)), 9 (from 1678, session 34,
 * random.Random(99)), 10 (from 1838, session 34, random.Random(1010)),
 * 11 (from 1998, session 34, random.Random(1111)), 12 (from 2158, session 35, random.Random(1212)),
 * 13 (from 2318, session 35, random.Random(1313)), 14 (from 2478, session 35, random.Random(1414)),
 * 15 (from 2638, session 35, random.Random(1515)), 16 (from 2798, session 36, random.Random(1616)), 17 (from 2958, session 36, random.Random(1717)).
 */
export function externalRound(c: Pick<EvalCase, 'id'>): 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 {
  return c.id >= 2958 ? 17 : c.id >= 2798 ? 16 : c.id >= 2638 ? 15 : c.id >= 2478 ? 14 : c.id >= 2318 ? 13 : c.id >= 2158 ? 12 : c.id >= 1998 ? 11 : c.id >= 1838 ? 10 : c.id >= 1678 ? 9 : c.id >= 1518 ? 8 : c.id >= 1358 ? 7 : c.id >= 1198 ? 6 : c.id >= 1038 ? 5 : c.id >= 878 ? 4 : c.id >= 528 ? 3 : c.id >= 368 ? 2 : 1;
}

export function loadExternalFixture(): EvalFixture {
  return loadEvalFixture('tests/fixtures/nl-eval-external.json');
}

/** Nothing applied: the service answers "not understood" without running or charging. */
export const nothingApplied = (s: Segment) => !s.where && !s.sort && s.limit === undefined;

type ScoreOptions = Pick<ParseOptions, 'now' | 'timeZone' | 'knownCompanies' | 'vocabulary'>;

export function scoreCase(c: EvalCase, opts: ScoreOptions): CaseScore {
  const got = parseSegment(c.question, opts);
  const parsed = segmentSchema.safeParse(c.expected);
  const expected = parsed.success ? parsed.data : undefined;
  const key = (s: Segment) => JSON.stringify(normalizeSegment(s, opts));
  const same = expected !== undefined && key(expected) === key(got.segment);
  const unrecOk = c.unrecognized === undefined || JSON.stringify(c.unrecognized) === JSON.stringify(got.unrecognized);
  const exact = same && unrecOk;
  const clarification = clarificationFor(got, opts);
  // the service asks (a clarification, or "not understood" when nothing was understood) before running
  const asks = clarification !== undefined;
  const score: CaseScore = { c, got, expected, exact, clarification };
  if (c.unanswerable) {
    score.honest = asks && same;
    score.honesty = !asks ? 'runs' : same ? 'honest' : 'asks-differs';
  } else {
    score.verdict = asks ? 'clarification' : same ? 'exact' : got.notes.some((n) => n.startsWith('Assumed')) ? 'flagged' : 'confident-wrong';
  }
  if (asks && expected) score.rightChoice = clarification.choices.some((ch) => key(ch.segment) === key(expected));
  return score;
}

export interface EvalSummary {
  scores: CaseScore[];
  tuning: { n: number; exact: number };
  heldout: { n: number; exact: number };
  unanswerable: { n: number; honest: number };
}

/** Scores a fixture as the service parses: with the CRM's values (`vocabulary`) when given. */
export function scoreAll(fixture: EvalFixture = loadEvalFixture(), extra: Pick<ScoreOptions, 'knownCompanies' | 'vocabulary'> = {}): EvalSummary {
  const opts = { now: fixture.now, timeZone: fixture.timeZone, ...extra };
  const scores = fixture.cases.map((c) => scoreCase(c, opts));
  const count = (xs: CaseScore[], f: (s: CaseScore) => boolean | undefined) => xs.filter(f).length;
  const tuning = scores.filter((s) => s.c.set !== 'heldout');
  const heldout = scores.filter((s) => s.c.set === 'heldout');
  const unanswerable = scores.filter((s) => s.c.unanswerable);
  return {
    scores,
    tuning: { n: tuning.length, exact: count(tuning, (s) => s.exact) },
    heldout: { n: heldout.length, exact: count(heldout, (s) => s.exact) },
    unanswerable: { n: unanswerable.length, honest: count(unanswerable, (s) => s.honest) },
  };
}

/** Verdict counts of one half of the external set (answerable and unanswerable cases apart). */
export interface VerdictTally {
  answerable: Record<Verdict, number> & { n: number; rightChoice: number };
  unanswerable: Record<Honesty, number> & { n: number };
}

export function tallyVerdicts(scores: CaseScore[], set: 'tuning' | 'heldout'): VerdictTally {
  const t: VerdictTally = {
    answerable: { n: 0, exact: 0, clarification: 0, flagged: 0, 'confident-wrong': 0, rightChoice: 0 },
    unanswerable: { n: 0, honest: 0, 'asks-differs': 0, runs: 0 },
  };
  for (const s of scores) {
    if (s.c.set !== set) continue;
    if (s.c.unanswerable) {
      t.unanswerable.n++;
      t.unanswerable[s.honesty as Honesty]++;
    } else {
      t.answerable.n++;
      t.answerable[s.verdict as Verdict]++;
      if (s.verdict === 'clarification' && s.rightChoice) t.answerable.rightChoice++;
    }
  }
  return t;
}

export interface PerturbationResult {
  variants: number;
  /** runs at once with the expected segment */
  same: number;
  /** asks first */
  asks: number;
  /** runs a segment other than the expected one (confident or flagged): the check fails on these */
  wrong: Array<{ c: EvalCase; kind: string; text: string; got: ParseResult }>;
}

/**
 * The perturbation check (issue 23): every tuning question, mechanically varied (testing/perturb.ts), must
 * run with its expected segment or ask first; it never runs a different segment.
 */
export function perturbationCheck(fixture: EvalFixture, variantsOf: (q: string) => Array<{ kind: string; text: string }>, extra: Pick<ScoreOptions, 'vocabulary'> = {}): PerturbationResult {
  const opts = { now: fixture.now, timeZone: fixture.timeZone, ...extra };
  const out: PerturbationResult = { variants: 0, same: 0, asks: 0, wrong: [] };
  for (const c of fixture.cases) {
    if (c.set !== 'tuning') continue;
    for (const v of variantsOf(c.question)) {
      const s = scoreCase({ ...c, question: v.text, unrecognized: undefined }, opts);
      out.variants++;
      if (s.clarification) out.asks++;
      else if (s.exact) out.same++;
      else out.wrong.push({ c, kind: v.kind, text: v.text, got: s.got });
    }
  }
  return out;
}
