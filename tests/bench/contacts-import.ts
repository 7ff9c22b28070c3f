/**
 * Contacts from a file at 100,000 rows: `npm run bench -- contacts-import [--rows N] [--rounds 2]`
 * (needs the test PostgreSQL).
 *
 * A HubSpot-style export of 100,000 synthetic people (a 16 MB CSV) is uploaded to the running app as a
 * user who registered with "Other" (streamed from disk, as the CLI sends it), previewed, and imported
 * the way the job workers run an import: in a process of its own (contacts-import-child.ts), whose peak
 * resident memory the kernel reports (VmHWM). Figures, each round:
 *  - upload + preview + import (the import's time in a worker that is already running), target under 30 s, and the import alone; baseline: the same
 *    file read by csv-parse alone (no mapping, no database), in this process;
 *  - peak RSS of the importing process (target under 200 MB); baseline: the same process opening the
 *    database without importing;
 *  - the API process's RSS growth while it receives the file (it is stored as it arrives).
 * Then questions over the 100,000 imported contacts: the product's CRM part of a question (compile,
 * exact count, the first 1,000 customers in order) p95 (target under 100 ms), and GraphQL runQuery end to
 * end p95; baseline: counting all of the user's imported contacts through the connector.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, statSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse';
import { build } from 'esbuild';
import { contactsExportLines } from '../../api/crm/synthetic-people/export.js';
import { generatePeople } from '../../api/crm/synthetic-people/index.js';
import { connectorForUser } from '../../api/services/crm.js';
import { parseQuestion } from '../../api/services/nl-parser.js';
import { MAX_STORED_RESULTS } from '../../api/services/queries.js';
import { fetchSegment } from '../../api/services/segment-runner.js';
import { registerUser } from '../helpers/crm.js';
import { mappingInput, preview, START } from '../helpers/imports.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { Bench, BenchContext, FigureInput } from './harness.js';
import { summarize } from './stats.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const MB = 1024 * 1024;

const QUESTIONS = [
  'customers in Europe who bought in the last 30 days with lifetime value over $5k',
  'leads in Canada',
  'top 10 customers by lifetime value',
  'subscribers who never purchased',
  'opportunities in North America with last purchase over $2,000',
  'customers in Germany or France',
  "paying customers who haven't bought in 6 months",
  'people at acme.com',
  'leads created this quarter',
  'customers in California with lifetime value between $1,000 and $10,000',
  'biggest spenders in Asia-Pacific',
  'contacts with no email',
  'customers not in Europe who bought last year',
  'leads or subscribers in the UK',
  'customers with lifetime value over 50000',
];

const RUN_QUERY = 'mutation($input: RunQueryInput!) { runQuery(input: $input) { hasError resultCount } }';

async function writeCsv(rows: number): Promise<string> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'crm-import-bench-')), `contacts-${rows}.csv`);
  const out = createWriteStream(file);
  for (const line of contactsExportLines(generatePeople({ count: rows, seed: 42 }))) if (!out.write(line)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  return file;
}

/**
 * The importing process as a worker runs it: contacts-import-child.ts bundled (esbuild, dependencies
 * from node_modules), run by plain node — tsx's loader would add its own memory to the figure.
 */
const CHILD = path.join(ROOT, 'node_modules/.cache/crm-bench/contacts-import-child.mjs');
async function buildChild(): Promise<void> {
  await build({ entryPoints: [path.join(HERE, 'contacts-import-child.ts')], outfile: CHILD, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
}

/** Runs the importing process: { ms, peakRss, status }. */
function child(databaseUrl: string, importId: string): Promise<{ ms: number; peakRss: number; status: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CHILD, databaseUrl, importId], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`child exited ${code}: ${out}`))));
  });
}

/** Streams the file as the upload's raw body (as crm import does); returns the import's Relay id. */
async function uploadFile(t: TestApp, cookie: string, file: string): Promise<string> {
  const res = await fetch(`${t.url}/api/crm/imports?name=${path.basename(file)}`, {
    method: 'POST',
    headers: { origin: t.url, cookie, 'content-length': String(statSync(file).size) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const body = await res.json();
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
  return body.importId;
}

async function csvParseMs(file: string): Promise<number> {
  const s = performance.now();
  let n = 0;
  for await (const _ of createReadStream(file).pipe(parse({ relax_column_count: true }))) n++;
  if (n < 2) throw new Error('empty CSV');
  return performance.now() - s;
}

async function measure(ctx: BenchContext): Promise<FigureInput[]> {
  const rows = ctx.num('rows', 100_000, 5000);
  const rounds = ctx.rounds(2, 1);
  await buildChild();
  const file = await writeCsv(rows);
  ctx.log(`${rows.toLocaleString('en-US')} rows: ${(statSync(file).size / MB).toFixed(1)} MB of CSV`);
  const t = await startTestApp({ SANDBOX_CONTACTS: '10' });
  // Imports run on the job workers (the child process here), as with RUN_WORKER=false in production.
  t.app.deps.jobs = { enqueue: async () => {} };
  try {
    const { c, userId } = await registerUser(t.url, { crmType: 'other' });
    const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const total: number[] = [];
    const importOnly: number[] = [];
    const parseOnly: number[] = [];
    const peak: number[] = [];
    const peakBase: number[] = [];
    const apiGrowth: number[] = [];
    for (let r = 0; r < rounds; r++) {
      parseOnly.push(await csvParseMs(file));
      peakBase.push((await child(t.db.url, '')).peakRss / MB);
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
      const s = performance.now();
      const id = await uploadFile(t, cookie, file);
      clearInterval(sampler);
      const uploadMs = performance.now() - s;
      const p = await preview(c, id);
      if (p.problems.total !== 0 || p.blocker) throw new Error(`unexpected preview: ${JSON.stringify(p.problems)} ${p.blocker}`);
      const started = await c.gql(START, { input: { importId: id, mapping: mappingInput(p) } });
      if (started.errors) throw new Error(JSON.stringify(started.errors));
      const uuid = Buffer.from(id, 'base64').toString('utf8').split(':')[1];
      const waited = performance.now() - s; // upload, preview, start
      const run = await child(t.db.url, uuid);
      // what a user waits with a worker already running: everything but this process's start-up
      total.push((waited + run.ms) / 1000);
      if (run.status !== 'active') throw new Error(`import ended ${run.status}`);
      const done = await t.app.deps.prisma.contactImport.findUniqueOrThrow({ where: { id: uuid } });
      if (done.importedCount !== rows) throw new Error(`imported ${done.importedCount} of ${rows}`);
      importOnly.push(run.ms / 1000);
      peak.push(run.peakRss / MB);
      apiGrowth.push((rssPeak - rssBefore) / MB);
      ctx.log(`round ${r + 1}/${rounds}: upload ${(uploadMs / 1000).toFixed(1)} s, import ${(run.ms / 1000).toFixed(1)} s, total ${total[r].toFixed(1)} s; importer peak RSS ${(run.peakRss / MB).toFixed(0)} MB (baseline ${peakBase[r].toFixed(0)} MB); API RSS +${apiGrowth[r].toFixed(0)} MB while receiving`);
    }

    // Questions over the imported contacts.
    const user = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    await t.app.deps.prisma.pricingTier.findUniqueOrThrow({ where: { name: 'enterprise' } }).then((tier) => t.app.deps.prisma.user.update({ where: { id: userId }, data: { currentTierId: tier.id } }));
    const questions = ctx.quick ? QUESTIONS.slice(0, 4) : QUESTIONS;
    const qRounds = ctx.rounds(3, 1);
    const crmP95: number[] = [];
    const crmP50: number[] = [];
    const gqlP95: number[] = [];
    const baseP50: number[] = [];
    const slowest = new Map<string, number>();
    // warm-up: JIT, the parser's indexes, the database's caches (as query-e2e does)
    for (const q of questions) await c.gql(RUN_QUERY, { input: { naturalLanguage: q } });
    for (let r = 0; r < qRounds; r++) {
      const crm: number[] = [];
      const gql: number[] = [];
      const base: number[] = [];
      for (let rep = 0; rep < 3; rep++) {
        for (const q of questions) {
          const ctxNow = { now: t.app.deps.now(), timeZone: 'UTC' };
          const { segment } = await parseQuestion(t.app.deps, q);
          const s = performance.now();
          const connector = await connectorForUser(t.app.deps, user);
          const plan = connector.compile(segment, ctxNow);
          await fetchSegment(connector, plan, ctxNow, { limit: MAX_STORED_RESULTS });
          crm.push(performance.now() - s);
          slowest.set(q, Math.max(slowest.get(q) ?? 0, crm[crm.length - 1]));
          const b = performance.now();
          await connector.count(connector.compile({ version: 1 }, ctxNow));
          base.push(performance.now() - b);
        }
      }
      for (const q of questions) {
        const s = performance.now();
        const g = await c.gql(RUN_QUERY, { input: { naturalLanguage: q } });
        gql.push(performance.now() - s);
        if (g.errors?.length || g.data?.runQuery.hasError) throw new Error(`runQuery failed: ${q}: ${JSON.stringify(g.errors ?? g.data)}`);
      }
      crmP95.push(summarize(crm).p95);
      crmP50.push(summarize(crm).p50);
      gqlP95.push(summarize(gql).p95);
      baseP50.push(summarize(base).p50);
      ctx.log(`questions round ${r + 1}/${qRounds}: CRM part p50 ${crmP50[r].toFixed(1)} ms, p95 ${crmP95[r].toFixed(1)} ms; runQuery p95 ${gqlP95[r].toFixed(1)} ms; count of all ${baseP50[r].toFixed(1)} ms`);
    }

    ctx.log(`slowest questions: ${[...slowest].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([q, ms]) => `"${q}" ${ms.toFixed(0)} ms`).join(', ')}`);
    const size = rows.toLocaleString('en-US');
    return [
      { id: 'import-total', label: `${size}-row CSV: upload + preview + import`, unit: 's', rounds: total, baseline: { label: 'csv-parse alone', rounds: parseOnly.map((x) => x / 1000) }, target: { of: 'value', max: 30 } },
      { id: 'import-only', label: `${size}-row CSV: the import alone`, unit: 's', rounds: importOnly, baseline: { label: 'csv-parse alone', rounds: parseOnly.map((x) => x / 1000) } },
      { id: 'import-peak-rss', label: `${size}-row CSV: peak RSS of the importing process`, unit: 'MB', rounds: peak, baseline: { label: 'same process, no import', rounds: peakBase }, target: { of: 'value', max: 200 } },
      { id: 'upload-api-rss', label: `API RSS growth while receiving the ${size}-row file`, unit: 'MB', rounds: apiGrowth },
      { id: 'question-p50', label: `question over ${size} imported contacts (CRM part) p50`, unit: 'ms', rounds: crmP50, baseline: { label: 'count of all imported contacts p50', rounds: baseP50 } },
      { id: 'question-p95', label: `question over ${size} imported contacts (CRM part) p95`, unit: 'ms', rounds: crmP95, baseline: { label: 'count of all imported contacts p50', rounds: baseP50 }, target: { of: 'value', max: 100 } },
      { id: 'question-gql-p95', label: `GraphQL runQuery p95, ${size} imported contacts`, unit: 'ms', rounds: gqlP95, baseline: { label: 'count of all imported contacts p50', rounds: baseP50 } },
    ];
  } finally {
    await t.close();
  }
}

export const bench: Bench = {
  name: 'contacts-import',
  title: 'Contacts from a file: 100,000-row import and questions over it',
  run: measure,
};
