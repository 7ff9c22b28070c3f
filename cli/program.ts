// The `crm` program: every command, and the single handler that turns any failure into one line on
// stderr and an exit code (errors.ts). Returns the exit code; never exits the process itself.
import { Command } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import type { Command as CommandType } from 'commander';
import { createContext } from './context.js';
import { EXIT, toFailure } from './errors.js';
import { Ui, type Streams } from './ui.js';
import admin from './commands/admin/index.js';
import exportCommand from './commands/export.js';
import history from './commands/history.js';
import login from './commands/login.js';
import logout from './commands/logout.js';
import query from './commands/query.js';
import rerun from './commands/rerun.js';
import segments from './commands/segments.js';
import smart from './commands/smart.js';
import usage from './commands/usage.js';
import whoami from './commands/whoami.js';

const COMMANDS = [login, logout, whoami, query, history, rerun, exportCommand, segments, smart, usage, admin];

function configureAll(cmd: CommandType, io: Streams) {
  cmd.exitOverride();
  cmd.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  cmd.showSuggestionAfterError(true);
  for (const sub of cmd.commands) configureAll(sub, io);
}

export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, argv: readonly string[]): boolean {
  return Boolean(stream.isTTY) && !env.NO_COLOR && env.FORCE_COLOR !== '0' && !argv.includes('--no-color');
}

export async function run(argv: string[], io: Streams, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const ui = new Ui(io);
  const ctx = createContext(ui);
  const program = new Command('crm')
    .description('CRM Assistant in the terminal: ask questions about your customers, export them, and administer the product.')
    .version(pkg.version, '-v, --version')
    .option('--no-color', 'plain output without colours (also without a terminal, or with NO_COLOR set)')
    .addHelpText(
      'after',
      [
        '',
        'Start with:',
        '  $ crm login',
        '  $ crm query "customers in Europe who bought in the last 30 days"',
        '',
        'Exit codes: 0 ok · 1 something to fix on your side (input, limits, permissions, sign-in) · 2 the server or the network failed.',
        '',
      ].join('\n'),
    );
  for (const make of COMMANDS) program.addCommand(make(ctx));
  configureAll(program, io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    const failure = toFailure(err);
    if (failure.message) {
      const prefix = colorEnabled(io.stderr, env, argv) ? '\x1b[31merror:\x1b[39m' : 'error:';
      io.stderr.write(`${prefix} ${failure.message}\n`);
    }
    if (failure.stack && env.CRM_DEBUG) io.stderr.write(`${failure.stack}\n`);
    return failure.exitCode;
  } finally {
    await ctx.dispose().catch(() => undefined);
  }
}
