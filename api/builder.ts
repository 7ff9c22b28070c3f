// The Pothos builder and nothing else: plugins, scalars, auth scopes. Schema files add the types.
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin, { decodeGlobalID } from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import { createGraphQLError } from 'graphql-yoga';
import type { RequestContext } from './context.js';
import { toGraphQLError } from './errors.js';
import type PrismaTypes from './generated/pothos-types.js';
import { getDatamodel } from './generated/pothos-types.js';
import { findInputProblem } from './http/input-guard.js';
import { isLoadableId } from './schema/node-access.js';

/** Decodes a Relay global id; a malformed one decodes to a type that does not exist (see node-access). */
function tolerantDecode(globalID: string): { typename: string; id: string } {
  try {
    return decodeGlobalID(globalID);
  } catch {
    return { typename: '', id: '' };
  }
}

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { authenticated: boolean; admin: boolean };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    Date: { Input: string; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, ErrorsPlugin, PrismaPlugin, RelayPlugin, SimpleObjectsPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (ctx) => ({ authenticated: Boolean(ctx.user), admin: Boolean(ctx.user?.isAdmin) }),
    unauthorizedError: (_parent, ctx) =>
      ctx.user
        ? createGraphQLError('You need administrator privileges to do this', { extensions: { code: 'FORBIDDEN', http: { status: 403 } } })
        : ctx.suspended
          ? toGraphQLError(ctx.suspended)
          : createGraphQLError('You must be signed in', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } }),
  },
  prisma: {
    client: (ctx) => ctx.deps.prisma,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    // Every list page is bounded (a request asking for more gets the maximum).
    defaultConnectionSize: 20,
    maxConnectionSize: 100,
    onUnusedQuery: null,
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    decodeGlobalID: tolerantDecode,
    // An id the viewer may not load, of an unknown type or malformed is null, like a missing one.
    nodeQueryOptions: { resolve: (_root, { id }, _ctx, _info, resolveNode) => (isLoadableId(id) ? resolveNode(id) : null) },
    nodesQueryOptions: {
      resolve: (_root, args, _ctx, _info, resolveNodes) => {
        // resolveNodes() reads args.ids itself: blank out the ids that cannot be loaded.
        const ids = args.ids as ({ typename: string; id: string } | null)[];
        ids.forEach((id, i) => {
          if (!isLoadableId(id)) ids[i] = null;
        });
        return resolveNodes([]);
      },
    },
  },
  errors: { defaultTypes: [] },
});

builder.queryType({});
builder.mutationType({});

builder.scalarType('DateTime', {
  description: 'An instant as an ISO-8601 string',
  serialize: (v) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString()),
  parseValue: (v) => {
    const d = new Date(String(v));
    if (Number.isNaN(d.getTime())) throw createGraphQLError('Invalid DateTime', { extensions: { code: 'BAD_USER_INPUT' } });
    return d;
  },
});

builder.scalarType('Date', {
  description: 'A calendar date YYYY-MM-DD',
  serialize: (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v)),
  parseValue: (v) => {
    const s = String(v);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s) || Number.isNaN(Date.parse(s))) {
      throw createGraphQLError('Invalid Date, expected YYYY-MM-DD', { extensions: { code: 'BAD_USER_INPUT' } });
    }
    return s;
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON value',
  serialize: (v) => v,
  parseValue: (v) => {
    const problem = findInputProblem(v);
    if (problem) throw createGraphQLError(problem.message, { extensions: { code: 'BAD_USER_INPUT' } });
    return v;
  },
});
