// Accounts: registration, login, logout and the auth status the web app polls.
import { Prisma, type User } from '@prisma/client';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { CREDENTIAL_TOPIC } from '../events/pubsub.js';
import type { ServiceDeps } from './deps.js';
import { invalidate } from './read-cache.js';
import { loginSucceeded, takeLoginAttempt, takeRegistrationAttempt } from './login-throttle.js';
import { CRM_TYPES, INDUSTRIES } from './options.js';
import { newPasswordField } from './password-policy.js';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { createAccessToken, parseTokenName, revokeAccessTokenById, type CreatedAccessToken } from './access-tokens.js';
import { createSession, revokeSession } from './sessions.js';
import { parseInput } from './validation.js';

const required = (label: string) =>
  z.string({ error: `${label} is required` }).trim().min(1, `${label} is required`).max(200, `${label} is too long`);

// Spec section 5: every field required; confirm password at least 1 character and equal to password;
// the password itself under the one policy (password-policy.ts).
export const registrationSchema = z
  .object({
    firstName: required('First name'),
    lastName: required('Last name'),
    email: required('Email').pipe(z.email('Please enter a valid email address')).transform((e) => e.toLowerCase()),
    crmType: z.enum(CRM_TYPES, { error: 'Please select your CRM system' }),
    industry: z.enum(INDUSTRIES, { error: 'Please select your industry' }),
    password: newPasswordField('Password is required'),
    confirmPassword: z.string({ error: 'Please confirm your password' }).min(1, 'Please confirm your password'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export type RegistrationInput = z.input<typeof registrationSchema>;

export const loginSchema = z.object({
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').max(200).transform((e) => e.toLowerCase()),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(256),
});

export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

export interface AuthResult {
  user: User;
  token: string;
  expiresAt: Date;
}

export async function register(deps: ServiceDeps, input: unknown, meta: RequestMeta): Promise<AuthResult> {
  const data = parseInput(registrationSchema, input);
  await takeRegistrationAttempt(deps, meta.ip);
  const freeTier = await deps.prisma.pricingTier.findUnique({ where: { name: 'free' }, select: { id: true } });
  let user: User;
  try {
    user = await deps.prisma.user.create({
      data: {
        email: data.email,
        password: await hashPassword(data.password),
        firstName: data.firstName,
        lastName: data.lastName,
        crmType: data.crmType,
        industry: data.industry,
        currentTierId: freeTier?.id,
      },
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      throw new AppError('CONFLICT', 'An account with this email already exists', { field: 'email' });
    }
    throw err;
  }
  deps.logger.info({ userId: user.id }, 'user registered');
  const session = await createSession(deps, user.id, meta);
  return { user, ...session };
}

/** What a banned user is told, at sign-in and when a client presents one of their (ended) tokens. */
export function accountSuspended(user: Pick<User, 'banReason'>): AppError {
  return new AppError(
    'ACCOUNT_SUSPENDED',
    user.banReason
      ? `Your account has been suspended: ${user.banReason}. Please contact support for assistance.`
      : 'Your account has been suspended. Please contact support for assistance.',
    { title: 'Account suspended' },
  );
}

/**
 * Checks an email and password (an attempt is taken from the sign-in throttle first, see
 * login-throttle.ts; a banned account is refused with ACCOUNT_SUSPENDED). Shared by browser sign-in
 * and personal-access-token creation.
 */
export async function authenticate(deps: ServiceDeps, input: unknown, meta: RequestMeta): Promise<User> {
  const { email, password } = parseInput(loginSchema, input);
  await takeLoginAttempt(deps, email, meta.ip);
  const user = await deps.prisma.user.findUnique({ where: { email } });
  const ok = user ? await verifyPassword(user.password, password) : (await burnPasswordCheck(password), false);
  if (!user || !ok) throw new AppError('UNAUTHENTICATED', 'Invalid email or password');
  await loginSucceeded(deps, email, meta.ip);
  if (user.isBanned) throw accountSuspended(user);
  // A hash made with older parameters is replaced now that the password is known (only if unchanged meanwhile).
  if (needsRehash(user.password)) {
    await deps.prisma.user.updateMany({ where: { id: user.id, password: user.password }, data: { password: await hashPassword(password) } });
  }
  return user;
}

export async function login(deps: ServiceDeps, input: unknown, meta: RequestMeta): Promise<AuthResult> {
  const user = await authenticate(deps, input, meta);
  deps.logger.info({ userId: user.id }, 'user logged in');
  const session = await createSession(deps, user.id, meta);
  return { user, ...session };
}

/** Signs in with email + password and creates a personal access token (the CLI's `crm login`). */
export async function signInForToken(
  deps: ServiceDeps,
  input: { email?: unknown; password?: unknown; name?: unknown },
  meta: RequestMeta,
): Promise<CreatedAccessToken & { user: User }> {
  const name = parseTokenName(input.name);
  const user = await authenticate(deps, { email: input.email, password: input.password }, meta);
  return { ...(await createAccessToken(deps, user, name)), user };
}

/** Ends the credential the request was made with: the browser session or the access token. */
export async function logout(deps: ServiceDeps, credential: { userId?: string | null; sessionId?: string | null; accessTokenId?: string | null }): Promise<void> {
  if (credential.sessionId) await revokeSession(deps, credential.sessionId);
  if (credential.accessTokenId) await revokeAccessTokenById(deps, credential.accessTokenId);
  if (credential.userId) {
    deps.events.pubsub.publish('credentialEnded', CREDENTIAL_TOPIC, {
      userId: credential.userId,
      ...(credential.sessionId ? { sessionId: credential.sessionId } : {}),
      ...(credential.accessTokenId ? { accessTokenId: credential.accessTokenId } : {}),
    });
  }
}

const passwordChangeSchema = z
  .object({
    currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(256),
    newPassword: newPasswordField('New password is required'),
    confirmPassword: z.string({ error: 'Please confirm your password' }).min(1, 'Please confirm your password'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });

/**
 * Changes the password and ends the user's other browser sessions (this one stays signed in). The
 * current password is checked under the sign-in throttle: a session cannot guess it without limit.
 */
export async function changePassword(deps: ServiceDeps, user: User, currentSessionId: string | null, input: unknown, meta: RequestMeta): Promise<User> {
  const data = parseInput(passwordChangeSchema, input);
  await takeLoginAttempt(deps, user.email, meta.ip);
  const fresh = await deps.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
  if (!(await verifyPassword(fresh.password, data.currentPassword))) {
    throw new AppError('BAD_USER_INPUT', 'The current password is not correct', { field: 'currentPassword' });
  }
  await loginSucceeded(deps, user.email, meta.ip);
  const password = await hashPassword(data.newPassword);
  const updated = await deps.prisma.$transaction(async (tx) => {
    const updated = await tx.user.update({ where: { id: user.id }, data: { password } });
    await tx.session.updateMany({
      where: { userId: user.id, revokedAt: null, ...(currentSessionId ? { id: { not: currentSessionId } } : {}) },
      data: { revokedAt: deps.now() },
    });
    return updated;
  });
  invalidate(deps, { userId: user.id });
  deps.events.pubsub.publish('credentialEnded', CREDENTIAL_TOPIC, { userId: user.id, ...(currentSessionId ? { exceptSessionId: currentSessionId } : { all: true }) });
  return updated;
}

export interface AuthStatus {
  authenticated: boolean;
  user?: { id: string; name: string; email: string; firstName: string; lastName: string; isAdmin: boolean; crmType: string };
}

export function authStatus(user: User | null | undefined): AuthStatus {
  if (!user) return { authenticated: false };
  return {
    authenticated: true,
    user: {
      id: user.id,
      name: `${user.firstName} ${user.lastName}`.trim(),
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      isAdmin: user.isAdmin,
      crmType: user.crmType,
    },
  };
}
