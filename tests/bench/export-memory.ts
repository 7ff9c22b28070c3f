/**
 * `crm export` memory and throughput: `npm run bench -- export-memory [--contacts N] [--rounds 2]`
 * (default 20,000 and 100,000: the export's memory should not grow with the number of customers)
 *
 * For each size, starts the app on the test PostgreSQL with a sandbox of that many contacts, signs a user in with
 * the CLI, runs the question "customers" (every contact) and exports it with `crm export -o file` as
 * a subprocess — the bin users run, on its bundle — sampling the subprocess's resident memory from
 * /proc every 10 ms (VmRSS, and VmHWM, the kernel's own peak). Reported as figures, not asserted:
 *  - peak RSS of the export, and its growth over the baseline measured in the same run: the peak of
 *    `crm whoami` (the same start-up, one small request) — the target is a growth under 100 MB;
 *  - the same export (largest size, once) with V8's old space capped at 24 MB: it completes, so what stays alive is a
 *    page, not the export (without a cap V8 may leave garbage uncollected and the peak grows with
 *    the run's length, not with what is kept);
 *  - for scale, what holding every exported customer as objects costs (the file parsed into memory
 *    here, heap after a full GC);
 *  - rows per second (HubSpot's 5 searches/s per account bound it: one search per page of 200);
 *  - the server's RSS before and after (a page is read from the CRM per request: nothing accumulates).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse } from 'csv-parse/sync';
import { buildCli, BIN } from '../cli/run-crm.js';
import { connectedUser } from '../helpers/crm.js';
import { startTestApp } from '../helpers/test-app.js';
import type { Bench, BenchContext, FigureInput } from './harness.js';

const MB = 1024 * 1024;
/** V8's old space for the capped run: what the CLI itself needs, far less than the export's customers. */
const CAP_MB = 24;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function procKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null; // exited
  }
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
  peakRss: number;
}

/** Runs crm (with node flags, if any), sampling its memory until it exits. */
function run(args: string[], home: string, input = '', nodeFlags: string[] = []): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: home };
    delete env.FORCE_COLOR;
    const child = spawn(process.execPath, [...nodeFlags, BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let peak = 0;
    const sample = () => (peak = Math.max(peak, procKb(child.pid!, 'VmHWM') ?? 0, procKb(child.pid!, 'VmRSS') ?? 0));
    const timer = setInterval(sample, 10);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', () => sample());
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ code: code ?? -1, stdout, stderr, seconds: (performance.now() - started) / 1000, peakRss: peak });
    });
    child.stdin.end(input);
  });
}

async function measure(ctx: BenchContext, CONTACTS: number, capped: boolean): Promise<FigureInput[]> {
  const rounds = ctx.rounds(2, 1);
  const t = await startTestApp({ SANDBOX_CONTACTS: String(CONTACTS) });
  try {
    const { email } = await connectedUser(t.app, t.url, 'enterprise');
    const home = mkdtempSync(path.join(os.tmpdir(), 'crm-bench-'));
    const login = await run(['login', '--server', t.url, '--email', email], home, 'pw-123456\n');
    if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
    const query = await run(['query', 'customers', '--json', '--limit', '1'], home);
    const answer = JSON.parse(query.stdout) as { resultCount: number; query: { queryId: string } };
    if (answer.resultCount !== CONTACTS) throw new Error(`expected ${CONTACTS} customers, got ${answer.resultCount}`);
    const file = path.join(home, 'export.csv');
    const peak: number[] = [];
    const whoami: number[] = [];
    const growth: number[] = [];
    const rate: number[] = [];
    const serverGrowth: number[] = [];
    for (let r = 0; r < rounds; r++) {
      // baseline of the round: the same start-up with one small request (best of two: it is a floor)
      const baseline = Math.min((await run(['whoami'], home)).peakRss, (await run(['whoami'], home)).peakRss);
      gc();
      const serverBefore = process.memoryUsage().rss;
      const exported = await run(['export', answer.query.queryId, '-o', file, '--force'], home);
      if (exported.code !== 0) throw new Error(`export failed: ${exported.stderr}`);
      gc();
      const rows = readFileSync(file, 'utf8').split('\n').length - 2;
      if (rows !== CONTACTS) throw new Error(`the file has ${rows} rows, expected ${CONTACTS}`);
      peak.push(exported.peakRss / MB);
      whoami.push(baseline / MB);
      growth.push((exported.peakRss - baseline) / MB);
      rate.push(rows / exported.seconds);
      serverGrowth.push((process.memoryUsage().rss - serverBefore) / MB);
      ctx.log(`${CONTACTS} round ${r + 1}/${rounds}: ${exported.seconds.toFixed(1)} s, peak RSS ${mb(exported.peakRss)}, growth ${mb(exported.peakRss - baseline)} over crm whoami, ${mb(statSync(file).size)} of CSV`);
    }
    const size = CONTACTS.toLocaleString('en-US');
    const out: FigureInput[] = [
      { id: `peak-${CONTACTS}`, label: `crm export peak RSS, ${size} customers`, unit: 'MB', rounds: peak, baseline: { label: 'crm whoami peak RSS', rounds: whoami } },
      { id: `growth-${CONTACTS}`, label: `RSS growth over crm whoami, ${size}`, unit: 'MB', rounds: growth, target: { of: 'value', max: 100 } },
      { id: `rate-${CONTACTS}`, label: `customers/s, ${size}`, unit: '/s', rounds: rate, note: 'one CRM search per page of 200 at HubSpot\'s 5 searches/s' },
      { id: `server-${CONTACTS}`, label: `server RSS change over the export, ${size}`, unit: 'MB', rounds: serverGrowth },
    ];
    if (capped) {
      const c = await run(['export', answer.query.queryId, '-o', file, '--force'], home, '', [`--max-old-space-size=${CAP_MB}`]);
      ctx.log(`old space capped at ${CAP_MB} MB: exit ${c.code} in ${c.seconds.toFixed(1)} s, peak RSS ${mb(c.peakRss)}`);
      out.push({ id: `capped-${CONTACTS}`, label: `export completes with V8 old space ${CAP_MB} MB, ${size} (1 = yes)`, unit: 'count', rounds: [c.code === 0 ? 1 : 0], target: { of: 'value', min: 1, max: 1 } });
      // For scale: the same customers held in memory at once.
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const held = parse(readFileSync(file, 'utf8'), { columns: true, cast: true }) as unknown[];
      gc();
      out.push({ id: `held-${CONTACTS}`, label: `for scale: ${held.length.toLocaleString('en-US')} customers held as objects`, unit: 'MB', rounds: [(process.memoryUsage().heapUsed - heapBefore) / MB] });
    }
    return out;
  } finally {
    await t.close();
  }
}

export const bench: Bench = {
  name: 'export-memory',
  title: 'crm export memory and throughput',
  async run(ctx) {
    buildCli();
    const one = ctx.num('contacts', 0, 2000);
    const sizes = one ? [one] : [20_000, 100_000];
    const out: FigureInput[] = [];
    for (const n of sizes) out.push(...(await measure(ctx, n, n === sizes[sizes.length - 1])));
    return out;
  },
};
