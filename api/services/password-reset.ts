// "Forgot password?": a one-time, expiring link by e-mail (spec: beyond §5; issue 25).
//
// - Asking (requestPasswordReset) always answers the same, whether or not the address has an account,
//   and the e-mail is sent after the answer, so neither the reply nor its timing tells who is a user.
//   Requests are throttled per e-mail and per address (login-throttle.ts, takePasswordResetAttempt),
//   counted for unknown addresses too. Banned accounts get no link.
// - The link carries a random 256-bit token in its fragment (/reset-password#token=…: never sent to a
//   server in a request line or a Referer); the database keeps its keyed hash only, with an expiry
//   (PASSWORD_RESET_TTL_MINUTES) and the time it was used. A new link ends the user's earlier ones.
// - Using it (resetPassword) claims the token atomically (a second use, or two at once, fail), sets
//   the password under the one password policy, ends every browser session of the user and closes
//   their open pages; personal access tokens stay (revoked on the Profile screen, like after a
//   password change).
// - An administrator can send a user the same link (sendPasswordResetLink, audited).
import type { User } from '@prisma/client';
import { z } from 'zod';
import { keyedHash, randomToken } from '../crypto.js';
import { AppError, assertId, notFound } from '../errors.js';
import { CREDENTIAL_TOPIC } from '../events/pubsub.js';
import { recordAudit } from './audit.js';
import type { RequestMeta } from './auth.js';
import type { ServiceDeps } from './deps.js';
import { takePasswordResetAttempt } from './login-throttle.js';
import { createMailer, type Mailer } from './mailer.js';
import { newPasswordField } from './password-policy.js';
import { hashPassword } from './passwords.js';
import { invalidate } from './read-cache.js';
import { parseInput } from './validation.js';

export const RESET_PATH = '/reset-password';

export const resetRequested = (ttlMinutes: number) =>
  `If an account exists for that email, we've sent it a link to reset the password. The link works once and expires in ${ttlMinutes} minutes.`;

export const INVALID_RESET_LINK = 'This password reset link is invalid, already used or expired. Ask for a new one.';

const requestSchema = z.object({
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').max(200).pipe(z.email('Please enter a valid email address')).transform((e) => e.toLowerCase()),
});

const resetSchema = z
  .object({
    token: z.string({ error: INVALID_RESET_LINK }).min(20, INVALID_RESET_LINK).max(200, INVALID_RESET_LINK),
    newPassword: newPasswordField('New password is required'),
    confirmPassword: z.string({ error: 'Please confirm your password' }).min(1, 'Please confirm your password'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });

let logOnly: Mailer | undefined;
const mailerOf = (deps: ServiceDeps) => deps.mailer ?? (logOnly ??= createMailer({ env: deps.config.env, mail: { ...deps.config.mail, smtpUrl: undefined, outbox: false } }, deps.logger));

const hashOf = (deps: ServiceDeps, token: string) => keyedHash(token, deps.config.sessionSecret);

/** Makes a new link for the user (ending their earlier ones) and e-mails it. */
async function issueAndSend(deps: ServiceDeps, user: User, requestedBy: User | null): Promise<void> {
  const token = randomToken();
  const now = deps.now();
  const { ttlMinutes } = deps.config.passwordReset;
  await deps.prisma.$transaction([
    deps.prisma.passwordResetToken.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } }),
    deps.prisma.passwordResetToken.create({
      data: { tokenHash: hashOf(deps, token), userId: user.id, requestedById: requestedBy?.id, createdAt: now, expiresAt: new Date(now.getTime() + ttlMinutes * 60_000) },
    }),
  ]);
  const link = `${deps.appUrl ?? deps.config.publicUrl ?? ''}${RESET_PATH}#token=${token}`;
  const why = requestedBy ? 'An administrator of CRM Assistant sent you this link to set a new password.' : 'Someone (we hope you) asked to reset the password of your CRM Assistant account.';
  await mailerOf(deps).send({
    to: user.email,
    subject: 'Reset your CRM Assistant password',
    text: [
      `Hello ${user.firstName},`,
      '',
      why,
      `Open this link to choose a new one (it works once and expires in ${ttlMinutes} minutes):`,
      '',
      link,
      '',
      "If you did not ask for it, ignore this email: your password stays as it is.",
    ].join('\n'),
  });
  deps.logger.info({ userId: user.id, byAdmin: Boolean(requestedBy) }, 'password reset link sent');
}

/** "Forgot password?": the same answer for every address; the link is mailed in the background. */
export async function requestPasswordReset(deps: ServiceDeps, input: unknown, meta: RequestMeta): Promise<{ message: string }> {
  const { email } = parseInput(requestSchema, input);
  await takePasswordResetAttempt(deps, email, meta.ip);
  const user = await deps.prisma.user.findUnique({ where: { email } });
  if (user && !user.isBanned) {
    void issueAndSend(deps, user, null).catch((err: unknown) => deps.logger.error({ err, userId: user.id }, 'password reset mail failed'));
  }
  return { message: resetRequested(deps.config.passwordReset.ttlMinutes) };
}

/** Sets a new password with a link's token; the user's browser sessions end. Returns the user. */
export async function resetPassword(deps: ServiceDeps, input: unknown): Promise<User> {
  const data = parseInput(resetSchema, input);
  const tokenHash = hashOf(deps, data.token);
  const now = deps.now();
  const password = await hashPassword(data.newPassword);
  const user = await deps.prisma.$transaction(async (tx) => {
    // Claimed atomically: of two uses at once, one updates the row and the other finds it used.
    const claimed = await tx.passwordResetToken.updateMany({ where: { tokenHash, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    if (claimed.count !== 1) throw new AppError('BAD_USER_INPUT', INVALID_RESET_LINK, { field: 'token' });
    const { userId } = await tx.passwordResetToken.findUniqueOrThrow({ where: { tokenHash }, select: { userId: true } });
    const user = await tx.user.update({ where: { id: userId }, data: { password } });
    await tx.passwordResetToken.updateMany({ where: { userId, usedAt: null }, data: { usedAt: now } });
    await tx.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
    return user;
  });
  invalidate(deps, { userId: user.id });
  deps.events.pubsub.publish('credentialEnded', CREDENTIAL_TOPIC, { userId: user.id, all: true });
  deps.logger.info({ userId: user.id }, 'password reset');
  return user;
}

/** An administrator e-mails a user a reset link (also to a banned user: they will need it once unbanned). */
export async function sendPasswordResetLink(deps: ServiceDeps, admin: User, userId: string): Promise<User> {
  assertId(userId, 'User');
  const user = await deps.prisma.user.findUnique({ where: { id: userId } });
  if (!user) throw notFound('User not found');
  await issueAndSend(deps, user, admin);
  await recordAudit(deps, { actorId: admin.id, action: 'user.password_reset_sent', targetType: 'User', targetId: user.id, details: { email: user.email } });
  return user;
}
