// The benchmark runner's quick mode over one cheap bench (no database): results.json has the shape
// the README script and readers rely on. Figures are never asserted against targets here — timings
// on a shared CI machine are not test material; the benches themselves report pass/fail.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { evaluateFigure } from './harness.js';
import { renderTable, replaceBetweenMarkers, START, END } from './readme.js';
import { parseArgs, type ResultsFile } from './run.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const spreadShape = { n: expect.any(Number), median: expect.any(Number), p25: expect.any(Number), p75: expect.any(Number), min: expect.any(Number), max: expect.any(Number) };

describe('npm run bench -- parse-compile --quick', () => {
  it('writes one entry with every figure summarized over its rounds, a same-run baseline and a verdict', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'crm-bench-test-')), 'results.json');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'tests/bench/run.ts', 'parse-compile', '--quick', '--rounds', '2', '--out', out], { cwd: ROOT });
    expect(stdout).toMatch(/parse-compile\s+parse\+compile p95/);
    const results = JSON.parse(readFileSync(out, 'utf8')) as ResultsFile;
    expect(results.benches).toHaveLength(1);
    const [b] = results.benches;
    expect(b).toMatchObject({ name: 'parse-compile', quick: true, machine: { cores: expect.any(Number), node: process.version, loadavg: spreadShape } });
    expect(b.error).toBeUndefined();
    expect(b.figures.map((f) => f.id)).toEqual(['p50', 'p95', 'cold-p95', 'companies-p95']);
    for (const f of b.figures) {
      expect(f.rounds).toHaveLength(2);
      expect(f.value).toEqual(spreadShape);
      expect(f.baseline?.value).toEqual(spreadShape);
      expect(f.ratio).toEqual(spreadShape);
      expect(['pass', 'fail', 'info']).toContain(f.status);
    }
    expect(b.figures[1].target).toMatchObject({ of: 'value', max: 5, text: '≤ 5 ms' });
    // the README block renders from it
    const table = renderTable(results);
    expect(table).toContain('| `parse-compile` (quick) | parse+compile p95 |');
    expect(replaceBetweenMarkers(`a\n${START}\nold\n${END}\nb`, table)).toBe(`a\n${START}\n${table}\n${END}\nb`);
  }, 120_000);
});

describe('evaluateFigure', () => {
  it('takes the ratio per round against the same round, and checks the target on the median', () => {
    const f = evaluateFigure({ id: 'x', label: 'x', unit: 'req/s', rounds: [50, 60, 70], baseline: { label: 'b', rounds: [100, 100, 200] }, target: { of: 'ratio', min: 0.5 } });
    expect(f.ratio).toMatchObject({ median: 0.5, min: 0.35, max: 0.6 });
    expect(f.status).toBe('pass');
    expect(evaluateFigure({ id: 'y', label: 'y', unit: 'ms', rounds: [6, 7], target: { of: 'value', max: 5 } }).status).toBe('fail');
    expect(evaluateFigure({ id: 'z', label: 'z', unit: 'count', rounds: [], coveredBy: { target: '≤ 2', by: 'e2e' } }).status).toBe('covered');
  });
});

describe('parseArgs', () => {
  it('reads bench names, flags and options in any order', () => {
    expect(parseArgs(['--quick', 'concurrency', '--users', '50', '--duration=20'])).toMatchObject({ names: ['concurrency'], quick: true, options: { users: '50', duration: '20' } });
  });
});
