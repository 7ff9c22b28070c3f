// crm open [screen]: the web app's screen on the server of this run, opened in the browser from a
// terminal, or its address printed (without a terminal, or with --print).
import { spawn } from 'node:child_process';
import { z } from 'zod';
import { defineCommand } from '../command.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { resolveQueryId } from '../ids.js';

/** The web app's screens (web/src/routes/router.tsx). */
export const SCREENS = {
  home: { path: '/', what: 'the assistant: ask a question, your query history' },
  query: { path: '/', what: 'a query of your history (crm open query <id>)' },
  segments: { path: '/segments', what: 'your saved segments' },
  smart: { path: '/smart-segments', what: "today's Smart Segments" },
  profile: { path: '/profile', what: 'your profile and personal access tokens' },
  admin: { path: '/admin', what: 'the admin console' },
} as const;

type Screen = keyof typeof SCREENS;

/** The command that opens a URL here: $BROWSER, else the platform's opener. */
function opener(env: NodeJS.ProcessEnv, url: string): [string, string[]] {
  if (env.BROWSER) return [env.BROWSER, [url]];
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

/** How long the opener may take to say it failed (xdg-open exits at once when it has no browser). */
const OPENER_VERDICT_MS = 3000;

/**
 * Starts the browser, detached; false when it cannot be started or the opener fails. An opener still
 * running after a few seconds is the browser itself: it is left to run.
 */
function launch(ctx: Context, url: string): Promise<boolean> {
  const [cmd, args] = opener(ctx.env, url);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore', env: ctx.env });
    const timer = setTimeout(() => {
      child.unref();
      resolve(true);
    }, OPENER_VERDICT_MS);
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}

export default defineCommand({
  name: 'open',
  summary: 'Open the web app (a screen of it) in your browser, or print its address',
  description: `Screens: ${Object.entries(SCREENS)
    .map(([name, s]) => `${name} (${s.what})`)
    .join(', ')}. Without a terminal, or with --print, the address is printed instead. $BROWSER chooses the browser.`,
  args: [
    { name: '[screen]', description: `one of ${Object.keys(SCREENS).join(', ')} (default home)`, choices: Object.keys(SCREENS) },
    { name: '[id]', description: 'for query: the query id from crm history' },
  ],
  options: [{ flags: '--print', description: 'print the address instead of opening it' }],
  examples: ['crm open', 'crm open smart', 'crm open query 3f2a1b9c', 'crm open admin --print'],
  input: z.object({
    screen: z.enum(Object.keys(SCREENS) as [Screen, ...Screen[]], { error: `must be one of ${Object.keys(SCREENS).join(', ')}` }).default('home'),
    id: z.string().trim().min(1).optional(),
    print: z.boolean().default(false),
  }),
  async run(input, ctx) {
    if (input.screen === 'query' && !input.id) throw new CliError('crm open query needs the id of a query', 'See crm history');
    if (input.screen !== 'query' && input.id) throw new CliError(`crm open ${input.screen} takes no id`);
    const server = ctx.server();
    const url = new URL(SCREENS[input.screen].path, server);
    if (input.screen === 'query') url.searchParams.set('query', (await resolveQueryId(ctx.api(), input.id!)).id);
    const address = url.toString();
    if (input.print || !ctx.ui.io.stdout.isTTY) return void ctx.ui.io.stdout.write(`${address}\n`);
    if (await launch(ctx, address)) ctx.ui.note(`Opening ${address} in your browser`);
    else {
      ctx.ui.io.stdout.write(`${address}\n`);
      ctx.ui.note('Could not start a browser (set BROWSER): open the address above yourself');
    }
  },
});
