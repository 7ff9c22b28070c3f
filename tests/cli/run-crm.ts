// Runs the `crm` command as a subprocess (the bin users run), with its own config directory, stdin
// from a string (or nothing), no terminal and no colour forced by the test runner.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = `${root}cli/bin/crm.js`;

/** Builds the bundle the bin runs (as postinstall does), so that every call starts in a fraction of a second. */
export function buildCli(): void {
  execFileSync(process.execPath, ['--import', 'tsx', `${root}scripts/build-cli.ts`], { cwd: root, stdio: 'pipe' });
}

export interface CrmResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

export function crm(args: string[], opts: { home: string; input?: string; env?: Record<string, string>; cwd?: string }): Promise<CrmResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['FORCE_COLOR', 'NO_COLOR', 'CI'].includes(k)) env[k] = v;
  Object.assign(env, { XDG_CONFIG_HOME: opts.home, ...opts.env });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd: opts.cwd ?? root, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: performance.now() - started }));
    child.stdin.end(opts.input ?? '');
  });
}
