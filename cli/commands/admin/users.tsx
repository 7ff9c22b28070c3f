// crm admin users [--banned]: every user with tier, today's usage and ban status (oldest account first).
import { z } from 'zod';
import { defineCommand } from '../../command.js';
import { graphql, operation } from '../../graphql.js';
import { AdminUsersView, type AdminUserRow } from '../../views/Admin.js';
import usersNode, { type usersQuery } from '../../__generated__/usersQuery.graphql.js';

const Users = operation<usersQuery>(
  usersNode,
  graphql`
    query usersQuery($banned: Boolean, $after: String) {
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
      adminUsers(banned: $banned, first: 100, after: $after) {
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
  options: [
    { flags: '--banned', description: 'only banned users' },
    { flags: '--json', description: 'print the list as JSON' },
  ],
  examples: ['crm admin users', 'crm admin users --banned', 'crm admin users --json | jq ".[].email"'],
  input: z.object({ banned: z.boolean().optional(), json: z.boolean().optional() }),
  async run(input, ctx) {
    const api = ctx.api();
    const users: AdminUserRow[] = [];
    let total = 0;
    let after: string | null = null;
    let options: usersQuery['response']['registrationOptions'] | undefined;
    for (;;) {
      const response: usersQuery['response'] = await api.request(Users, { banned: input.banned ?? null, after });
      const page = response.adminUsers;
      options = response.registrationOptions;
      total = page.totalCount;
      users.push(...page.edges.map((e) => e.node));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor ?? null;
    }
    if (input.json) return ctx.ui.json(users);
    ctx.ui.print(<AdminUsersView users={users} total={total} banned={input.banned} options={options} width={ctx.ui.width()} />);
  },
});
