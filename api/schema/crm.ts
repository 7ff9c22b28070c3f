// CRM connection over GraphQL: status, private-app token, OAuth start URL, disconnect.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import { requireBrowserSession, requireUser } from '../http/guards.js';
import { connectionStatus, disconnect, savePrivateAppToken, startOAuth, type ConnectionStatus } from '../services/crm.js';

export const CrmConnection = builder.objectRef<ConnectionStatus>('CrmConnection').implement({
  description: "The viewer's CRM connection",
  fields: (t) => ({
    // A stable id lets a client store merge the query result and every mutation payload.
    id: t.id({ resolve: (s) => encodeGlobalID('CrmConnection', s.userId) }),
    connected: t.exposeBoolean('connected'),
    hasToken: t.boolean({ description: 'Same as connected (the spec\'s token check)', resolve: (s) => s.connected }),
    tokenType: t.string({ nullable: true, description: '"oauth" or "pat"', resolve: (s) => s.tokenType }),
    scopes: t.exposeStringList('scopes'),
    crmType: t.exposeString('crmType'),
    supported: t.exposeBoolean('supported', { description: 'false when the CRM of the account has no connector yet' }),
    message: t.string({ nullable: true, resolve: (s) => s.message ?? null }),
    accountId: t.string({ nullable: true, description: 'The CRM account (HubSpot portal id)', resolve: (s) => s.accountId ?? null }),
    revoked: t.boolean({ description: 'The CRM revoked our access; connect again', resolve: (s) => Boolean(s.revoked) }),
  }),
});

builder.queryField('crmConnection', (t) =>
  t.field({
    type: CrmConnection,
    authScopes: { authenticated: true },
    resolve: (_r, _a, ctx) => connectionStatus(ctx.deps, requireUser(ctx)),
  }),
);

const CrmConnectionPayload = (name: string) =>
  builder.simpleObject(name, { fields: (t) => ({ crmConnection: t.field({ type: CrmConnection }) }) });

builder.mutationField('saveCrmToken', (t) =>
  t.field({
    type: CrmConnectionPayload('SaveCrmTokenPayload'),
    description: 'Verifies a private-app token with the CRM and stores it encrypted (replaces an OAuth connection)',
    authScopes: { authenticated: true },
    args: {
      input: t.arg({ type: builder.inputType('SaveCrmTokenInput', { fields: (f) => ({ token: f.string({ required: true }) }) }), required: true }),
    },
    resolve: async (_r, { input }, ctx) => ({ crmConnection: await savePrivateAppToken(ctx.deps, requireUser(ctx), input.token) }),
  }),
);

builder.mutationField('startCrmOAuth', (t) =>
  t.field({
    type: builder.simpleObject('StartCrmOAuthPayload', {
      fields: (f) => ({ authorizeUrl: f.string({ description: 'Send the browser here; the CRM redirects back to /api/auth/hubspot/callback' }) }),
    }),
    authScopes: { authenticated: true },
    resolve: async (_r, _a, ctx) => ({ authorizeUrl: await startOAuth(ctx.deps, requireUser(ctx), requireBrowserSession(ctx).id) }),
  }),
);

builder.mutationField('disconnectCrm', (t) =>
  t.field({
    type: CrmConnectionPayload('DisconnectCrmPayload'),
    authScopes: { authenticated: true },
    resolve: async (_r, _a, ctx) => {
      const user = requireUser(ctx);
      await disconnect(ctx.deps, user);
      return { crmConnection: await connectionStatus(ctx.deps, user) };
    },
  }),
);
