// Runs the `crm` command as a subprocess (the bin users run), with its own config directory, stdin
// from a string (or nothing), no terminal and no colour forced by the test runner. A run that has not
// ended after `timeoutMs` is killed and reported with code -1 (a hang fails the test, not the suite).
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = `${root}cli/bin/crm.js`;

/** Builds the bundle the bin runs (as postinstall does), so that every call starts in a fraction of a second. */
export function buildCli(): void {
  execFileSync(process.execPath, ['--import', 'tsx', `${root}scripts/build-cli.ts`], { cwd: root, stdio: 'pipe' });
}

export interface CrmResult {
  code: number;
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** What came out of file descriptor 3 (with `fd3`). */
  fd3: string;
  ms: number;
}

export interface CrmOptions {
  home: string;
  input?: string;
  env?: Record<string, string>;
  cwd?: string;
  /** Give the child a pipe as file descriptor 3 (read into `fd3`). */
  fd3?: boolean;
  timeoutMs?: number;
}

export function spawnCrm(args: string[], opts: CrmOptions): { child: ChildProcess; result: Promise<CrmResult> } {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['FORCE_COLOR', 'NO_COLOR', 'CI', 'CRM_TOKEN', 'CRM_SERVER', 'CRM_TIMEOUT'].includes(k)) env[k] = v;
  Object.assign(env, { XDG_CONFIG_HOME: opts.home, ...opts.env });
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: opts.cwd ?? root, stdio: ['pipe', 'pipe', 'pipe', ...(opts.fd3 ? (['pipe'] as const) : [])] });
  const result = new Promise<CrmResult>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let fd3 = '';
    child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
    if (opts.fd3) (child.stdio[3] as Readable).setEncoding('utf8').on('data', (d: string) => (fd3 += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, signal, stdout, stderr, fd3, ms: performance.now() - started });
    });
    child.stdin!.end(opts.input ?? '');
  });
  return { child, result };
}

export function crm(args: string[], opts: CrmOptions): Promise<CrmResult> {
  return spawnCrm(args, opts).result;
}
