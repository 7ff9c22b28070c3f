/** The evaluation set (tests/fixtures/nl-eval.json) as a regression guard: at least 95% exact matches. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { segmentSchema } from '../ast.js';
import { normalizeSegment } from '../normalize.js';
import { parseSegment } from './index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixture = JSON.parse(readFileSync(join(root, 'tests/fixtures/nl-eval.json'), 'utf8')) as {
  now: string;
  timeZone: string;
  cases: Array<{ id: number; question: string; expected: unknown; unrecognized?: string[] }>;
};

it('parses at least 95% of the evaluation questions exactly', () => {
  const opts = { now: fixture.now, timeZone: fixture.timeZone };
  expect(fixture.cases.length).toBeGreaterThanOrEqual(150);
  const failures: string[] = [];
  for (const c of fixture.cases) {
    const expected = segmentSchema.parse(c.expected);
    const got = parseSegment(c.question, opts);
    const same = JSON.stringify(normalizeSegment(expected, opts)) === JSON.stringify(normalizeSegment(got.segment, opts));
    const unrecOk = c.unrecognized === undefined || JSON.stringify(c.unrecognized) === JSON.stringify(got.unrecognized);
    if (!same || !unrecOk) failures.push(`#${c.id} ${c.question}: ${JSON.stringify(got.segment)} ${JSON.stringify(got.unrecognized)}`);
  }
  const accuracy = 1 - failures.length / fixture.cases.length;
  expect(accuracy, failures.join('\n')).toBeGreaterThanOrEqual(0.95);
});
