// Where a command writes a file (an export, a download), decided and checked before any work starts:
//   - "-" or nothing: standard output;
//   - a regular file, or a path that does not exist yet: written atomically — into a hidden temporary
//     file next to it, renamed over the target once complete — so an interrupted or failed export
//     never leaves a file that looks whole. A new file is 0600 (customer data stays the user's on a
//     shared machine); a replaced file keeps its mode (and owner, when we may set it). An existing
//     file is only replaced with --force;
//   - anything else (a character device such as /dev/null, a FIFO, a socket, /dev/fd/N or
//     /dev/stdout) is streamed straight into: renaming a file over it would replace the device;
//   - a directory or a block device (a disk) is refused.
// Failures are told in the product's words, naming the user's file (never the temporary one).
import { randomBytes } from 'node:crypto';
import { createWriteStream, fchmodSync, fchownSync, openSync, renameSync, rmSync, constants, type Stats } from 'node:fs';
import * as fs from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { CliError, EXIT } from './errors.js';

export type OutputPlan =
  | { kind: 'stdout'; label: string }
  /** An open file descriptor (/dev/fd/N, /dev/stdout): written as it is, never reopened. */
  | { kind: 'fd'; label: string; fd: number }
  /** A device or FIFO, opened for writing; or a Unix socket, connected to. */
  | { kind: 'stream' | 'socket'; label: string; path: string }
  /** A regular file written atomically; `replaces` is the file it replaces. */
  | { kind: 'file'; label: string; path: string; replaces?: { mode: number; uid: number; gid: number } };

/** The file system calls planning makes (a seam for tests: a character device without /dev/null). */
export interface PlanFs {
  statSync(p: string): Stats;
  fstatSync(fd: number): Stats;
  accessSync(p: string, mode: number): void;
  realpathSync(p: string): string;
}

const realFs: PlanFs = { statSync: (p) => fs.statSync(p), fstatSync: (fd) => fs.fstatSync(fd), accessSync: fs.accessSync, realpathSync: (p) => fs.realpathSync(p) };

const STDOUT_LABEL = 'standard output';

export const cannotWrite = (label: string, reason: string, hint?: string) => new CliError(`Cannot write ${label}: ${reason}`, hint, EXIT.user, 'FILE_ERROR');

/** An errno as words. */
export function reason(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'your disk quota is used up';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOENT':
      return 'its folder does not exist';
    case 'ENOTDIR':
      return 'a part of its path is not a folder';
    case 'ENXIO':
      return 'nothing is reading from it';
    case 'ECONNREFUSED':
      return 'nothing is listening on it';
    case 'EBADF':
      return 'that file descriptor is not open';
    case 'EFBIG':
      return 'the file is too large for the file system';
    case 'EIO':
      return 'an input/output error';
    default:
      return err.code ? `${err.code.toLowerCase()} (${err.message.replace(/^[A-Z]+: /, '')})` : err.message;
  }
}

/** The file descriptor a path names without being a file of its own: /dev/fd/3, /proc/self/fd/3, /dev/stdout. */
function descriptorOf(target: string): number | undefined {
  const m = /^\/(?:dev|proc\/self)\/fd\/(\d+)$/.exec(target);
  if (m) return Number(m[1]);
  if (target === '/dev/stdout') return 1;
  if (target === '/dev/stderr') return 2;
  return undefined;
}

/**
 * Decides how to write `target` and checks what can be checked before the work starts: the folder
 * exists and may be written to, an existing file is only replaced with `force`.
 */
export function planOutput(target: string | undefined, opts: { force?: boolean; fs?: PlanFs } = {}): OutputPlan {
  const io = opts.fs ?? realFs;
  if (target === undefined || target === '-') return { kind: 'stdout', label: STDOUT_LABEL };
  const label = target;
  const fd = descriptorOf(target);
  if (fd !== undefined && process.platform !== 'win32') {
    try {
      io.fstatSync(fd);
    } catch (err) {
      throw cannotWrite(label, reason(err as NodeJS.ErrnoException));
    }
    return { kind: 'fd', label, fd };
  }
  let stats: Stats | undefined;
  try {
    stats = io.statSync(target);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code !== 'ENOENT') throw cannotWrite(label, reason(e));
  }
  if (!stats) return { kind: 'file', label, path: path.resolve(checkFolder(io, label, path.resolve(target))) };
  if (stats.isDirectory()) throw cannotWrite(label, 'it is a folder', `Give a file name, e.g. ${path.join(target, 'customers.csv')}`);
  if (stats.isBlockDevice()) throw cannotWrite(label, 'it is a disk device');
  if (stats.isSocket()) return { kind: 'socket', label, path: target };
  if (!stats.isFile()) return { kind: 'stream', label, path: target };
  if (!opts.force) throw new CliError(`${label} already exists`, 'Add --force to replace it, or give another file name', EXIT.user, 'FILE_EXISTS');
  // A symbolic link keeps pointing at the file: the file it points to is the one replaced.
  const real = io.realpathSync(target);
  checkFolder(io, label, real);
  return { kind: 'file', label, path: real, replaces: { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid } };
}

/** The folder of `file` exists and may be written to; returns `file`. */
function checkFolder(io: PlanFs, label: string, file: string): string {
  const dir = path.dirname(file);
  let stats: Stats;
  try {
    stats = io.statSync(dir);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw cannotWrite(label, e.code === 'ENOENT' ? `the folder ${dir} does not exist` : reason(e));
  }
  if (!stats.isDirectory()) throw cannotWrite(label, `${dir} is not a folder`);
  try {
    io.accessSync(dir, constants.W_OK);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw cannotWrite(label, e.code === 'EROFS' ? 'the file system is read-only' : `you may not write in the folder ${dir}`);
  }
  return file;
}

export interface Output {
  label: string;
  plan: OutputPlan;
  /** Resolves once the text is taken (waits while the target is slower than the server). */
  write(text: string): Promise<void>;
  /** Flushes; a file is then moved into place. */
  finish(): Promise<void>;
  /** Gives up: a file's temporary copy is removed (synchronous: also run on Ctrl-C and SIGTERM). */
  abort(): void;
}

/** The error to report for a failed write (EPIPE is left as it is: the reader went away, exit 0). */
function writeFailure(label: string, err: unknown): unknown {
  const e = err as NodeJS.ErrnoException;
  if (!e?.code || e.code === 'EPIPE' || err instanceof CliError) return err;
  return cannotWrite(label, reason(e));
}

/** Opens what the plan says: the target is touched only now, when there is something to write. */
export async function openOutput(plan: OutputPlan, stdout: NodeJS.WritableStream): Promise<Output> {
  let stream: Writable;
  /** The temporary file, until it is renamed into place. */
  let temp: { path: string; target: string } | undefined;
  switch (plan.kind) {
    case 'stdout':
      stream = stdout as Writable;
      break;
    case 'fd':
      // Not ours: never closed (destroying an fs stream closes its descriptor).
      stream = createWriteStream('', { fd: plan.fd, autoClose: false });
      break;
    case 'stream':
      stream = createWriteStream(plan.path, { flags: 'w' });
      break;
    case 'socket':
      stream = createConnection({ path: plan.path });
      break;
    case 'file': {
      const tempPath = path.join(path.dirname(plan.path), `.${path.basename(plan.path)}.${randomBytes(4).toString('hex')}.part`);
      let fd: number;
      try {
        // New: readable by the user only from the first byte (the umask could make it everyone's).
        fd = openSync(tempPath, 'wx', 0o600);
        if (plan.replaces) fchmodSync(fd, plan.replaces.mode);
      } catch (err) {
        throw writeFailure(plan.label, err);
      }
      if (plan.replaces) {
        try {
          fchownSync(fd, plan.replaces.uid, plan.replaces.gid);
        } catch {
          // Only root may give a file away; as its owner it stays ours.
        }
      }
      temp = { path: tempPath, target: plan.path };
      // flush: on the disk before it is closed, and so before the rename makes it the file.
      stream = createWriteStream(tempPath, { fd, flush: true });
      break;
    }
  }
  const owned = plan.kind !== 'stdout' && plan.kind !== 'fd';
  let failed: unknown;
  if (plan.kind !== 'stdout') stream.on('error', (err) => (failed ??= err));
  const check = () => {
    if (failed) throw writeFailure(plan.label, failed);
  };
  let aborted = false;
  const abort = () => {
    if (aborted) return;
    aborted = true;
    if (owned) stream.destroy();
    if (temp) rmSync(temp.path, { force: true });
  };
  return {
    label: plan.label,
    plan,
    async write(text) {
      check();
      if (!stream.write(text)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            stream.off('drain', done);
            stream.off('error', done);
            stream.off('close', done);
            resolve();
          };
          stream.on('drain', done).on('error', done).on('close', done);
        });
      }
      check();
    },
    async finish() {
      check();
      if (plan.kind === 'stdout') return;
      stream.end();
      try {
        await finished(stream);
      } catch (err) {
        abort();
        throw writeFailure(plan.label, failed ?? err);
      }
      check();
      if (temp) {
        try {
          renameSync(temp.path, temp.target);
        } catch (err) {
          abort();
          throw writeFailure(plan.label, err);
        }
        temp = undefined;
      }
    },
    abort,
  };
}

/** Whether a plan writes to a file of its own that an interruption leaves as it was. */
export const isFile = (plan: OutputPlan): plan is Extract<OutputPlan, { kind: 'file' }> => plan.kind === 'file';
