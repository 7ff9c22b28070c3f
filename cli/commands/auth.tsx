// crm auth status | tokens [list | create | revoke]: where the token of this run comes from and whose
// it is; your personal access tokens, a new one for CI, and revoking one.
import { Box, Text } from 'ink';
import { z } from 'zod';
import { formatDate, relativeTime } from '../../client/format.js';
import { defineCommand, defineGroup, idArg, JSON_OPTION } from '../command.js';
import { configFile, writeConfig } from '../config.js';
import type { Context } from '../context.js';
import { CliError, failingAs } from '../errors.js';
import { graphql, operation } from '../graphql.js';
import { pick } from '../ids.js';
import { LIMIT_OPTION, limitInput, noteCut, readAll } from '../paging.js';
import { NoticeLine } from '../views/Notice.js';
import { tokenColumns, tokenRawId, TokensView, type TokenRow } from '../views/Tokens.js';
import { askCredentials, createToken } from './login.js';
import authStatusNode, { type authStatusQuery } from '../__generated__/authStatusQuery.graphql.js';
import authTokensNode, { type authTokensQuery } from '../__generated__/authTokensQuery.graphql.js';
import authRevokeNode, { type authRevokeMutation } from '../__generated__/authRevokeMutation.graphql.js';

const _tokenFields = graphql`
  fragment auth_token on PersonalAccessToken {
    id
    name
    prefix
    createdAt
    lastUsedAt
    expiresAt
    isCurrent
  }
`;

const Status = operation<authStatusQuery>(
  authStatusNode,
  graphql`
    query authStatusQuery {
      viewer {
        email
        firstName
        lastName
        isAdmin
      }
      # At most 50 live tokens per user: one page has the current one.
      personalAccessTokens(first: 100) {
        edges {
          node {
            ...auth_token @relay(mask: false)
          }
        }
      }
    }
  `,
);

const Tokens = operation<authTokensQuery>(
  authTokensNode,
  graphql`
    query authTokensQuery($first: Int!, $after: String) {
      personalAccessTokens(first: $first, after: $after) {
        totalCount
        edges {
          node {
            ...auth_token @relay(mask: false)
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

const Revoke = operation<authRevokeMutation>(
  authRevokeNode,
  graphql`
    mutation authRevokeMutation($id: ID!) {
      revokePersonalAccessToken(input: { id: $id }) {
        revokedId
      }
    }
  `,
);

const notSignedIn = (ctx: Context) => new CliError(`Not signed in to ${ctx.server()}`, 'Run crm login (or set CRM_TOKEN)', undefined, 'NOT_SIGNED_IN');

const status = defineCommand({
  name: 'status',
  summary: 'Show the server, who the token signs in as, its name and where it is kept',
  description: 'Exits 1 when there is no token for the server, or the server does not accept it.',
  options: [JSON_OPTION('the status')],
  examples: ['crm auth status', 'crm auth status --json', 'CRM_TOKEN=crm_pat_… crm auth status'],
  input: z.object({ json: z.boolean().optional() }),
  async run(input, ctx) {
    const creds = ctx.credentials();
    if (!creds) throw notSignedIn(ctx);
    const { viewer, personalAccessTokens } = await ctx.api().request(Status, {});
    if (!viewer) throw new CliError(`${creds.server} does not accept the token (signed out, revoked or expired)`, 'Run crm login', undefined, 'UNAUTHENTICATED');
    const token = personalAccessTokens.edges.map((e) => e.node).find((t) => t.isCurrent);
    const from = creds.source === 'CRM_TOKEN' ? 'the CRM_TOKEN environment variable' : configFile();
    if (input.json) {
      return ctx.ui.json({
        server: creds.server,
        user: viewer,
        token: token ? { id: tokenRawId(token), name: token.name, prefix: token.prefix, createdAt: token.createdAt, lastUsedAt: token.lastUsedAt ?? null, expiresAt: token.expiresAt ?? null } : null,
        source: creds.source,
        configFile: creds.source === 'config' ? configFile() : null,
      });
    }
    ctx.ui.print(
      <Box flexDirection="column">
        <Text>
          <Text color="green">✔</Text> Signed in to <Text bold>{creds.server}</Text> as {viewer.firstName} {viewer.lastName} &lt;{viewer.email}&gt;
          {viewer.isAdmin ? <Text color="magenta"> administrator</Text> : null}
        </Text>
        <Text>
          {'  '}Token: {token ? `"${token.name}" (${token.prefix}…), created ${formatDate(token.createdAt)}${token.expiresAt ? `, expires ${formatDate(token.expiresAt)}` : ''}` : 'a token of this account'}
        </Text>
        <Text>
          {'  '}From: {from}
        </Text>
      </Box>,
    );
  },
});

const list = defineCommand({
  name: 'list',
  summary: 'List your personal access tokens (the default)',
  options: [JSON_OPTION('the list'), LIMIT_OPTION],
  examples: ['crm auth tokens', 'crm auth tokens --json'],
  input: z.object({ json: z.boolean().optional(), limit: limitInput }),
  async run(input, ctx) {
    const api = ctx.api();
    const { items, total } = await readAll((first, after) => api.request(Tokens, { first, after }).then((r) => r.personalAccessTokens), input.limit);
    if (input.json) ctx.ui.json(items.map((t) => ({ ...t, id: tokenRawId(t) })));
    else ctx.ui.list(<TokensView tokens={items} total={total} width={ctx.ui.width()} />, { columns: tokenColumns(), rows: items });
    noteCut(ctx.ui, items.length, total, 'tokens');
  },
});

const create = defineCommand({
  name: 'create',
  summary: 'Make a new token (for CI or another machine); it is printed once and not saved',
  description:
    'Signs in with your email and password like crm login (asked in a terminal, or the password on standard input), and prints the token alone on standard output. Store it as a secret (CRM_TOKEN in CI); crm login --with-token saves it on another machine.',
  options: [
    { flags: '--name <name>', description: 'what the token is for, as crm auth tokens lists it (required)' },
    { flags: '--email <email>', description: 'your account email (default: the one signed in to this server)' },
    JSON_OPTION('the token with its id and name'),
  ],
  examples: ['crm auth tokens create --name "GitHub Actions"', 'echo "$CRM_PASSWORD" | crm auth tokens create --name nightly-export --email you@company.com > token.txt'],
  input: z.object({
    name: z.string({ error: 'a name is required' }).trim().min(1, 'a name is required').max(100, 'at most 100 characters'),
    email: z.email('must be an email address').optional(),
    json: z.boolean().optional(),
  }),
  async run(input, ctx) {
    const server = ctx.server();
    const email = input.email ?? ctx.config().config.logins[server]?.email;
    const credentials = await askCredentials(ctx, server, email);
    const created = await createToken(ctx, ctx.apiFor(server), credentials, input.name);
    const { personalAccessToken: t } = created;
    if (input.json) return ctx.ui.json({ token: created.token, id: tokenRawId(t), name: t.name, prefix: t.prefix, server });
    ctx.ui.io.stdout.write(`${created.token}\n`);
    ctx.ui.note(`Token "${t.name}" for ${credentials.email} on ${server}: shown this once. Use it as CRM_TOKEN, or crm login --with-token on another machine.`);
  },
});

/** A token by its id (or first characters), Relay id, or its display prefix ("crm_pat_abc123"). */
function findToken(tokens: readonly TokenRow[], input: string): TokenRow {
  if (input.startsWith('crm_pat_')) {
    const found = tokens.filter((t) => input.startsWith(t.prefix) || t.prefix.startsWith(input));
    if (found.length === 1) return found[0];
    throw new CliError(found.length ? `${input} matches ${found.length} tokens: give more characters` : `None of your tokens starts with ${input}`, 'See crm auth tokens');
  }
  const byRelayId = tokens.find((t) => t.id === input);
  return byRelayId ?? pick(tokens, input, tokenRawId, 'token', 'among your tokens (crm auth tokens)');
}

const revoke = defineCommand({
  name: 'revoke',
  summary: 'Revoke one of your tokens (asking first)',
  description: 'A client using it is signed out at once. Revoking the token this computer uses signs you out here.',
  args: [{ name: '<id>', description: 'the token id from crm auth tokens (its first characters are enough), or its crm_pat_… prefix' }],
  options: [{ flags: '-y, --yes', description: 'revoke without asking' }, JSON_OPTION('the revoked token')],
  examples: ['crm auth tokens revoke 7c1d2e3f', 'crm auth tokens revoke crm_pat_Ab12Cd --yes'],
  input: z.object({ id: idArg, yes: z.boolean().default(false), json: z.boolean().optional() }),
  async run(input, ctx) {
    const api = ctx.api();
    const { items } = await readAll((first, after) => api.request(Tokens, { first, after }).then((r) => r.personalAccessTokens));
    const token = findToken(items, input.id);
    await ctx.ui.confirm(`Revoke the token "${token.name}" (${token.prefix}…)?`, {
      yes: input.yes,
      detail: token.isCurrent ? 'It is the token this command uses: you are signed out here.' : `Last used ${token.lastUsedAt ? relativeTime(token.lastUsedAt) : 'never'}.`,
    });
    await failingAs('Token not revoked', () => api.request(Revoke, { id: token.id }));
    const creds = ctx.credentials();
    if (token.isCurrent && creds?.source === 'config') {
      const { config } = ctx.config();
      const { [creds.server]: _revoked, ...others } = config.logins;
      writeConfig({ ...config, logins: others });
    }
    if (input.json) return ctx.ui.json({ id: tokenRawId(token), name: token.name, prefix: token.prefix, revoked: true, wasCurrent: token.isCurrent });
    ctx.ui.print(<NoticeLine notice={{ title: 'Token revoked', body: `"${token.name}" can no longer be used.` }} />);
    if (token.isCurrent) ctx.ui.note(creds?.source === 'CRM_TOKEN' ? 'It was CRM_TOKEN: unset it.' : `It was the token saved for ${creds?.server}: you are signed out there.`);
  },
});

const tokens = defineGroup({
  name: 'tokens',
  summary: 'Your personal access tokens: list, create (for CI), revoke',
  commands: [list, create, revoke],
  defaultCommand: 'list',
  examples: ['crm auth tokens', 'crm auth tokens create --name "GitHub Actions"', 'crm auth tokens revoke 7c1d2e3f'],
});

export default defineGroup({
  name: 'auth',
  summary: 'Sign-in status and personal access tokens',
  commands: [status, tokens],
  examples: ['crm auth status', 'crm auth tokens', 'crm auth tokens create --name ci', 'crm auth tokens revoke 7c1d2e3f --yes'],
});
