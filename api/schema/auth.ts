// Accounts over GraphQL: auth status, register, login, logout. Cookies are set on the HTTP response.
import { builder } from '../builder.js';
import type { RequestContext } from '../context.js';
import { authStatus, login, logout, register, type AuthResult } from '../services/auth.js';
import { CRM_OPTIONS, INDUSTRY_OPTIONS } from '../services/options.js';
import { clearSessionCookie, sessionCookie } from '../http/cookies.js';

const AuthUser = builder.simpleObject('AuthUser', {
  fields: (t) => ({
    id: t.id(),
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

builder.queryField('authStatus', (t) =>
  t.field({ type: AuthStatus, resolve: (_r, _a, ctx) => authStatus(ctx.user) }),
);

builder.queryField('registrationOptions', (t) =>
  t.field({
    type: builder.simpleObject('RegistrationOptions', {
      fields: (f) => ({ crmTypes: f.field({ type: [OptionType] }), industries: f.field({ type: [OptionType] }) }),
    }),
    resolve: () => ({ crmTypes: [...CRM_OPTIONS], industries: [...INDUSTRY_OPTIONS] }),
  }),
);

const RegisterInput = builder.inputType('RegisterInput', {
  fields: (t) => ({
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    email: t.string({ required: true }),
    crmType: t.string({ required: true }),
    industry: t.string({ required: true }),
    password: t.string({ required: true }),
    confirmPassword: t.string({ required: true }),
  }),
});

const LoginInput = builder.inputType('LoginInput', {
  fields: (t) => ({ email: t.string({ required: true }), password: t.string({ required: true }) }),
});

function startSession(ctx: RequestContext, result: AuthResult) {
  ctx.setCookie(sessionCookie(result.token, result.expiresAt, ctx.meta.secure));
  return authStatus(result.user);
}

builder.mutationField('register', (t) =>
  t.field({
    type: AuthStatus,
    args: { input: t.arg({ type: RegisterInput, required: true }) },
    resolve: async (_r, { input }, ctx) => startSession(ctx, await register(ctx.deps, input, ctx.meta)),
  }),
);

builder.mutationField('login', (t) =>
  t.field({
    type: AuthStatus,
    args: { input: t.arg({ type: LoginInput, required: true }) },
    resolve: async (_r, { input }, ctx) => startSession(ctx, await login(ctx.deps, input, ctx.meta)),
  }),
);

builder.mutationField('logout', (t) =>
  t.field({
    type: AuthStatus,
    resolve: async (_r, _a, ctx) => {
      await logout(ctx.deps, ctx.session?.id);
      ctx.setCookie(clearSessionCookie(ctx.meta.secure));
      return authStatus(null);
    },
  }),
);
