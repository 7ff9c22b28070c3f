// crm admin unban <email|id>: lets a banned user sign in again.
import { z } from 'zod';
import { unbanConfirm, userUnbanned } from '../../../client/messages.js';
import { defineCommand, idArg, JSON_OPTION } from '../../command.js';
import { CliError, failingAs } from '../../errors.js';
import { graphql, operation } from '../../graphql.js';
import { resolveUser } from '../../ids.js';
import { NoticeLine } from '../../views/Notice.js';
import unbanNode, { type unbanMutation } from '../../__generated__/unbanMutation.graphql.js';

const Unban = operation<unbanMutation>(
  unbanNode,
  graphql`
    mutation unbanMutation($userId: ID!) {
      unbanUser(input: { userId: $userId }) {
        user {
          userId
          email
          isBanned
        }
      }
    }
  `,
);

export default defineCommand({
  name: 'unban',
  summary: 'Unban a user',
  args: [{ name: '<user>', description: 'email, user id, or the first characters of the id' }],
  options: [{ flags: '-y, --yes', description: 'unban without asking' }, JSON_OPTION('the user')],
  examples: ['crm admin unban spam@example.com', 'crm admin unban 1c9e77d0 --yes'],
  input: z.object({ user: idArg, yes: z.boolean().default(false), json: z.boolean().optional() }),
  async run(input, ctx) {
    const api = ctx.api();
    const user = await resolveUser(api, input.user);
    if (!user.isBanned) throw new CliError(`${user.email} is not banned`);
    const name = `${user.firstName} ${user.lastName}`;
    await ctx.ui.confirm(unbanConfirm(name), { yes: input.yes });
    const { unbanUser } = await failingAs('Error unbanning user', () => api.request(Unban, { userId: user.id }));
    if (input.json) return ctx.ui.json(unbanUser.user);
    ctx.ui.print(<NoticeLine notice={userUnbanned(name)} />);
  },
});
