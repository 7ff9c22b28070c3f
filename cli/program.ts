// The `crm` program: every command, the global options (--server, --timeout, --no-color), and the
// single handler that turns any failure into one line on stderr and an exit code (errors.ts) — or,
// for a --json caller, into one JSON document on stdout. Returns the exit code; never exits the
// process itself.
import { Command, Option } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import type { Command as CommandType } from 'commander';
import { createContext } from './context.js';
import { DEFAULT_TIMEOUT_SECONDS, ENVIRONMENT, type GlobalOptions } from './environment.js';
import { EXIT, toFailure } from './errors.js';
import { Ui, type Streams } from './ui.js';
import admin from './commands/admin/index.js';
import auth from './commands/auth.js';
import completion from './commands/completion.js';
import crmGroup from './commands/crm.js';
import exportCommand from './commands/export.js';
import history from './commands/history.js';
import importCommand from './commands/import.js';
import login from './commands/login.js';
import logout from './commands/logout.js';
import open from './commands/open.js';
import query from './commands/query.js';
import rerun from './commands/rerun.js';
import segments from './commands/segments.js';
import smart from './commands/smart.js';
import usage from './commands/usage.js';
import whoami from './commands/whoami.js';

const COMMANDS = [login, logout, whoami, auth, query, history, rerun, exportCommand, importCommand, segments, smart, usage, crmGroup, admin, open, completion];

function configureAll(cmd: CommandType, io: Streams, onError: (text: string, write: (s: string) => void) => void) {
  cmd.exitOverride();
  cmd.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: onError });
  cmd.configureHelp({ showGlobalOptions: true });
  cmd.showSuggestionAfterError(true);
  for (const sub of cmd.commands) configureAll(sub, io, onError);
}

export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, argv: readonly string[]): boolean {
  return Boolean(stream.isTTY) && !env.NO_COLOR && env.FORCE_COLOR !== '0' && !argv.includes('--no-color');
}

const environmentHelp = () => {
  const width = Math.max(...ENVIRONMENT.map(([name]) => name.length));
  return ENVIRONMENT.map(([name, what]) => `  ${name.padEnd(width)}  ${what}`).join('\n');
};

/** The whole program, built for one run (also read by `crm completion` to list commands and options). */
export function buildProgram(io: Streams, env: NodeJS.ProcessEnv) {
  const ui = new Ui(io);
  const program = new Command('crm');
  const ctx = createContext(ui, env, () => program.opts<GlobalOptions>());
  program
    .description('CRM Assistant in the terminal: ask questions about your customers, export them, and administer the product.')
    .version(pkg.version, '-v, --version')
    .addOption(new Option('--server <url>', 'the CRM Assistant server for this command (default: CRM_SERVER, else the one you signed in to)'))
    .addOption(new Option('--timeout <seconds>', `how long to wait for each answer of the server (default: CRM_TIMEOUT, else ${DEFAULT_TIMEOUT_SECONDS})`))
    .option('--no-color', 'plain output without colours (also without a terminal, or with NO_COLOR set)')
    .addHelpText(
      'after',
      [
        '',
        'Start with:',
        '  $ crm login',
        "  $ crm query 'customers in Europe who bought in the last 30 days'",
        '',
        'In scripts and CI: CRM_SERVER=https://crm.example.com CRM_TOKEN=crm_pat_… crm usage --json',
        '',
        'Environment variables:',
        environmentHelp(),
        '',
        'Exit codes: 0 ok · 1 something to fix on your side (input, limits, permissions, sign-in) · 2 the server or the network failed · 130 interrupted.',
        '',
      ].join('\n'),
    );
  for (const make of COMMANDS) program.addCommand(make(ctx));
  return { program, ctx, ui };
}

export async function run(argv: string[], io: Streams, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { program, ctx } = buildProgram(io, env);
  // A --json caller gets failures as JSON on stdout; commander's own usage errors included.
  let json = argv.includes('--json');
  let usageError = '';
  program.hook('preAction', (_program, action) => {
    json = action.opts().json === true;
  });
  configureAll(program, io, (text, write) => {
    if (json) usageError = text;
    else write(text);
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    const failure = toFailure(err);
    if (json && failure.exitCode !== EXIT.ok) {
      const message = failure.message || usageError.replace(/^error: /, '').trim();
      io.stdout.write(`${JSON.stringify({ error: { message, code: failure.code, exitCode: failure.exitCode, ...(failure.details ? { details: failure.details } : {}) } }, null, 2)}\n`);
    } else if (failure.message) {
      const prefix = colorEnabled(io.stderr, env, argv) ? '\x1b[31merror:\x1b[39m' : 'error:';
      io.stderr.write(`${prefix} ${failure.message}\n`);
    }
    if (failure.stack && env.CRM_DEBUG) io.stderr.write(`${failure.stack}\n`);
    return failure.exitCode;
  } finally {
    await ctx.dispose().catch(() => undefined);
  }
}
