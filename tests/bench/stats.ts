// Small helpers shared by the benchmarks.
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function summarize(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return { n: xs.length, p50: percentile(s, 50), p95: percentile(s, 95), max: s[s.length - 1], sum: xs.reduce((a, b) => a + b, 0) };
}

export const ms = (x: number) => `${x.toFixed(1)} ms`;
