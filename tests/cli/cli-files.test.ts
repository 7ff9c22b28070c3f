// `crm` and files, time and signals, as a subprocess: exports into FIFOs, /dev/fd paths and standard
// output are streamed (a device is never replaced by a file), files are written atomically, kept
// when they exist (--force replaces them, keeping their mode), refused in the product's words before
// any work; a server that never answers fails with exit 2; SIGTERM and Ctrl-C clean up.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { toGlobalId } from '../../client/index.js';
import { connectedUser, expectedIds } from '../helpers/crm.js';
import { flakyProxy } from '../helpers/flaky-proxy.js';
import { silentServer } from '../helpers/silent-server.js';
import { ADMIN, cliHarness, PASSWORD } from './harness.js';
import { spawnCrm } from './run-crm.js';

const h = cliHarness({ contacts: 600 });
const QUESTION = 'customers in North America';

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'crm-files-'));
const ids = (csv: string) => (parse(csv, { columns: true, bom: true }) as Record<string, string>[]).map((r) => r.id).sort();

/** A signed-in person with one query of QUESTION in their history. */
async function personWithQuery() {
  const p = await h.connectedPerson();
  expect((await p.run(['query', QUESTION, '--json', '--limit', '1'])).code).toBe(0);
  const [{ queryId }] = JSON.parse((await p.run(['history', '--json'])).stdout);
  return { ...p, queryId: queryId as string, expected: [...(await expectedIds(h.app, QUESTION))].sort() };
}

/** Waits until `check` holds (polling), or fails after `ms`. */
async function until(check: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('where an export is written', () => {
  it('a FIFO is written into, not replaced by a file', async () => {
    const p = await personWithQuery();
    const dir = tempDir();
    const fifo = path.join(dir, 'customers.fifo');
    execFileSync('mkfifo', [fifo]);
    // The reader, as a shell's `cat fifo` would be.
    const reader = spawn('cat', [fifo]);
    let read = '';
    reader.stdout.setEncoding('utf8').on('data', (d) => (read += d));
    const readerDone = new Promise((resolve) => reader.on('close', resolve));
    try {
      const r = await p.run(['export', p.queryId, '-o', fifo], undefined, { timeoutMs: 30_000 });
      expect(r.code, r.stderr).toBe(0);
      await Promise.race([readerDone, new Promise((_, reject) => setTimeout(() => reject(new Error('nothing was written into the FIFO')), 10_000))]);
      expect(ids(read)).toEqual(p.expected);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(readdirSync(dir)).toEqual(['customers.fifo']);
      expect(r.stderr).toContain(`Exported ${p.expected.length} customers to ${fifo}`);
    } finally {
      reader.kill();
    }
  });

  it('/dev/fd/3 writes into the descriptor the caller opened (a pipe here)', async () => {
    const p = await personWithQuery();
    const r = await p.run(['export', p.queryId, '-o', '/dev/fd/3'], undefined, { fd3: true });
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.fd3)).toEqual(p.expected);
    expect(r.stdout).toBe('');
  });

  it('"-" is standard output for export, query --csv and smart download alike', async () => {
    const p = await personWithQuery();
    const exported = await p.run(['export', p.queryId, '-o', '-']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(ids(exported.stdout)).toEqual(p.expected);
    const queried = await p.run(['query', QUESTION, '--csv', '-']);
    expect(queried.code, queried.stderr).toBe(0);
    expect(ids(queried.stdout)).toEqual(p.expected);
    expect(queried.stderr).toContain(`Wrote ${p.expected.length} customers to standard output`);
  });

  it('a new file is 0600; an existing one is kept without --force, and replaced with its mode kept with it', async () => {
    const p = await personWithQuery();
    const dir = tempDir();
    const file = path.join(dir, 'na.csv');
    const made = await p.run(['export', p.queryId, '-o', file]);
    expect(made.code, made.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(ids(readFileSync(file, 'utf8'))).toEqual(p.expected);

    writeFileSync(file, 'keep me\n');
    chmodSync(file, 0o644);
    const kept = await p.run(['export', p.queryId, '-o', file]);
    expect(kept).toMatchObject({ code: 1, stdout: '', stderr: `error: ${file} already exists. Add --force to replace it, or give another file name\n` });
    expect(readFileSync(file, 'utf8')).toBe('keep me\n');

    const replaced = await p.run(['export', p.queryId, '-o', file, '--force']);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(ids(readFileSync(file, 'utf8'))).toEqual(p.expected);
    expect(statSync(file).mode & 0o777).toBe(0o644);

    // Through a symbolic link: the file it points to is replaced, the link stays.
    const link = path.join(dir, 'latest.csv');
    symlinkSync(file, link);
    writeFileSync(file, 'old\n');
    expect((await p.run(['export', p.queryId, '-o', link, '--force'])).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(ids(readFileSync(file, 'utf8'))).toEqual(p.expected);
    expect(readdirSync(dir).sort()).toEqual(['latest.csv', 'na.csv']); // no temporary file left
  });

  it('a target that cannot be written is refused in plain words before anything is run (no query used)', async () => {
    const p = await h.connectedPerson();
    const dir = tempDir();
    const missing = path.join(dir, 'nope', 'x.csv');
    const r = await p.run(['query', QUESTION, '--csv', missing]);
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: `error: Cannot write ${missing}: the folder ${path.join(dir, 'nope')} does not exist\n` });
    const folder = await p.run(['query', QUESTION, '--csv', dir]);
    expect(folder).toMatchObject({ code: 1, stderr: `error: Cannot write ${dir}: it is a folder. Give a file name, e.g. ${path.join(dir, 'customers.csv')}\n` });
    expect(JSON.parse((await p.run(['usage', '--json'])).stdout)).toMatchObject({ chatQueriesUsed: 0 });
    expect(r.stderr).not.toMatch(/\.part|ENOENT/);
  });

  it('SIGTERM during an export removes the unfinished file, as Ctrl-C does', async () => {
    const u = await connectedUser(h.app, h.url);
    const proxy = await flakyProxy({ host: '127.0.0.1', port: Number(new URL(h.url).port) });
    try {
      const p = h.person();
      expect((await p.run(['login', '--server', proxy.url, '--email', u.email], `${PASSWORD}\n`)).code).toBe(0);
      await p.run(['query', QUESTION, '--json', '--limit', '1']);
      const [{ queryId }] = JSON.parse((await p.run(['history', '--json'])).stdout);
      // The export's first page never comes back: the file is open, nothing is written yet.
      proxy.arm({ match: /exportStreamPageQuery/, dropAt: 1, refuse: 0, hold: true });
      const dir = tempDir();
      const file = path.join(dir, 'na.csv');
      const source = toGlobalId('CustomerQuery', queryId);
      for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
        const { child, result } = spawnCrm(['export', source, '-o', file], { home: p.home });
        await until(() => readdirSync(dir).length > 0);
        expect(readdirSync(dir)[0]).toMatch(/^\.na\.csv\.[0-9a-f]+\.part$/);
        child.kill(signal);
        const r = await result;
        expect(r.code, r.stderr).toBe(code);
        expect(r.stderr).toContain(`Stopped: ${file} was not written`);
        expect(readdirSync(dir)).toEqual([]);
      }
    } finally {
      await proxy.close();
    }
  });
});

describe('a server that never answers', () => {
  it('fails with exit 2 and a clear line after the timeout (--timeout or CRM_TIMEOUT)', async () => {
    const silent = await silentServer();
    try {
      const p = h.person();
      mkdirSync(path.join(p.home, 'crm-assistant'), { recursive: true });
      writeFileSync(path.join(p.home, 'crm-assistant', 'config.json'), JSON.stringify({ server: silent.url, token: 'crm_pat_x', email: 'x@example.com' }));
      const line = `error: The server at ${silent.url} did not answer within 1 s. Try again, or give it longer with --timeout <seconds> or CRM_TIMEOUT\n`;
      const byEnv = await p.run(['usage'], undefined, { env: { CRM_TIMEOUT: '1' }, timeoutMs: 20_000 });
      expect(byEnv).toMatchObject({ code: 2, stdout: '', stderr: line });
      const byFlag = await p.run(['smart', '--timeout', '1'], undefined, { timeoutMs: 20_000 });
      expect(byFlag).toMatchObject({ code: 2, stderr: line });
      const bad = await p.run(['usage', '--timeout', '0']);
      expect(bad).toMatchObject({ code: 1, stderr: 'error: --timeout: must be a whole number from 1 to 3600\n' });
    } finally {
      await silent.close();
    }
  });
});

describe('Ctrl-C during crm admin generate', () => {
  it('says the run goes on on the server and how to see it', async () => {
    const p = await h.connectedPerson();
    const proxy = await flakyProxy({ host: '127.0.0.1', port: Number(new URL(h.url).port) });
    try {
      const admin = h.person();
      expect((await admin.run(['login', '--server', proxy.url, '--email', ADMIN.email], `${ADMIN.password}\n`)).code).toBe(0);
      // The generation is sent, and its answer does not come (a long run).
      proxy.arm({ match: /generateMutation/, dropAt: 1, refuse: 0, hold: true });
      const { child, result } = spawnCrm(['admin', 'generate', '--user', p.email], { home: admin.home });
      await until(() => proxy.requests > 0);
      child.kill('SIGINT');
      const r = await result;
      expect(r.code).toBe(130);
      expect(r.stderr).toContain('Stopped watching: the generation goes on on the server until every user is done');
    } finally {
      await proxy.close();
    }
  });
});

describe('the config directory', () => {
  it('a damaged config is replaced by crm login and removed by crm logout; logout keeps the server', async () => {
    const u = await h.connectedPerson();
    const p = h.person();
    const file = path.join(p.home, 'crm-assistant', 'config.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{"server": "http://127.0.0.1:1", "tok');
    const broken = await p.run(['usage']);
    expect(broken).toMatchObject({ code: 1, stderr: `error: ${file} is damaged (it is not a config saved by crm). Run crm login to replace it, or crm logout to remove it\n` });
    const out = await p.run(['logout']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain(`Removed the damaged ${file}`);
    expect(existsSync(file)).toBe(false);

    writeFileSync(file, 'not json at all');
    const login = await p.run(['login', '--server', h.url, '--email', u.email], `${PASSWORD}\n`);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`Replaced the damaged ${file}`);
    expect((await p.run(['usage'])).code).toBe(0);

    expect((await p.run(['logout'])).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ server: h.url, logins: {} });
    // The next sign-in goes to the same server without --server.
    const again = await p.run(['login', '--email', u.email], `${PASSWORD}\n`);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`Signed in to ${h.url} as`);
  });
});
