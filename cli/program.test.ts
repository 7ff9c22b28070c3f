// The program as a whole, in process: every command has --help with examples; usage errors and
// unknown commands exit 1 with commander's one line; plain output without a terminal.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { colorEnabled, run } from './program.js';
import type { Streams } from './ui.js';

function streams() {
  const out = { stdout: '', stderr: '' };
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (d) => (out.stdout += d));
  stderr.on('data', (d) => (out.stderr += d));
  const io = { stdout, stderr, stdin: new PassThrough() } as unknown as Streams;
  return { io, out };
}

async function crm(...argv: string[]) {
  const { io, out } = streams();
  const code = await run(argv, io, {});
  return { code, ...out };
}

/** Every command path of the program ("query", "admin ban", …). */
async function commandPaths(): Promise<string[][]> {
  const { stdout } = await crm('--help');
  const top = [...stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]).filter((n) => n !== 'help');
  const paths: string[][] = [];
  for (const name of top) {
    const help = (await crm(name, '--help')).stdout;
    const subs = [...help.matchAll(/^Commands:\n((?: {2}.*\n)+)/gm)].flatMap((m) => [...m[1].matchAll(/^ {2}([a-z]+)\b/gm)].map((s) => s[1])).filter((n) => n !== 'help');
    paths.push([name], ...subs.map((s) => [name, s]));
  }
  return paths;
}

describe('crm --help', () => {
  it('lists the commands and the exit codes', async () => {
    const r = await crm('--help');
    expect(r.code).toBe(0);
    for (const name of ['login', 'logout', 'whoami', 'query', 'history', 'rerun', 'export', 'segments', 'smart', 'usage', 'admin']) expect(r.stdout).toMatch(new RegExp(`^ {2}${name}\\b`, 'm'));
    expect(r.stdout).toContain('Exit codes: 0 ok · 1 something to fix on your side');
  });

  it('every command has --help with examples', async () => {
    const paths = await commandPaths();
    expect(paths.map((p) => p.join(' '))).toEqual(
      expect.arrayContaining(['segments add', 'segments rm', 'smart unlock', 'smart download', 'admin users', 'admin ban', 'admin unban', 'admin stats', 'admin generate', 'admin clear', 'admin cleanup', 'admin tiers']),
    );
    for (const path of paths) {
      const r = await crm(...path, '--help');
      expect(r.code, path.join(' ')).toBe(0);
      expect(r.stdout, path.join(' ')).toMatch(/\nExamples:\n {2}\$ crm /);
    }
  });
});

describe('help', () => {
  it('lists the environment variables the CLI reads', async () => {
    const { stdout } = await crm('--help');
    const env = stdout.slice(stdout.indexOf('Environment variables:'));
    for (const name of ['CRM_TOKEN', 'CRM_SERVER', 'CRM_TIMEOUT', 'CRM_RETRY_SECONDS', 'XDG_CONFIG_HOME', 'NO_COLOR', 'BROWSER', 'CRM_DEBUG']) expect(env).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
  });

  it('every command lists the global options --server and --timeout', async () => {
    for (const path of await commandPaths()) {
      const { stdout } = await crm(...path, '--help');
      expect(stdout, path.join(' ')).toMatch(/Global Options:\n(.*\n)* {2}--server <url> /);
      expect(stdout, path.join(' ')).toMatch(/ {2}--timeout <seconds> /);
    }
  });

  it('examples work when pasted: no $ the shell would expand inside double quotes', async () => {
    const { stdout } = await crm('query', '--help');
    expect(stdout).toContain("$ crm query 'customers in Europe who bought in the last 30 days with lifetime value over $5k'");
    for (const path of await commandPaths()) {
      const help = (await crm(...path, '--help')).stdout;
      const examples = help.slice(help.indexOf('Examples:')).split('\n').filter((l) => l.startsWith('  $ '));
      for (const example of examples) expect(example, path.join(' ')).not.toMatch(/"[^"]*\$[a-z0-9][^"]*"/);
    }
  });
});

describe('crm open in a terminal', () => {
  it('starts $BROWSER with the address of the screen', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-open-'));
    const browser = path.join(dir, 'browser');
    writeFileSync(browser, `#!/bin/sh\necho "$1" > ${dir}/opened\n`, { mode: 0o755 });
    const { io, out } = streams();
    Object.assign(io.stdout, { isTTY: true });
    const code = await run(['open', 'smart', '--server', 'http://127.0.0.1:3100'], io, { BROWSER: browser, PATH: process.env.PATH });
    expect(code, out.stderr).toBe(0);
    expect(out.stderr).toBe('Opening http://127.0.0.1:3100/smart-segments in your browser\n');
    for (let i = 0; i < 100 && !existsSync(`${dir}/opened`); i++) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(`${dir}/opened`, 'utf8')).toBe('http://127.0.0.1:3100/smart-segments\n');
  });
});

describe('usage errors', () => {
  it('exit 1 with one line and no stack', async () => {
    expect(await crm('bogus')).toMatchObject({ code: 1, stdout: '', stderr: "error: unknown command 'bogus'\n(Did you mean logout?)\n" });
    expect(await crm('query')).toMatchObject({ code: 1, stderr: "error: missing required argument 'question'\n" });
    expect(await crm('query', 'x', '--limit', '0')).toMatchObject({ code: 1, stderr: 'error: --limit: must be a whole number from 1 to 1000. See crm query --help\n' });
    // A --json caller gets the failure as JSON on stdout.
    const both = await crm('query', 'x', '--json', '--csv');
    expect(both).toMatchObject({ code: 1, stderr: '' });
    expect(JSON.parse(both.stdout)).toEqual({
      error: { message: '--json and --csv without a file both write to standard output. Give --csv a file name', code: 'USER_ERROR', exitCode: 1 },
    });
    expect(await crm('smart', '--date', '2026-02-30')).toMatchObject({ code: 1, stderr: 'error: --date: must be a calendar date as YYYY-MM-DD. See crm smart list --help\n' });
  });
});

describe('colour', () => {
  it('only on a terminal, and never with --no-color or NO_COLOR', () => {
    expect(colorEnabled({ isTTY: true }, {}, [])).toBe(true);
    expect(colorEnabled({ isTTY: false }, {}, [])).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' }, [])).toBe(false);
    expect(colorEnabled({ isTTY: true }, {}, ['usage', '--no-color'])).toBe(false);
  });
});
