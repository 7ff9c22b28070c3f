// crm crm [status | connect --token … | disconnect]: the CRM connection without the web app. Connecting
// here uses a private-app token (the OAuth flow needs a browser: crm open, then CRM Integration).
import { Box, Text } from 'ink';
import { z } from 'zod';
import { CRM_DISCONNECTED, CRM_DISCONNECT_FAILED, CRM_TOKEN_FAILED, CRM_TOKEN_REQUIRED, CRM_TOKEN_SAVED } from '../../client/messages.js';
import { formatCount } from '../../client/format.js';
import { defineCommand, defineGroup, JSON_OPTION } from '../command.js';
import type { Context } from '../context.js';
import { CliError, failingAs } from '../errors.js';
import { graphql, operation } from '../graphql.js';
import { NoticeLine } from '../views/Notice.js';
import crmStatusNode, { type crmStatusQuery } from '../__generated__/crmStatusQuery.graphql.js';
import crmConnectNode, { type crmConnectMutation } from '../__generated__/crmConnectMutation.graphql.js';
import crmDisconnectNode, { type crmDisconnectMutation } from '../__generated__/crmDisconnectMutation.graphql.js';

const _connectionFields = graphql`
  fragment crm_connection on CrmConnection {
    connected
    crmType
    tokenType
    scopes
    accountId
    supported
    message
    revoked
    activeImport {
      fileName
      importedCount
      completedAt
    }
    previousImport {
      fileName
    }
  }
`;

const Status = operation<crmStatusQuery>(
  crmStatusNode,
  graphql`
    query crmStatusQuery {
      crmConnection {
        ...crm_connection @relay(mask: false)
      }
      registrationOptions {
        crmTypes {
          value
          label
        }
      }
    }
  `,
);

const Connect = operation<crmConnectMutation>(
  crmConnectNode,
  graphql`
    mutation crmConnectMutation($token: String!) {
      saveCrmToken(input: { token: $token }) {
        crmConnection {
          ...crm_connection @relay(mask: false)
        }
      }
    }
  `,
);

const Disconnect = operation<crmDisconnectMutation>(
  crmDisconnectNode,
  graphql`
    mutation crmDisconnectMutation {
      disconnectCrm {
        crmConnection {
          ...crm_connection @relay(mask: false)
        }
      }
    }
  `,
);

type Connection = crmStatusQuery['response']['crmConnection'];

const METHOD: Record<string, string> = { oauth: 'OAuth', pat: 'API token', file: 'an imported contacts file' };

function ConnectionView({ c, crmName }: { c: Connection; crmName: string }) {
  return (
    <Box flexDirection="column">
      {c.connected && c.tokenType === 'file' ? (
        <Text>
          <Text color="green">✔</Text> Connected via an imported contacts file
        </Text>
      ) : c.connected ? (
        <Text>
          <Text color="green">✔</Text> {crmName} connected via {METHOD[c.tokenType ?? 'pat'] ?? c.tokenType}
          {c.accountId ? ` · account ${c.accountId}` : ''}
        </Text>
      ) : (
        <Text>
          <Text color="yellow">○</Text> {crmName} not connected
        </Text>
      )}
      {c.connected && c.scopes.length > 0 && <Text dimColor>  Scopes: {c.scopes.join(', ')}</Text>}
      {c.connected && c.activeImport && (
        <Text dimColor>
          {'  '}
          {formatCount(c.activeImport.importedCount)} contacts from {c.activeImport.fileName}
          {c.activeImport.completedAt ? `, imported ${c.activeImport.completedAt.slice(0, 10)}` : ''}
          {c.previousImport ? ` · crm import --undo brings back ${c.previousImport.fileName}` : ''}
        </Text>
      )}
      {c.revoked && !c.connected && <Text color="yellow">  The CRM revoked access for this app. Connect again to keep using your data.</Text>}
      {!c.supported && c.message && <Text dimColor>  {c.message}</Text>}
    </Box>
  );
}

async function readStatus(ctx: Context) {
  const { crmConnection, registrationOptions } = await ctx.api().request(Status, {});
  const crmName = registrationOptions.crmTypes.find((t) => t.value === crmConnection.crmType)?.label ?? crmConnection.crmType;
  return { connection: crmConnection, crmName };
}

const status = defineCommand({
  name: 'status',
  summary: 'Show the CRM connection (the default)',
  options: [JSON_OPTION('the connection')],
  examples: ['crm crm', 'crm crm status --json'],
  input: z.object({ json: z.boolean().optional() }),
  async run(input, ctx) {
    const { connection, crmName } = await readStatus(ctx);
    if (input.json) return ctx.ui.json(connection);
    ctx.ui.print(<ConnectionView c={connection} crmName={crmName} />);
    if (!connection.connected && connection.supported) ctx.ui.note('Connect it with crm crm connect --token <private-app token> (or crm open, then CRM Integration, for OAuth), or import your contacts with crm import <file>');
    if (!connection.connected && !connection.supported) ctx.ui.note('Import your contacts from a CSV or Excel export: crm import <file>');
  },
});

const connect = defineCommand({
  name: 'connect',
  summary: "Connect your CRM with a private app's access token",
  description:
    'The server checks the token with the CRM and keeps it encrypted; it replaces the current connection (OAuth or token). Without --token the token is read from standard input, or asked for in a terminal (a token on the command line is seen in your shell history and by other users of ps).',
  options: [{ flags: '--token <token>', description: 'the private app access token (pat-…); omit it to read it from standard input' }, JSON_OPTION('the connection')],
  examples: ['crm crm connect --token pat-na1-…', 'crm crm connect < hubspot-token.txt', 'crm crm connect'],
  input: z.object({ token: z.string().optional(), json: z.boolean().optional() }),
  async run(input, ctx) {
    const { ui } = ctx;
    let token = input.token;
    if (token === undefined) {
      if (ui.io.stdin.isTTY) {
        if (!ui.interactive) throw new CliError('No terminal to ask for the token in', 'Give it with --token, or on standard input');
        token = await ui.askSecret('CRM API token:');
      } else token = await ui.readStdin();
    }
    token = token.trim();
    if (!token) throw CliError.fromNotice(CRM_TOKEN_REQUIRED);
    const before = await readStatus(ctx);
    if (before.connection.connected && before.connection.tokenType === 'oauth') ui.note('You are connected via OAuth. Connecting via API token replaces the current connection.');
    const { saveCrmToken } = await failingAs(CRM_TOKEN_FAILED, () => ui.task('Checking the token with the CRM…', () => ctx.api().request(Connect, { token })));
    if (input.json) return ui.json(saveCrmToken.crmConnection);
    ui.print(
      <Box flexDirection="column">
        <NoticeLine notice={CRM_TOKEN_SAVED} />
        <ConnectionView c={saveCrmToken.crmConnection} crmName={before.crmName} />
      </Box>,
    );
  },
});

const disconnect = defineCommand({
  name: 'disconnect',
  summary: 'Disconnect your CRM (asking first)',
  description: 'Questions, exports and Smart Segments need a connected CRM until you connect again.',
  options: [{ flags: '-y, --yes', description: 'disconnect without asking' }, JSON_OPTION('the connection')],
  examples: ['crm crm disconnect', 'crm crm disconnect --yes'],
  input: z.object({ yes: z.boolean().default(false), json: z.boolean().optional() }),
  async run(input, ctx) {
    const { connection, crmName } = await readStatus(ctx);
    if (!connection.connected) {
      if (input.json) return ctx.ui.json(connection);
      return ctx.ui.note(`${crmName} is not connected: nothing to disconnect.`);
    }
    await ctx.ui.confirm(`Disconnect ${crmName}?`, { yes: input.yes, detail: 'Questions, exports and Smart Segments need a connected CRM.' });
    const { disconnectCrm } = await failingAs(CRM_DISCONNECT_FAILED.title, () => ctx.api().request(Disconnect, {}));
    if (input.json) return ctx.ui.json(disconnectCrm.crmConnection);
    ctx.ui.print(<NoticeLine notice={CRM_DISCONNECTED} />);
  },
});

export default defineGroup({
  name: 'crm',
  summary: 'Your CRM connection: status, connect with a token, disconnect',
  commands: [status, connect, disconnect],
  defaultCommand: 'status',
  examples: ['crm crm', 'crm crm connect --token pat-na1-…', 'crm crm disconnect --yes'],
});
