// Where a file is written: decided from what the target is, before any work. A character device
// (such as /dev/null, here a stand-in through the file-system seam: the real /dev/null is never
// touched), a FIFO or a /dev/fd path is streamed into; a regular file or a new path is written
// atomically; a folder, a disk or an existing file without --force are refused in plain words.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, type Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openOutput, planOutput, type PlanFs } from './output-file.js';

const dir = () => mkdtempSync(path.join(os.tmpdir(), 'crm-out-'));

/** A stat result of a given kind. */
const stats = (kind: 'file' | 'dir' | 'char' | 'block' | 'fifo' | 'socket'): Stats =>
  ({
    isFile: () => kind === 'file',
    isDirectory: () => kind === 'dir',
    isCharacterDevice: () => kind === 'char',
    isBlockDevice: () => kind === 'block',
    isFIFO: () => kind === 'fifo',
    isSocket: () => kind === 'socket',
    mode: 0o666,
    uid: 0,
    gid: 0,
  }) as Stats;

const seam = (kinds: Record<string, Parameters<typeof stats>[0]>): PlanFs => ({
  statSync: (p) => {
    if (kinds[p]) return stats(kinds[p]);
    throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
  },
  fstatSync: () => stats('fifo'),
  accessSync: () => {},
  realpathSync: (p) => p,
});

describe('planOutput', () => {
  it('streams into a character device such as /dev/null instead of renaming a file over it', () => {
    expect(planOutput('/dev/null', { fs: seam({ '/dev/null': 'char' }) })).toEqual({ kind: 'stream', label: '/dev/null', path: '/dev/null' });
    // Even with --force: a device is never "replaced".
    expect(planOutput('/dev/null', { force: true, fs: seam({ '/dev/null': 'char' }) }).kind).toBe('stream');
  });

  it('streams into a FIFO, a socket and /dev/fd paths; "-" and nothing are standard output', () => {
    const d = dir();
    const fifo = path.join(d, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(planOutput(fifo)).toEqual({ kind: 'stream', label: fifo, path: fifo });
    expect(planOutput('/run/x.sock', { fs: seam({ '/run/x.sock': 'socket' }) }).kind).toBe('socket');
    expect(planOutput('/dev/fd/1')).toEqual({ kind: 'fd', label: '/dev/fd/1', fd: 1 });
    expect(planOutput('/dev/stdout')).toEqual({ kind: 'fd', label: '/dev/stdout', fd: 1 });
    expect(planOutput('-')).toEqual({ kind: 'stdout', label: 'standard output' });
    expect(planOutput(undefined)).toEqual({ kind: 'stdout', label: 'standard output' });
    expect(() => planOutput('/dev/fd/987')).toThrow('Cannot write /dev/fd/987: that file descriptor is not open');
  });

  it('refuses a folder, a disk, a missing folder and an existing file without --force, in plain words', () => {
    const d = dir();
    expect(() => planOutput(d)).toThrow(`Cannot write ${d}: it is a folder`);
    expect(() => planOutput('/dev/sda', { fs: seam({ '/dev/sda': 'block' }) })).toThrow('Cannot write /dev/sda: it is a disk device');
    expect(() => planOutput(path.join(d, 'no', 'x.csv'))).toThrow(`Cannot write ${path.join(d, 'no', 'x.csv')}: the folder ${path.join(d, 'no')} does not exist`);
    const file = path.join(d, 'x.csv');
    writeFileSync(file, 'old');
    expect(() => planOutput(file)).toThrow(`${file} already exists`);
    chmodSync(file, 0o640);
    expect(planOutput(file, { force: true })).toMatchObject({ kind: 'file', path: file, replaces: { mode: 0o640 } });
    expect(planOutput(path.join(d, 'new.csv'))).toEqual({ kind: 'file', label: path.join(d, 'new.csv'), path: path.join(d, 'new.csv') });
  });
});

describe('openOutput', () => {
  it('a file appears whole or not at all: a hidden temporary file, 0600 when new, the mode kept when replaced', async () => {
    const d = dir();
    const file = path.join(d, 'x.csv');
    const out = await openOutput(planOutput(file), new PassThrough());
    await out.write('a,b\n');
    expect(readdirSync(d)).toEqual([expect.stringMatching(/^\.x\.csv\.[0-9a-f]{8}\.part$/)]);
    await out.finish();
    expect(readdirSync(d)).toEqual(['x.csv']);
    expect(readFileSync(file, 'utf8')).toBe('a,b\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    chmodSync(file, 0o644);
    const again = await openOutput(planOutput(file, { force: true }), new PassThrough());
    await again.write('c,d\n');
    again.abort();
    expect(readdirSync(d)).toEqual(['x.csv']);
    expect(readFileSync(file, 'utf8')).toBe('a,b\n');
    const third = await openOutput(planOutput(file, { force: true }), new PassThrough());
    await third.write('e,f\n');
    await third.finish();
    expect(readFileSync(file, 'utf8')).toBe('e,f\n');
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });

  it('standard output is written, never ended', async () => {
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (d) => (text += d));
    const out = await openOutput(planOutput('-'), stdout);
    await out.write('x\n');
    await out.finish();
    expect(text).toBe('x\n');
    expect(stdout.writableEnded).toBe(false);
  });
});
