// crm login: signs in and saves the server and a personal access token for it. With email and
// password (asked in a terminal; in a script the password comes from standard input), or with a
// token made before (--with-token, the token on standard input: CI, a second machine):
//   echo "$CRM_PASSWORD" | crm login --email you@company.com
//   echo "$CRM_TOKEN" | crm login --with-token
// A damaged config file is replaced.
import os from 'node:os';
import { Box, Text } from 'ink';
import { z } from 'zod';
import { isClientError } from '../../client/index.js';
import { LOGIN_FAILED, LOGIN_SUCCESS } from '../../client/messages.js';
import type { Api } from '../api.js';
import { defineCommand, JSON_OPTION } from '../command.js';
import { configFile, writeConfig, type SavedLogin } from '../config.js';
import type { Context } from '../context.js';
import { envToken, fallbackServer } from '../environment.js';
import { CliError, failingAs } from '../errors.js';
import { graphql, operation } from '../graphql.js';
import { NoticeLine } from '../views/Notice.js';
import loginCreateTokenNode, { type loginCreateTokenMutation } from '../__generated__/loginCreateTokenMutation.graphql.js';
import loginEndPreviousNode, { type loginEndPreviousMutation } from '../__generated__/loginEndPreviousMutation.graphql.js';
import loginCheckTokenNode, { type loginCheckTokenQuery } from '../__generated__/loginCheckTokenQuery.graphql.js';

const CreateToken = operation<loginCreateTokenMutation>(
  loginCreateTokenNode,
  graphql`
    mutation loginCreateTokenMutation($input: CreatePersonalAccessTokenInput!) {
      createPersonalAccessToken(input: $input) {
        token
        personalAccessToken {
          id
          name
          prefix
        }
        viewer {
          email
          firstName
          lastName
          isAdmin
        }
      }
    }
  `,
);

const EndPrevious = operation<loginEndPreviousMutation>(
  loginEndPreviousNode,
  graphql`
    mutation loginEndPreviousMutation {
      logout {
        authStatus {
          authenticated
        }
      }
    }
  `,
);

/** Who a token signs in as, and which of their tokens it is. */
const CheckToken = operation<loginCheckTokenQuery>(
  loginCheckTokenNode,
  graphql`
    query loginCheckTokenQuery {
      viewer {
        email
        firstName
        lastName
        isAdmin
      }
      personalAccessTokens(first: 100) {
        edges {
          node {
            id
            name
            isCurrent
          }
        }
      }
    }
  `,
);

type Viewer = NonNullable<loginCheckTokenQuery['response']['viewer']>;

/** Email and password: asked in a terminal, else --email and the password on standard input. */
export async function askCredentials(ctx: Context, server: string, email: string | undefined): Promise<{ email: string; password: string }> {
  const { ui } = ctx;
  if (ui.io.stdin.isTTY) {
    if (!ui.interactive) throw new CliError('No terminal to ask for the password in', 'Pipe it on standard input with --email');
    return ui.askLogin(server, email);
  }
  if (!email) throw new CliError('--email is required when the password comes from standard input', 'echo "$CRM_PASSWORD" | crm login --email you@company.com');
  const password = await ui.readStdin();
  if (!password) throw new CliError('No password on standard input');
  return { email, password };
}

/** Signs in with email and password and creates a named token. */
export async function createToken(ctx: Context, api: Api, credentials: { email: string; password: string }, name: string) {
  const { createPersonalAccessToken } = await failingAs(LOGIN_FAILED, async () => {
    try {
      return await ctx.ui.task('Signing in…', () => api.request(CreateToken, { input: { ...credentials, name } }));
    } catch (err) {
      // Here "unauthenticated" means wrong credentials, not an ended token.
      if (isClientError(err) && err.code === 'UNAUTHENTICATED') throw new CliError(`${LOGIN_FAILED}: ${err.message}`);
      throw err;
    }
  });
  return createPersonalAccessToken;
}

/** A token made before, on standard input (or typed in a terminal), checked with the server. */
async function signInWithToken(ctx: Context, server: string): Promise<{ token: string; viewer: Viewer; tokenId?: string; tokenName?: string }> {
  const { ui } = ctx;
  let token: string;
  if (ui.io.stdin.isTTY) {
    if (!ui.interactive) throw new CliError('No terminal to ask for the token in', 'Pipe it on standard input: echo "$CRM_TOKEN" | crm login --with-token');
    token = await ui.askSecret('Token:');
  } else token = await ui.readStdin();
  token = token.trim();
  if (!token) throw new CliError('No token on standard input', 'echo "$CRM_TOKEN" | crm login --with-token');
  const checked = await ui.task('Checking the token…', () => ctx.apiFor(server, token).request(CheckToken, {})).catch((err) => {
    if (isClientError(err) && err.code === 'UNAUTHENTICATED') return null;
    throw err;
  });
  if (!checked?.viewer) throw new CliError(`${LOGIN_FAILED}: ${server} does not accept this token (mistyped, revoked or expired)`);
  const current = checked.personalAccessTokens.edges.find((e) => e.node.isCurrent)?.node;
  return { token, viewer: checked.viewer, tokenId: current?.id, tokenName: current?.name };
}

export default defineCommand({
  name: 'login',
  summary: 'Sign in and save a personal access token for this computer',
  description: [
    'Asks for your email and password in a terminal; in scripts pass --email and the password on standard input. With --with-token, a token made before (crm auth tokens create) is read from standard input instead.',
    `The token is saved for the server (--server, CRM_SERVER, else the one you signed in to last) in ${'$XDG_CONFIG_HOME/crm-assistant/config.json'} (file mode 0600), and that server becomes the default; signing in to it again replaces (and revokes) its previous token. In CI you can skip saving anything: set CRM_SERVER and CRM_TOKEN.`,
  ].join('\n\n'),
  options: [
    { flags: '--email <email>', description: 'your account email' },
    { flags: '--with-token', description: 'read a personal access token from standard input instead of asking for a password' },
    JSON_OPTION('who you signed in as'),
  ],
  examples: [
    'crm login',
    'crm login --server https://crm.example.com',
    'echo "$CRM_PASSWORD" | crm login --email you@company.com',
    'crm login --with-token < token.txt',
  ],
  input: z.object({ email: z.email('must be an email address').optional(), withToken: z.boolean().default(false), json: z.boolean().optional() }),
  async run(input, ctx) {
    if (input.withToken && input.email) throw new CliError('--with-token and --email cannot go together: a token says who you are');
    const { ui } = ctx;
    const { config, damaged } = ctx.config();
    const server = ctx.givenServer() ?? fallbackServer(config.server);
    const previous: SavedLogin | undefined = config.logins[server];

    let token: string;
    let viewer: Viewer;
    let saved: Pick<SavedLogin, 'tokenId' | 'tokenName'>;
    if (input.withToken) {
      const checked = await signInWithToken(ctx, server);
      ({ token, viewer } = checked);
      saved = { tokenId: checked.tokenId, tokenName: checked.tokenName };
    } else {
      const credentials = await askCredentials(ctx, server, input.email);
      const created = await createToken(ctx, ctx.apiFor(server), credentials, `crm CLI on ${os.hostname()}`);
      ({ token, viewer } = created);
      saved = { tokenId: created.personalAccessToken.id, tokenName: created.personalAccessToken.name };
    }
    // The previous token of this server is no longer kept anywhere: end it (best effort).
    if (previous && previous.token !== token) await ctx.apiFor(server, previous.token).request(EndPrevious, {}).catch(() => undefined);
    writeConfig({ server, logins: { ...config.logins, [server]: { token, email: viewer.email, ...saved, savedAt: new Date().toISOString() } } });

    if (damaged) ui.note(`Replaced the damaged ${configFile()}`);
    if (envToken(ctx.env)) ui.note('CRM_TOKEN is set: commands use it instead of the token saved here until it is unset');
    if (input.json) {
      return ui.json({ server, email: viewer.email, firstName: viewer.firstName, lastName: viewer.lastName, isAdmin: viewer.isAdmin, tokenName: saved.tokenName ?? null, configFile: configFile() });
    }
    const who = `${viewer.firstName} ${viewer.lastName} <${viewer.email}>${viewer.isAdmin ? ', administrator' : ''}`;
    ui.print(
      <Box flexDirection="column">
        <NoticeLine notice={LOGIN_SUCCESS} />
        <Text>
          Signed in to {server} as {who}
        </Text>
      </Box>,
    );
    ui.note(`Token${saved.tokenName ? ` "${saved.tokenName}"` : ''} saved in ${configFile()}`);
  },
});
