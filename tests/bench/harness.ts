// What a benchmark module gives the runner (tests/bench/run.ts), and how the runner turns it into
// results: each figure is measured over several rounds, next to a baseline measured in the same run
// (so the figures read as ratios on whatever machine ran them), and checked against its target.
import { spread, type Spread } from './stats.js';

export interface BenchContext {
  /** A short smoke run: few rounds, small data, seconds instead of minutes. */
  quick: boolean;
  /** Rounds to measure (the runner's --rounds, or the bench's own default). */
  rounds(defaultRounds: number, quickRounds?: number): number;
  /** A numeric command-line option (--users 50), else the default (or the quick default). */
  num(name: string, defaultValue: number, quickValue?: number): number;
  /** A text option (--mode embedded), else the default. */
  str(name: string, defaultValue: string): string;
  /** Progress for the person watching; goes to stderr. */
  log(message: string): void;
}

export interface Target {
  /** What the target bounds: the figure itself or its ratio to the baseline. */
  of: 'value' | 'ratio';
  max?: number;
  min?: number;
}

export interface FigureInput {
  id: string;
  label: string;
  /** ms, kB, MB, req/s, count, ratio... */
  unit: string;
  /** One value per round. */
  rounds: number[];
  /** The same kind of figure for something simpler, measured in the same rounds (same order). */
  baseline?: { label: string; rounds: number[] };
  target?: Target;
  /** A target checked elsewhere (a browser test): reported, not measured here. */
  coveredBy?: { target: string; by: string };
  note?: string;
}

export interface Bench {
  name: string;
  title: string;
  run(ctx: BenchContext): Promise<FigureInput[]>;
}

export type Status = 'pass' | 'fail' | 'info' | 'covered';

export interface FigureResult {
  id: string;
  label: string;
  unit: string;
  rounds: number[];
  value: Spread;
  baseline?: { label: string; rounds: number[]; value: Spread };
  /** value ÷ baseline per round, then summarized. */
  ratio?: Spread;
  target?: Target & { text: string };
  status: Status;
  note?: string;
}

export function targetText(t: Target, unit: string): string {
  const u = t.of === 'ratio' ? '× baseline' : unit === 'ratio' || unit === 'count' ? '' : ` ${unit}`;
  if (t.min !== undefined && t.min === t.max) return `= ${t.min}${u}`;
  const parts = [t.min !== undefined ? `≥ ${t.min}${u}` : '', t.max !== undefined ? `≤ ${t.max}${u}` : ''].filter(Boolean);
  return parts.join(' and ');
}

export function evaluateFigure(f: FigureInput): FigureResult {
  const value = spread(f.rounds);
  const base = f.baseline && { label: f.baseline.label, rounds: f.baseline.rounds, value: spread(f.baseline.rounds) };
  // Per-round ratios: a round's figure against the baseline of the same round (the machine's load
  // at that moment applies to both). A baseline with fewer rounds (a constant) is reused.
  const ratio = base && base.rounds.length ? spread(f.rounds.map((v, i) => v / base.rounds[i % base.rounds.length])) : undefined;
  if (f.coveredBy) {
    return { id: f.id, label: f.label, unit: f.unit, rounds: f.rounds, value, status: 'covered', target: { of: 'value', text: `${f.coveredBy.target} (covered by ${f.coveredBy.by})` }, note: f.note };
  }
  let status: Status = 'info';
  if (f.target) {
    const x = f.target.of === 'ratio' ? ratio?.median : value.median;
    const ok = x !== undefined && Number.isFinite(x) && (f.target.min === undefined || x >= f.target.min) && (f.target.max === undefined || x <= f.target.max);
    status = ok ? 'pass' : 'fail';
  }
  return {
    id: f.id,
    label: f.label,
    unit: f.unit,
    rounds: f.rounds,
    value,
    ...(base ? { baseline: base } : {}),
    ...(ratio ? { ratio } : {}),
    ...(f.target ? { target: { ...f.target, text: targetText(f.target, f.unit) } } : {}),
    status,
    ...(f.note ? { note: f.note } : {}),
  };
}

/** 3 significant digits, thousands separated: enough for figures that move by a few percent. */
export function num(x: number): string {
  if (!Number.isFinite(x)) return '-';
  if (Number.isInteger(x)) return x.toLocaleString('en-US');
  const a = Math.abs(x);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatValue(r: FigureResult): string {
  if (!r.value.n) return '-';
  const unit = r.unit === 'ratio' || r.unit === 'count' ? '' : ` ${r.unit}`;
  const range = r.value.n > 1 ? ` (${num(r.value.min)}–${num(r.value.max)})` : '';
  return `${num(r.value.median)}${unit}${range}`;
}

export function formatRatio(r: FigureResult): string {
  if (!r.ratio) return '';
  return `${num(r.ratio.median)}×${r.ratio.n > 1 ? ` (${num(r.ratio.min)}–${num(r.ratio.max)})` : ''}`;
}

export function formatBaseline(r: FigureResult): string {
  if (!r.baseline) return '';
  const unit = r.unit === 'ratio' || r.unit === 'count' ? '' : ` ${r.unit}`;
  return `${r.baseline.label}: ${num(r.baseline.value.median)}${unit}`;
}

export const STATUS_TEXT: Record<Status, string> = { pass: 'pass', fail: 'FAIL', info: '-', covered: 'covered' };
