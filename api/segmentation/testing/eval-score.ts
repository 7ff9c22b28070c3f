/**
 * Scoring of the natural-language evaluation set (tests/fixtures/nl-eval.json), shared by
 * `npm run eval:nl` and the regression test. Three figures:
 * - exact match on the tuning set (cases the parser may be tuned on);
 * - exact match on the held-out set (cases written before a parser change and never tuned on);
 * - honesty on the unanswerable cases (either set): no invented condition (the parsed segment equals
 *   the expectation, which holds only what can be understood), the rest named in `unrecognized`, and
 *   when nothing could be understood nothing is applied (no condition, sort or limit: the query is not
 *   run and not charged).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { segmentSchema, type Segment } from '../ast.js';
import { normalizeSegment } from '../normalize.js';
import { parseSegment, type ParseResult } from '../parser/index.js';
import type { KnownCompanies } from '../parser/known-companies.js';

export interface EvalCase {
  id: number;
  family: string;
  set: 'tuning' | 'heldout';
  question: string;
  expected: unknown;
  unrecognized?: string[];
  unanswerable?: boolean;
}

export interface EvalFixture {
  now: string;
  timeZone: string;
  cases: EvalCase[];
}

export interface CaseScore {
  c: EvalCase;
  got: ParseResult;
  /** undefined when the expectation itself is not a valid segment (a field the parser does not have yet) */
  expected?: Segment;
  exact: boolean;
  honest?: boolean;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

export function loadEvalFixture(): EvalFixture {
  return JSON.parse(readFileSync(join(root, 'tests/fixtures/nl-eval.json'), 'utf8')) as EvalFixture;
}

/** Nothing applied: the service answers "not understood" without running or charging. */
export const nothingApplied = (s: Segment) => !s.where && !s.sort && s.limit === undefined;

export function scoreCase(c: EvalCase, opts: { now: string; timeZone: string; knownCompanies?: KnownCompanies }): CaseScore {
  const got = parseSegment(c.question, opts);
  const parsed = segmentSchema.safeParse(c.expected);
  const expected = parsed.success ? parsed.data : undefined;
  const same = expected !== undefined && JSON.stringify(normalizeSegment(expected, opts)) === JSON.stringify(normalizeSegment(got.segment, opts));
  const unrecOk = c.unrecognized === undefined || JSON.stringify(c.unrecognized) === JSON.stringify(got.unrecognized);
  const exact = same && unrecOk;
  let honest: boolean | undefined;
  if (c.unanswerable) {
    honest = same && got.unrecognized.length > 0 && (expected === undefined || !nothingApplied(expected) || nothingApplied(got.segment));
  }
  return { c, got, expected, exact, honest };
}

export interface EvalSummary {
  scores: CaseScore[];
  tuning: { n: number; exact: number };
  heldout: { n: number; exact: number };
  unanswerable: { n: number; honest: number };
}

/** `knownCompanies`: score as the service parses, with the CRM's own company names. */
export function scoreAll(fixture: EvalFixture = loadEvalFixture(), knownCompanies?: KnownCompanies): EvalSummary {
  const opts = { now: fixture.now, timeZone: fixture.timeZone, knownCompanies };
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
