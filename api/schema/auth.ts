// Accounts over GraphQL: auth status, register, login, logout, password change, and personal access
// tokens for non-browser clients. Browser sign-in sets the session cookie on the HTTP response.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import type { RequestContext } from '../context.js';
import { clearSessionCookie, sessionCookie } from '../http/cookies.js';
import { requireUser } from '../http/guards.js';
import { accessTokenListArgs, revokeAccessToken } from '../services/access-tokens.js';
import { authStatus, changePassword, login, logout, register, signInForToken, type AuthResult } from '../services/auth.js';
import { CRM_OPTIONS, INDUSTRY_OPTIONS } from '../services/options.js';
import { requestPasswordReset, resetPassword } from '../services/password-reset.js';
import { nodeAccess } from './node-access.js';
import { UserNode } from './users.js';

const AuthUser = builder.simpleObject('AuthUser', {
  fields: (t) => ({
    id: t.id({ description: 'The raw user id (uuid)' }),
    name: t.string(),
    email: t.string(),
    firstName: t.string(),
    lastName: t.string(),
    isAdmin: t.boolean(),
    crmType: t.string(),
  }),
});

export const AuthStatus = builder.simpleObject('AuthStatus', {
  fields: (t) => ({
    authenticated: t.boolean(),
    user: t.field({ type: AuthUser, nullable: true }),
  }),
});

const OptionType = builder.simpleObject('Option', {
  fields: (t) => ({ value: t.string(), label: t.string() }),
});

builder.queryField('authStatus', (t) => t.field({ type: AuthStatus, resolve: (_r, _a, ctx) => authStatus(ctx.user) }));

builder.queryField('registrationOptions', (t) =>
  t.field({
    type: builder.simpleObject('RegistrationOptions', {
      fields: (f) => ({ crmTypes: f.field({ type: [OptionType] }), industries: f.field({ type: [OptionType] }) }),
    }),
    resolve: () => ({ crmTypes: [...CRM_OPTIONS], industries: [...INDUSTRY_OPTIONS] }),
  }),
);

// ---------------------------------------------------------------------------------------------
// Browser sign-in

const RegisterInput = builder.inputType('RegisterInput', {
  fields: (t) => ({
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    email: t.string({ required: true }),
    crmType: t.string({ required: true, description: 'A value of registrationOptions.crmTypes' }),
    industry: t.string({ required: true, description: 'A value of registrationOptions.industries' }),
    password: t.string({ required: true }),
    confirmPassword: t.string({ required: true }),
  }),
});

const LoginInput = builder.inputType('LoginInput', {
  fields: (t) => ({ email: t.string({ required: true }), password: t.string({ required: true }) }),
});

interface SignedIn {
  status: ReturnType<typeof authStatus>;
  user: AuthResult['user'] | null;
}

const signInPayload = (name: string) =>
  builder.objectRef<SignedIn>(name).implement({
    fields: (t) => ({
      authStatus: t.field({ type: AuthStatus, resolve: (p) => p.status }),
      viewer: t.field({ type: UserNode, nullable: true, resolve: (p) => p.user }),
    }),
  });

/** Sets the cookie, and lets the rest of this operation run as the signed-in user. */
function startSession(ctx: RequestContext, result: AuthResult): SignedIn {
  ctx.setCookie(sessionCookie(result.token, result.expiresAt, ctx.meta.secure));
  ctx.user = result.user;
  return { status: authStatus(result.user), user: result.user };
}

builder.mutationField('register', (t) =>
  t.field({
    type: signInPayload('RegisterPayload'),
    args: { input: t.arg({ type: RegisterInput, required: true }) },
    resolve: async (_r, { input }, ctx) => startSession(ctx, await register(ctx.deps, input, ctx.meta)),
  }),
);

builder.mutationField('login', (t) =>
  t.field({
    type: signInPayload('LoginPayload'),
    args: { input: t.arg({ type: LoginInput, required: true }) },
    resolve: async (_r, { input }, ctx) => startSession(ctx, await login(ctx.deps, input, ctx.meta)),
  }),
);

builder.mutationField('logout', (t) =>
  t.field({
    type: signInPayload('LogoutPayload'),
    description: 'Ends the credential of this request: the browser session, or the access token it was sent with',
    resolve: async (_r, _a, ctx) => {
      await logout(ctx.deps, { userId: ctx.user?.id, sessionId: ctx.session?.id, accessTokenId: ctx.accessToken?.id });
      if (ctx.session) ctx.setCookie(clearSessionCookie(ctx.meta.secure));
      return { status: authStatus(null), user: null };
    },
  }),
);

const ChangePasswordInput = builder.inputType('ChangePasswordInput', {
  fields: (t) => ({
    currentPassword: t.string({ required: true }),
    newPassword: t.string({ required: true, description: 'At least 8 characters' }),
    confirmPassword: t.string({ required: true }),
  }),
});

builder.mutationField('changePassword', (t) =>
  t.field({
    type: builder.simpleObject('ChangePasswordPayload', {
      fields: (f) => ({ viewer: f.field({ type: UserNode }) }),
    }),
    description: "Changes the viewer's password; the viewer's other browser sessions end",
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: ChangePasswordInput, required: true }) },
    resolve: async (_r, { input }, ctx) => ({ viewer: await changePassword(ctx.deps, requireUser(ctx), ctx.session?.id ?? null, input, ctx.meta) }),
  }),
);

// ---------------------------------------------------------------------------------------------
// "Forgot password?" (services/password-reset.ts)

builder.mutationField('requestPasswordReset', (t) =>
  t.field({
    type: builder.simpleObject('RequestPasswordResetPayload', {
      fields: (f) => ({ message: f.string({ description: 'The same for every address, whether or not it has an account' }) }),
    }),
    description: 'E-mails a one-time, expiring link to set a new password (rate-limited; tells nothing about whether the address has an account)',
    args: { input: t.arg({ type: builder.inputType('RequestPasswordResetInput', { fields: (f) => ({ email: f.string({ required: true }) }) }), required: true }) },
    resolve: (_r, { input }, ctx) => requestPasswordReset(ctx.deps, input, ctx.meta),
  }),
);

builder.mutationField('resetPassword', (t) =>
  t.field({
    type: builder.simpleObject('ResetPasswordPayload', {
      fields: (f) => ({ email: f.string({ description: 'The account whose password was set, to sign in with' }) }),
    }),
    description: "Sets a new password with the token of a reset link (once); the account's browser sessions end",
    args: {
      input: t.arg({
        type: builder.inputType('ResetPasswordInput', {
          fields: (f) => ({ token: f.string({ required: true }), newPassword: f.string({ required: true }), confirmPassword: f.string({ required: true }) }),
        }),
        required: true,
      }),
    },
    resolve: async (_r, { input }, ctx) => ({ email: (await resetPassword(ctx.deps, input)).email }),
  }),
);

// ---------------------------------------------------------------------------------------------
// Personal access tokens (the CLI's credential)

export const PersonalAccessTokenNode = builder.prismaNode('PersonalAccessToken', {
  id: { field: 'id' },
  findUnique: nodeAccess('PersonalAccessToken', 'owner'),
  nullable: true,
  fields: (t) => ({
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'The first characters of the token, to tell tokens apart' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    isCurrent: t.boolean({
      description: 'Whether this request was made with this token',
      resolve: (token, _a, ctx) => token.id === ctx.accessToken?.id,
    }),
  }),
});

builder.queryField('personalAccessTokens', (t) =>
  t.prismaConnection({
    type: 'PersonalAccessToken',
    cursor: 'id',
    authScopes: { authenticated: true },
    description: "The viewer's live access tokens, newest first",
    totalCount: (_c, _a, ctx) => ctx.deps.prisma.personalAccessToken.count({ where: accessTokenListArgs(requireUser(ctx)).where }),
    resolve: (query, _r, _a, ctx) => ctx.deps.prisma.personalAccessToken.findMany({ ...query, ...accessTokenListArgs(requireUser(ctx)) }),
  }),
);

const CreatePersonalAccessTokenInput = builder.inputType('CreatePersonalAccessTokenInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    password: t.string({ required: true }),
    name: t.string({ required: true, description: 'What the token is for, e.g. "crm CLI on my laptop"' }),
  }),
});

builder.mutationField('createPersonalAccessToken', (t) =>
  t.field({
    type: builder.simpleObject('CreatePersonalAccessTokenPayload', {
      fields: (f) => ({
        token: f.string({ description: 'Send as `Authorization: Bearer <token>`; shown only this once' }),
        personalAccessToken: f.field({ type: PersonalAccessTokenNode }),
        viewer: f.field({ type: UserNode }),
      }),
    }),
    description: 'Signs in with email and password and creates an access token (for the CLI); sets no cookie',
    args: { input: t.arg({ type: CreatePersonalAccessTokenInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const created = await signInForToken(ctx.deps, input, ctx.meta);
      ctx.user = created.user;
      return { token: created.token, personalAccessToken: created.accessToken, viewer: created.user };
    },
  }),
);

builder.mutationField('revokePersonalAccessToken', (t) =>
  t.field({
    type: builder.simpleObject('RevokePersonalAccessTokenPayload', {
      fields: (f) => ({ revokedId: f.id({ description: 'Relay id of the revoked token (for @deleteRecord)' }) }),
    }),
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: builder.inputType('RevokePersonalAccessTokenInput', { fields: (f) => ({ id: f.globalID({ required: true, for: PersonalAccessTokenNode }) }) }), required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const token = await revokeAccessToken(ctx.deps, requireUser(ctx), input.id.id);
      return { revokedId: encodeGlobalID('PersonalAccessToken', token.id) };
    },
  }),
);
