/**
 * The benchmark runner.   npm run bench [-- <name>...] [--quick] [--rounds N] [--duration S] [--users N] [--out file]
 *
 * Runs each named benchmark (default: all of BENCHES) in its own child process — a fresh heap and
 * event loop each, so one bench's garbage or timers never weigh on the next — collects its figures,
 * summarizes them (median and spread over the rounds, ratio to the baseline of the same run,
 * pass/fail against the target), prints one table and merges them into tests/bench/results.json
 * (a bench that was not run keeps its previous entry). `npm run bench:readme` copies that file into
 * the README. Exit code 1 when a bench crashed; a missed target is a figure, not a crash.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { evaluateFigure, formatBaseline, formatRatio, formatValue, STATUS_TEXT, type Bench, type BenchContext, type FigureInput, type FigureResult } from './harness.js';
import { spread, type Spread } from './stats.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
export const DEFAULT_RESULTS = path.join(HERE, 'results.json');

/** Every benchmark, in the order `npm run bench` runs them (cheap ones first). */
export const BENCHES = ['parse-compile', 'sandbox-search', 'pipedrive-calls', 'web-bundle', 'graphql-overhead', 'query-e2e', 'generation', 'export-memory', 'web-export-memory', 'concurrency', 'salesforce-calls', 'zoho-calls', 'contacts-import'] as const;

export interface Machine {
  cores: number;
  cpu: string;
  node: string;
  platform: string;
  /** 1-minute load average sampled every few seconds while the bench ran. */
  loadavg: Spread;
}

export interface BenchResult {
  name: string;
  title: string;
  quick: boolean;
  options: Record<string, string>;
  startedAt: string;
  seconds: number;
  machine: Machine;
  figures: FigureResult[];
  error?: string;
}

export interface ResultsFile {
  updatedAt: string;
  benches: BenchResult[];
}

interface Args {
  names: string[];
  options: Record<string, string>;
  quick: boolean;
  out: string;
  child?: { name: string; result: string };
}

const FLAGS = new Set(['quick']);

export function parseArgs(argv: string[]): Args {
  const names: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      names.push(a);
      continue;
    }
    const [k, inline] = a.slice(2).split('=', 2);
    if (inline !== undefined) options[k] = inline;
    // a flag never takes a value: `--quick parse-compile` names a bench
    else if (!FLAGS.has(k) && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) options[k] = argv[++i];
    else options[k] = 'true';
  }
  const { quick, out, child, result, ...rest } = options;
  return {
    names,
    options: rest,
    quick: quick === 'true',
    out: path.resolve(out ?? DEFAULT_RESULTS),
    ...(child ? { child: { name: child, result } } : {}),
  };
}

async function loadBench(name: string): Promise<Bench> {
  const mod = (await import(pathToFileURL(path.join(HERE, `${name}.ts`)).href)) as { bench?: Bench };
  if (!mod.bench) throw new Error(`tests/bench/${name}.ts exports no bench`);
  return mod.bench;
}

function contextFor(quick: boolean, options: Record<string, string>): BenchContext {
  const numOpt = (name: string): number | undefined => {
    if (options[name] === undefined) return undefined;
    const n = Number(options[name]);
    if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got ${options[name]}`);
    return n;
  };
  return {
    quick,
    rounds: (d, q = 2) => numOpt('rounds') ?? (quick ? q : d),
    num: (name, d, q) => numOpt(name) ?? (quick && q !== undefined ? q : d),
    str: (name, d) => options[name] ?? d,
    log: (m) => process.stderr.write(`  ${m}\n`),
  };
}

/** Child mode: run one bench, write its raw figures to the result file. */
async function runChild(name: string, resultFile: string, quick: boolean, options: Record<string, string>) {
  let out: { title: string; figures?: FigureInput[]; error?: string } = { title: name };
  try {
    const bench = await loadBench(name);
    out = { title: bench.title, figures: await bench.run(contextFor(quick, options)) };
  } catch (err) {
    out.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  }
  writeFileSync(resultFile, JSON.stringify(out));
  // Benches start servers, pools and timers; whatever they leave open must not keep the child alive.
  process.exit(out.error ? 1 : 0);
}

function machine(load: number[]): Machine {
  return { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${os.type()} ${os.release()}`, loadavg: spread(load) };
}

/** Runs one bench in a child process, sampling the load average meanwhile. */
export async function runOne(name: string, quick: boolean, options: Record<string, string>): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-bench-run-'));
  const resultFile = path.join(dir, 'result.json');
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', name, '--result', resultFile, ...(quick ? ['--quick'] : [])];
  for (const [k, v] of Object.entries(options)) args.push(`--${k}=${v}`);
  const startedAt = new Date();
  const load: number[] = [os.loadavg()[0]];
  const sampler = setInterval(() => load.push(os.loadavg()[0]), 5000);
  const code = await new Promise<number>((resolve) => {
    // stdout of a bench is progress for the person watching: keep the runner's stdout for the table
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', process.stderr, 'inherit'] });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  clearInterval(sampler);
  load.push(os.loadavg()[0]);
  const seconds = (Date.now() - startedAt.getTime()) / 1000;
  const raw = existsSync(resultFile)
    ? (JSON.parse(readFileSync(resultFile, 'utf8')) as { title: string; figures?: FigureInput[]; error?: string })
    : { title: name, error: `the bench process exited with code ${code} before writing its results` };
  return {
    name,
    title: raw.title,
    quick,
    options,
    startedAt: startedAt.toISOString(),
    seconds: Math.round(seconds),
    machine: machine(load),
    figures: (raw.figures ?? []).map(evaluateFigure),
    ...(raw.error ? { error: raw.error } : {}),
  };
}

/** 5 significant digits are plenty for timings and keep the file readable. */
const roundNumbers = (_k: string, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(5)) : v);

export function readResults(file: string): ResultsFile {
  if (!existsSync(file)) return { updatedAt: new Date(0).toISOString(), benches: [] };
  return JSON.parse(readFileSync(file, 'utf8')) as ResultsFile;
}

/** New results replace the same benches' old ones; the rest stay, in BENCHES order. */
export function mergeResults(old: ResultsFile, fresh: BenchResult[]): ResultsFile {
  const byName = new Map(old.benches.map((b) => [b.name, b]));
  for (const b of fresh) byName.set(b.name, b);
  const order = (n: string) => {
    const i = (BENCHES as readonly string[]).indexOf(n);
    return i < 0 ? BENCHES.length : i;
  };
  return { updatedAt: new Date().toISOString(), benches: [...byName.values()].sort((a, b) => order(a.name) - order(b.name)) };
}

export function formatTable(results: BenchResult[]): string {
  const rows: string[][] = [['bench', 'figure', 'median (min–max)', 'baseline (same run)', 'ratio', 'target', 'result']];
  for (const b of results) {
    if (b.error) rows.push([b.name, 'ERROR', b.error.split('\n')[0], '', '', '', 'FAIL']);
    for (const f of b.figures) rows.push([b.name, f.label, formatValue(f), formatBaseline(f), formatRatio(f), f.target?.text ?? '', STATUS_TEXT[f.status]]);
  }
  const widths = rows[0].map((_h, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.child) return runChild(args.child.name, args.child.result, args.quick, args.options);
  const unknown = args.names.filter((n) => !(BENCHES as readonly string[]).includes(n));
  if (unknown.length) {
    process.stderr.write(`unknown bench: ${unknown.join(', ')} (known: ${BENCHES.join(', ')})\n`);
    process.exit(2);
  }
  const names = args.names.length ? args.names : [...BENCHES];
  const fresh: BenchResult[] = [];
  for (const name of names) {
    process.stderr.write(`\n== ${name}${args.quick ? ' (quick)' : ''}\n`);
    const r = await runOne(name, args.quick, args.options);
    fresh.push(r);
    process.stderr.write(`== ${name}: ${r.error ? 'crashed' : `${r.figures.length} figures`} in ${r.seconds} s\n`);
    // written after every bench, so a long run interrupted late keeps what it measured
    writeFileSync(args.out, `${JSON.stringify(mergeResults(readResults(args.out), [r]), roundNumbers, 2)}\n`);
  }
  const m = machine([]);
  console.log(`\n${m.cores} cores (${m.cpu}), node ${m.node}; load average during the run: ${fresh.map((r) => `${r.name} ${r.machine.loadavg.median.toFixed(1)}`).join(', ')}\n`);
  console.log(formatTable(fresh));
  console.log(`\nresults: ${path.relative(process.cwd(), args.out)}`);
  if (fresh.some((r) => r.error)) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
