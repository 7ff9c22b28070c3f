// crm admin users [--banned]: every user with tier, today's usage and ban status (oldest account first).
import { z } from 'zod';
import { defineCommand, JSON_OPTION } from '../../command.js';
import { graphql, operation } from '../../graphql.js';
import { LIMIT_OPTION, limitInput, noteCut, readAll } from '../../paging.js';
import { adminUserColumns, AdminUsersView } from '../../views/Admin.js';
import usersNode, { type usersQuery } from '../../__generated__/usersQuery.graphql.js';

const Users = operation<usersQuery>(
  usersNode,
  graphql`
    query usersQuery($banned: Boolean, $first: Int!, $after: String) {
      registrationOptions {
        crmTypes {
          value
          label
        }
        industries {
          value
          label
        }
      }
      adminUsers(banned: $banned, first: $first, after: $after) {
        totalCount
        edges {
          node {
            userId
            firstName
            lastName
            email
            crmType
            industry
            tierName
            chatQueryLimit
            smartSegmentLimit
            todaysUsage {
              chatQueriesUsed
              smartSegmentsUsed
            }
            isBanned
            bannedAt
            banReason
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
);

export default defineCommand({
  name: 'users',
  summary: "List users with their tier, today's usage and status",
  options: [{ flags: '--banned', description: 'only banned users' }, JSON_OPTION('the list'), LIMIT_OPTION],
  examples: ['crm admin users', 'crm admin users --banned', 'crm admin users --json | jq -r ".[].email"', 'crm admin users | cut -f3'],
  input: z.object({ banned: z.boolean().optional(), json: z.boolean().optional(), limit: limitInput }),
  async run(input, ctx) {
    const api = ctx.api();
    let options: usersQuery['response']['registrationOptions'] | undefined;
    const { items: users, total } = await readAll(async (first, after) => {
      const response = await api.request(Users, { banned: input.banned ?? null, first, after });
      options = response.registrationOptions;
      return response.adminUsers;
    }, input.limit);
    if (input.json) ctx.ui.json(users);
    else ctx.ui.list(<AdminUsersView users={users} total={total} banned={input.banned} options={options} width={ctx.ui.width()} />, { columns: adminUserColumns(options), rows: users });
    noteCut(ctx.ui, users.length, total, 'users');
  },
});
