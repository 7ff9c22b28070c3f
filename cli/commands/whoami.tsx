// crm whoami: who the saved token signs in as, on which server.
import { Box, Text } from 'ink';
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { CliError } from '../errors.js';
import { graphql, operation } from '../graphql.js';
import whoamiNode, { type whoamiQuery } from '../__generated__/whoamiQuery.graphql.js';

const Whoami = operation<whoamiQuery>(
  whoamiNode,
  graphql`
    query whoamiQuery {
      viewer {
        userId
        email
        firstName
        lastName
        isAdmin
        crmType
      }
      # Needs a signed-in user: a revoked token or a suspended account answers with an error here.
      usage {
        tierName
      }
      crmConnection {
        connected
      }
    }
  `,
);

export default defineCommand({
  name: 'whoami',
  summary: 'Show who you are signed in as',
  options: [{ flags: '--json', description: 'print it as JSON' }],
  examples: ['crm whoami', 'crm whoami --json', 'crm auth status'],
  input: z.object({ json: z.boolean().optional() }),
  async run(input, ctx) {
    const api = ctx.api();
    const { viewer, usage, crmConnection } = await api.request(Whoami, {});
    if (!viewer) throw new CliError('Not signed in', 'Run crm login');
    const server = api.server;
    if (input.json) return ctx.ui.json({ server, ...viewer, tierName: usage.tierName, crmConnected: crmConnection.connected });
    ctx.ui.print(
      <Box flexDirection="column">
        <Text>
          <Text bold>
            {viewer.firstName} {viewer.lastName}
          </Text>{' '}
          &lt;{viewer.email}&gt;{viewer.isAdmin ? <Text color="magenta"> administrator</Text> : null}
        </Text>
        <Text>
          {usage.tierName} · CRM {crmConnection.connected ? <Text color="green">connected</Text> : <Text color="yellow">not connected</Text>} · {server}
        </Text>
      </Box>,
    );
  },
});
