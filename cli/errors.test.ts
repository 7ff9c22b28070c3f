// The single error handler: every failure becomes one line and an exit code (0 ok, 1 the user's
// problem, 2 the server's or the network's).
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GraphQLClientError, networkError } from '../client/errors.js';
import { defineCommand, intOption } from './command.js';
import type { Context } from './context.js';
import { CliError, failingAs, toFailure } from './errors.js';

const gqlError = (code: string, message: string, details: Record<string, unknown> = {}, status?: number) => new GraphQLClientError(message, code, details, [], status);

describe('toFailure', () => {
  it('user problems exit 1 with one line, hints joined', () => {
    expect(toFailure(new CliError('Not signed in', 'Run crm login first'))).toEqual({ exitCode: 1, message: 'Not signed in. Run crm login first', code: 'USER_ERROR' });
    expect(toFailure(new CliError('Daily limit reached: You have used all 3.', 'See crm usage')).message).toBe('Daily limit reached: You have used all 3. See crm usage');
    expect(toFailure(gqlError('FORBIDDEN', 'You need administrator privileges to do this'))).toEqual({ exitCode: 1, message: 'You need administrator privileges to do this', code: 'FORBIDDEN' });
    expect(toFailure(gqlError('BAD_USER_INPUT', 'Please type a\nquestion'))).toEqual({ exitCode: 1, message: 'Please type a question', code: 'BAD_USER_INPUT' });
  });

  it('a suspended account and a dead token say so', () => {
    const suspended = toFailure(gqlError('ACCOUNT_SUSPENDED', 'Your account has been suspended: spam. Please contact support for assistance.'));
    expect(suspended).toEqual({ exitCode: 1, message: 'Account suspended: Your account has been suspended: spam. Please contact support for assistance.', code: 'ACCOUNT_SUSPENDED' });
    expect(toFailure(gqlError('UNAUTHENTICATED', 'You must be signed in')).message).toMatch(/^Not signed in: .* Run crm login\.$/);
  });

  it('a server that did not answer in time exits 2, with its error code for --json callers', () => {
    const f = toFailure(gqlError('TIMEOUT', 'The server at http://x did not answer within 1 s.'));
    expect(f).toEqual({ exitCode: 2, message: 'The server at http://x did not answer within 1 s.', code: 'TIMEOUT' });
    expect(toFailure(gqlError('QUOTA_EXCEEDED', 'limit', { used: 3, limit: 3 }))).toMatchObject({ exitCode: 1, code: 'QUOTA_EXCEEDED', details: { used: 3, limit: 3 } });
  });

  it('server, CRM and network problems exit 2', () => {
    expect(toFailure(networkError('Could not reach the server at http://127.0.0.1:1/graphql: fetch failed'))).toEqual({
      exitCode: 2,
      message: 'Could not reach the server at http://127.0.0.1:1/graphql: fetch failed',
      code: 'NETWORK_ERROR',
    });
    expect(toFailure(gqlError('INTERNAL_SERVER_ERROR', 'Unexpected error.'))).toEqual({ exitCode: 2, message: 'The server failed: Unexpected error.', code: 'INTERNAL_SERVER_ERROR' });
    expect(toFailure(gqlError('CRM_ERROR', 'HubSpot is unavailable', {}, 502)).exitCode).toBe(2);
    const bug = toFailure(new TypeError('x is undefined'));
    expect(bug.exitCode).toBe(2);
    expect(bug.message).toBe('Unexpected error: x is undefined (CRM_DEBUG=1 shows the stack)');
    expect(bug.stack).toContain('TypeError');
  });

  it("commander's own messages are not repeated; --help exits 0", () => {
    expect(toFailure(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"))).toEqual({ exitCode: 1, message: '', code: 'USAGE' });
    expect(toFailure(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toEqual({ exitCode: 0, message: '', code: 'USAGE' });
  });
});

describe('failingAs', () => {
  it("puts the action's title on refusals only", async () => {
    await expect(failingAs('Error creating segment', () => Promise.reject(gqlError('BAD_USER_INPUT', 'Description required')))).rejects.toThrow(
      new CliError('Error creating segment: Description required', undefined, 1, 'BAD_USER_INPUT'),
    );
    const network = networkError('down');
    await expect(failingAs('Error creating segment', () => Promise.reject(network))).rejects.toBe(network);
    const suspended = gqlError('ACCOUNT_SUSPENDED', 'x');
    await expect(failingAs('Error creating segment', () => Promise.reject(suspended))).rejects.toBe(suspended);
  });
});

describe('defineCommand', () => {
  it('validates options with zod and names the option in the one-line error', async () => {
    let ran: unknown;
    const make = defineCommand({
      name: 'demo',
      summary: 'demo',
      options: [{ flags: '--limit <n>', description: 'n' }],
      examples: ['crm demo --limit 5'],
      input: z.object({ limit: intOption(1, 1000).default(10) }),
      run: async (input) => {
        ran = input;
      },
    });
    const program = new Command('crm').exitOverride();
    program.addCommand(make({} as Context).exitOverride());
    await program.parseAsync(['demo', '--limit', '20'], { from: 'user' });
    expect(ran).toEqual({ limit: 20 });
    await program.parseAsync(['demo'], { from: 'user' });
    expect(ran).toEqual({ limit: 10 });
    const err = await program.parseAsync(['demo', '--limit', 'lots'], { from: 'user' }).catch((e) => e);
    expect(toFailure(err)).toEqual({ exitCode: 1, message: '--limit: must be a whole number from 1 to 1000. See crm demo --help', code: 'USER_ERROR' });
    expect(make({} as Context).helpInformation()).toContain('demo');
  });
});
