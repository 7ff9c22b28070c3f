// crm admin ban <email|id> --reason "…": bans a user; their sessions and tokens end at once.
import { z } from 'zod';
import { banConfirm, userBanned } from '../../../client/messages.js';
import { defineCommand, idArg, JSON_OPTION } from '../../command.js';
import { CliError, failingAs } from '../../errors.js';
import { graphql, operation } from '../../graphql.js';
import { resolveUser } from '../../ids.js';
import { NoticeLine } from '../../views/Notice.js';
import banNode, { type banMutation } from '../../__generated__/banMutation.graphql.js';

const Ban = operation<banMutation>(
  banNode,
  graphql`
    mutation banMutation($userId: ID!, $reason: String!) {
      banUser(input: { userId: $userId, reason: $reason }) {
        user {
          userId
          email
          isBanned
          bannedAt
          banReason
        }
      }
    }
  `,
);

export default defineCommand({
  name: 'ban',
  summary: 'Ban a user (their sessions and access tokens end at once)',
  args: [{ name: '<user>', description: 'email, user id, or the first characters of the id' }],
  options: [
    { flags: '--reason <text>', description: 'why (required; the user is told it at sign-in)' },
    { flags: '-y, --yes', description: 'ban without asking' },
    JSON_OPTION('the banned user'),
  ],
  examples: ['crm admin ban spam@example.com --reason "Automated scraping"', 'crm admin ban 1c9e77d0 --reason "Chargeback" --yes'],
  input: z.object({
    user: idArg,
    reason: z.string({ error: 'a reason is required' }).trim().min(1, 'a reason is required'),
    yes: z.boolean().default(false),
    json: z.boolean().optional(),
  }),
  async run(input, ctx) {
    const api = ctx.api();
    const user = await resolveUser(api, input.user);
    if (user.isBanned) throw new CliError(`${user.email} is already banned`);
    await ctx.ui.confirm(banConfirm(`${user.firstName} ${user.lastName}`), { yes: input.yes, detail: `Reason: ${input.reason}` });
    const { banUser } = await failingAs('Error banning user', () => api.request(Ban, { userId: user.id, reason: input.reason }));
    if (input.json) return ctx.ui.json(banUser.user);
    ctx.ui.print(<NoticeLine notice={userBanned()} />);
  },
});
