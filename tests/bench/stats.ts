// Small helpers shared by the benchmarks and their runner (tests/bench/run.ts).
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function summarize(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return { n: xs.length, p50: percentile(s, 50), p95: percentile(s, 95), max: s[s.length - 1], sum: xs.reduce((a, b) => a + b, 0) };
}

/** Median and spread of a few per-round figures (interpolated quartiles: rounds are few). */
export interface Spread {
  n: number;
  median: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
}

function interpolated(sorted: number[], q: number): number {
  const i = q * (sorted.length - 1);
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (i - lo);
}

export function spread(xs: number[]): Spread {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return { n: 0, median: NaN, p25: NaN, p75: NaN, min: NaN, max: NaN };
  return { n: s.length, median: interpolated(s, 0.5), p25: interpolated(s, 0.25), p75: interpolated(s, 0.75), min: s[0], max: s[s.length - 1] };
}

export const ms = (x: number) => `${x.toFixed(1)} ms`;
