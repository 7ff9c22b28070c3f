// crm logout: revokes the token saved for the server on the server, then forgets it. The server stays
// the default, so that the next `crm login` goes to it. A damaged config file is removed.
import { z } from 'zod';
import { isClientError } from '../../client/index.js';
import { defineCommand, JSON_OPTION } from '../command.js';
import { configFile, removeConfig, writeConfig } from '../config.js';
import { envToken } from '../environment.js';
import { CliError } from '../errors.js';
import { graphql, operation } from '../graphql.js';
import { NoticeLine } from '../views/Notice.js';
import logoutNode, { type logoutMutation } from '../__generated__/logoutMutation.graphql.js';

const Logout = operation<logoutMutation>(
  logoutNode,
  graphql`
    mutation logoutMutation {
      logout {
        authStatus {
          authenticated
        }
      }
    }
  `,
);

export default defineCommand({
  name: 'logout',
  summary: 'Revoke the saved token on the server and forget it',
  description:
    'The server stays the default for the next crm login. When the server cannot be reached the token is kept (it would still work): run crm logout again later. A config file crm cannot read is removed.',
  options: [JSON_OPTION('what was signed out')],
  examples: ['crm logout', 'crm logout --server https://crm.example.com'],
  input: z.object({ json: z.boolean().optional() }),
  async run(input, ctx) {
    const { ui } = ctx;
    if (envToken(ctx.env)) {
      throw new CliError('CRM_TOKEN is set: crm logout only forgets a token saved by crm login', 'Unset CRM_TOKEN; to end that token, crm auth tokens revoke <id>');
    }
    const { config, damaged } = ctx.config();
    if (damaged) {
      removeConfig();
      ui.note(`Removed the damaged ${configFile()}. A token it held could not be revoked: sign in again and see crm auth tokens.`);
      if (input.json) ui.json({ signedOut: false, removedDamagedConfig: true });
      return;
    }
    const server = ctx.server();
    const login = config.logins[server];
    if (!login) {
      ui.note(`Not signed in to ${server}.`);
      if (input.json) ui.json({ signedOut: false, server });
      return;
    }
    let ended = 'is revoked';
    try {
      await ui.task('Signing out…', () => ctx.apiFor(server, login.token).request(Logout, {}));
    } catch (err) {
      // A token the server no longer accepts has nothing left to revoke: forget it all the same.
      if (!isClientError(err) || err.code !== 'UNAUTHENTICATED') throw err;
      ended = 'had already ended';
    }
    const { [server]: _forgotten, ...others } = config.logins;
    writeConfig({ server: config.server ?? server, logins: others });
    if (input.json) return ui.json({ signedOut: true, server, email: login.email });
    ui.print(<NoticeLine notice={{ title: 'Signed out', body: `the token for ${login.email} on ${server} ${ended}` }} />);
  },
});
