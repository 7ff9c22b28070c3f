/**
 * Copies tests/bench/results.json into the README's benchmark table.   npm run bench:readme [-- results.json]
 *
 * Replaces what sits between `<!-- bench:start -->` and `<!-- bench:end -->` with the machine, the
 * load average while each bench ran, and one row per figure, so the README shows what was measured
 * rather than what someone typed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatBaseline, formatRatio, formatValue, STATUS_TEXT } from './harness.js';
import { DEFAULT_RESULTS, readResults, type ResultsFile } from './run.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const START = '<!-- bench:start -->';
export const END = '<!-- bench:end -->';

const cell = (s: string) => s.replace(/\|/g, '\\|');

export function renderTable(results: ResultsFile): string {
  const benches = results.benches;
  if (!benches.length) throw new Error('no results: run npm run bench first');
  const machines = [...new Set(benches.map((b) => `${b.machine.cores} cores (${b.machine.cpu}), node ${b.machine.node}`))];
  const dates = benches.map((b) => b.startedAt.slice(0, 10)).sort();
  const lines = [
    `Measured ${dates[0] === dates[dates.length - 1] ? dates[0] : `${dates[0]} to ${dates[dates.length - 1]}`} on ${machines.join('; ')}.`,
    `Load average (1 min) while each bench ran: ${benches.map((b) => `${b.name} ${b.machine.loadavg.median.toFixed(1)}`).join(', ')}` +
      ` — the machine is shared, so read figures against their same-run baseline.${benches.some((b) => b.quick) ? ' Some rows come from a --quick run.' : ''}`,
    '',
    '| bench | figure | median (min–max over rounds) | baseline, same run | ratio | target | result |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const b of benches) {
    const name = `\`${b.name}\`${b.quick ? ' (quick)' : ''}`;
    if (b.error) lines.push(`| ${name} | crashed: ${cell(b.error.split('\n')[0])} | | | | | FAIL |`);
    for (const f of b.figures) {
      lines.push(`| ${name} | ${cell(f.label)} | ${cell(formatValue(f))} | ${cell(formatBaseline(f))} | ${cell(formatRatio(f))} | ${cell(f.target?.text ?? '')} | ${STATUS_TEXT[f.status]} |`);
    }
  }
  return lines.join('\n');
}

export function replaceBetweenMarkers(text: string, content: string): string {
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`README has no ${START} … ${END} block`);
  return `${text.slice(0, a + START.length)}\n${content}\n${text.slice(b)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = path.resolve(process.argv[2] ?? DEFAULT_RESULTS);
  const readme = path.join(ROOT, 'README.md');
  writeFileSync(readme, replaceBetweenMarkers(readFileSync(readme, 'utf8'), renderTable(readResults(file))));
  console.log(`README.md: benchmark table from ${path.relative(process.cwd(), file)}`);
}
