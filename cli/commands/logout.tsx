// crm logout: revokes the saved token on the server, then forgets it.
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { removeLogin } from '../config.js';
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
  description: 'When the server cannot be reached the token is kept (it would still work): run crm logout again later.',
  examples: ['crm logout'],
  input: z.object({}),
  async run(_input, ctx) {
    const login = ctx.login();
    if (!login) {
      ctx.ui.note('Not signed in.');
      return;
    }
    await ctx.ui.task('Signing out…', () => ctx.api().request(Logout, {}));
    removeLogin();
    ctx.ui.print(<NoticeLine notice={{ title: 'Signed out', body: `the token for ${login.email} on ${login.server} is revoked` }} />);
  },
});
