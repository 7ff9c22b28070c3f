/**
 * `crm export` memory and throughput: `npx tsx tests/bench/export-memory.ts [contacts...]` (default
 * 20,000 and 100,000: the export's memory should not grow with the number of customers)
 *
 * For each size, starts the app on the test PostgreSQL with a sandbox of that many contacts, signs a user in with
 * the CLI, runs the question "customers" (every contact) and exports it with `crm export -o file` as
 * a subprocess — the bin users run, on its bundle — sampling the subprocess's resident memory from
 * /proc every 10 ms (VmRSS, and VmHWM, the kernel's own peak). Reported as figures, not asserted:
 *  - peak RSS of the export, and its growth over the baseline measured in the same run: the peak of
 *    `crm whoami` (the same start-up, one small request) — the target is a growth under 100 MB;
 *  - the same export with V8's old space capped at 24 MB: it completes, so what stays alive is a
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

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
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

buildCli();
for (const CONTACTS of sizes.length ? sizes : [20_000, 100_000]) {
  const t = await startTestApp({ SANDBOX_CONTACTS: String(CONTACTS) });
  try {
    const { email } = await connectedUser(t.app, t.url, 'enterprise');
    const home = mkdtempSync(path.join(os.tmpdir(), 'crm-bench-'));
    const login = await run(['login', '--server', t.url, '--email', email], home, 'pw-123456\n');
    if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
    const query = await run(['query', 'customers', '--json', '--limit', '1'], home);
    const answer = JSON.parse(query.stdout) as { resultCount: number; query: { queryId: string } };
    if (answer.resultCount !== CONTACTS) throw new Error(`expected ${CONTACTS} customers, got ${answer.resultCount}`);

    const baselines: number[] = [];
    for (let i = 0; i < 3; i++) baselines.push((await run(['whoami'], home)).peakRss);
    const baseline = Math.min(...baselines);

    gc();
    const serverBefore = process.memoryUsage().rss;
    const file = path.join(home, 'export.csv');
    const exported = await run(['export', answer.query.queryId, '-o', file], home);
    if (exported.code !== 0) throw new Error(`export failed: ${exported.stderr}`);
    gc();
    const serverAfter = process.memoryUsage().rss;
    const rows = readFileSync(file, 'utf8').split('\n').length - 2;
    const capped = await run(['export', answer.query.queryId, '-o', file], home, '', [`--max-old-space-size=${CAP_MB}`]);
    if (capped.code !== 0) throw new Error(`export with the old space capped at ${CAP_MB} MB failed: ${capped.stderr}`);

    // For scale: the same customers held in memory at once.
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const held = parse(readFileSync(file, 'utf8'), { columns: true, cast: true }) as unknown[];
    gc();
    const heldBytes = process.memoryUsage().heapUsed - heapBefore;

    console.log(`\ncrm export of ${rows.toLocaleString('en-US')} customers (${mb(statSync(file).size)} of CSV)`);
    console.log(`  time             ${exported.seconds.toFixed(1)} s, ${Math.round(rows / exported.seconds).toLocaleString('en-US')} customers/s (one CRM search per page of 200, 5 searches/s)`);
    console.log(`  peak RSS         ${mb(exported.peakRss)} (baseline: crm whoami peaks at ${mb(baseline)})`);
    console.log(`  RSS growth       ${mb(exported.peakRss - baseline)} over the baseline (target < 100 MB)`);
    console.log(`  old space ${CAP_MB} MB  completes in ${capped.seconds.toFixed(1)} s, peak RSS ${mb(capped.peakRss)}, growth ${mb(capped.peakRss - baseline)}`);
    console.log(`  for scale        the ${held.length.toLocaleString('en-US')} customers held as objects take ${mb(heldBytes)} of heap`);
    console.log(`  server RSS       ${mb(serverBefore)} before, ${mb(serverAfter)} after the export`);
    if (rows !== CONTACTS) throw new Error(`the file has ${rows} rows, expected ${CONTACTS}`);
  } finally {
    await t.close();
  }
}
