// crm login: signs in with email and password and saves the server and a personal access token.
// In a terminal it asks for what is missing; in a script the password comes from standard input:
//   echo "$CRM_PASSWORD" | crm login --email you@company.com
import os from 'node:os';
import { Box, Text } from 'ink';
import { z } from 'zod';
import { isClientError } from '../../client/index.js';
import { LOGIN_FAILED, LOGIN_SUCCESS } from '../../client/messages.js';
import { defineCommand } from '../command.js';
import { configFile, DEFAULT_SERVER, writeLogin } from '../config.js';
import { CliError, failingAs } from '../errors.js';
import { graphql, operation } from '../graphql.js';
import { NoticeLine } from '../views/Notice.js';
import loginCreateTokenNode, { type loginCreateTokenMutation } from '../__generated__/loginCreateTokenMutation.graphql.js';
import loginEndPreviousNode, { type loginEndPreviousMutation } from '../__generated__/loginEndPreviousMutation.graphql.js';

const CreateToken = operation<loginCreateTokenMutation>(
  loginCreateTokenNode,
  graphql`
    mutation loginCreateTokenMutation($input: CreatePersonalAccessTokenInput!) {
      createPersonalAccessToken(input: $input) {
        token
        personalAccessToken {
          id
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

const serverUrl = z
  .url({ protocol: /^https?$/, error: 'must be the server address, e.g. http://127.0.0.1:3000' })
  .transform((u) => new URL(u).origin);

export default defineCommand({
  name: 'login',
  summary: 'Sign in and save a personal access token for this computer',
  description: `Asks for your email and password in a terminal; in scripts pass --email and the password on standard input. The server and token are saved in ${'$XDG_CONFIG_HOME/crm-assistant'} (file mode 0600); signing in again replaces (and revokes) the previous token.`,
  options: [
    { flags: '--server <url>', description: `the CRM Assistant server (default: the saved one, else ${DEFAULT_SERVER})` },
    { flags: '--email <email>', description: 'your account email' },
  ],
  examples: ['crm login', 'crm login --server https://crm.example.com', 'echo "$CRM_PASSWORD" | crm login --email you@company.com'],
  input: z.object({ server: serverUrl.optional(), email: z.email('must be an email address').optional() }),
  async run(input, ctx) {
    const previous = ctx.login();
    const server = input.server ?? previous?.server ?? DEFAULT_SERVER;
    const { ui } = ctx;
    let credentials: { email: string; password: string };
    if (ui.io.stdin.isTTY) {
      if (!ui.interactive) throw new CliError('No terminal to ask for the password in', 'Pipe it on standard input with --email');
      credentials = await ui.askLogin(server, input.email);
    } else {
      if (!input.email) throw new CliError('--email is required when the password comes from standard input', 'echo "$CRM_PASSWORD" | crm login --email you@company.com');
      const password = await ui.readStdin();
      if (!password) throw new CliError('No password on standard input');
      credentials = { email: input.email, password };
    }
    const api = ctx.apiFor(server);
    const name = `crm CLI on ${os.hostname()}`;
    const { createPersonalAccessToken: created } = await failingAs(LOGIN_FAILED, async () => {
      try {
        return await ui.task('Signing in…', () => api.request(CreateToken, { input: { ...credentials, name } }));
      } catch (err) {
        // Here "unauthenticated" means wrong credentials, not an ended token.
        if (isClientError(err) && err.code === 'UNAUTHENTICATED') throw new CliError(`${LOGIN_FAILED}: ${err.message}`);
        throw err;
      }
    });
    // The previous token of this server is no longer needed: end it (best effort).
    if (previous && previous.server === server && previous.token !== created.token) {
      await ctx.apiFor(server, previous.token).request(EndPrevious, {}).catch(() => undefined);
    }
    writeLogin({ server, token: created.token, email: created.viewer.email, tokenId: created.personalAccessToken.id, savedAt: new Date().toISOString() });
    const who = `${created.viewer.firstName} ${created.viewer.lastName} <${created.viewer.email}>${created.viewer.isAdmin ? ', administrator' : ''}`;
    ui.print(
      <Box flexDirection="column">
        <NoticeLine notice={LOGIN_SUCCESS} />
        <Text>
          Signed in to {server} as {who}
        </Text>
      </Box>,
    );
    ui.note(`Token "${name}" saved in ${configFile()}`);
  },
});
