// CRM connection over GraphQL: status, private-app token, OAuth start URL, disconnect.
import { builder } from '../builder.js';
import { requireUser } from '../http/guards.js';
import { connectionStatus, disconnect, savePrivateAppToken, startOAuth } from '../services/crm.js';

export const CrmConnection = builder.simpleObject('CrmConnection', {
  fields: (t) => ({
    connected: t.boolean(),
    hasToken: t.boolean(),
    tokenType: t.string({ nullable: true, description: '"oauth" or "pat"' }),
    scopes: t.stringList(),
    crmType: t.string(),
    supported: t.boolean({ description: 'false when the CRM of the account has no connector yet' }),
    message: t.string({ nullable: true }),
    accountId: t.string({ nullable: true }),
    revoked: t.boolean(),
  }),
});

const toGraphQL = (s: Awaited<ReturnType<typeof connectionStatus>>) => ({
  ...s,
  hasToken: s.connected,
  message: s.message ?? null,
  accountId: s.accountId ?? null,
  revoked: Boolean(s.revoked),
});

builder.queryField('crmConnection', (t) =>
  t.field({
    type: CrmConnection,
    authScopes: { authenticated: true },
    resolve: async (_r, _a, ctx) => toGraphQL(await connectionStatus(ctx.deps, requireUser(ctx))),
  }),
);

const SaveCrmTokenInput = builder.inputType('SaveCrmTokenInput', {
  fields: (t) => ({ token: t.string({ required: true }) }),
});

builder.mutationField('saveCrmToken', (t) =>
  t.field({
    type: CrmConnection,
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: SaveCrmTokenInput, required: true }) },
    resolve: async (_r, { input }, ctx) => toGraphQL(await savePrivateAppToken(ctx.deps, requireUser(ctx), input.token)),
  }),
);

builder.mutationField('startCrmOAuth', (t) =>
  t.string({
    authScopes: { authenticated: true },
    description: 'Returns the URL to send the browser to; the provider redirects back to /api/auth/hubspot/callback',
    resolve: (_r, _a, ctx) => startOAuth(ctx.deps, requireUser(ctx), ctx.session!.id),
  }),
);

builder.mutationField('disconnectCrm', (t) =>
  t.field({
    type: CrmConnection,
    authScopes: { authenticated: true },
    resolve: async (_r, _a, ctx) => {
      const user = requireUser(ctx);
      await disconnect(ctx.deps, user);
      return toGraphQL(await connectionStatus(ctx.deps, user));
    },
  }),
);
