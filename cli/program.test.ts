// The program as a whole, in process: every command has --help with examples; usage errors and
// unknown commands exit 1 with commander's one line; plain output without a terminal.
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

describe('usage errors', () => {
  it('exit 1 with one line and no stack', async () => {
    expect(await crm('bogus')).toMatchObject({ code: 1, stdout: '', stderr: "error: unknown command 'bogus'\n(Did you mean logout?)\n" });
    expect(await crm('query')).toMatchObject({ code: 1, stderr: "error: missing required argument 'question'\n" });
    expect(await crm('query', 'x', '--limit', '0')).toMatchObject({ code: 1, stderr: 'error: --limit: must be a whole number from 1 to 1000. See crm query --help\n' });
    expect(await crm('query', 'x', '--json', '--csv')).toMatchObject({
      code: 1,
      stderr: 'error: --json and --csv without a file both write to standard output. Give --csv a file name\n',
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
