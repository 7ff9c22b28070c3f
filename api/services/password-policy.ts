// The one password policy, at every door that sets a password: registration, password change and
// the seeded accounts (SEED_*_PASSWORD, checked with the configuration). At least 8 characters and
// not one of the ~49,000 most common passwords (zxcvbn-ts's kept list, compared case-insensitively:
// "Password1" is as guessable as "password1"). Passwords are never trimmed or otherwise changed.
import { dictionary } from '@zxcvbn-ts/language-common';
import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  tooLong: 'Password is too long',
  tooCommon: 'This password is too common. Choose one that is harder to guess.',
} as const;

const COMMON = new Set(dictionary['passwords-common']);

/** What is wrong with a new password, or null when the policy accepts it. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  if (COMMON.has(password.toLowerCase())) return PASSWORD_MESSAGES.tooCommon;
  return null;
}

/** A new password as a form field: `requiredMessage` when empty, else the policy's message. */
export const newPasswordField = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .min(1, requiredMessage)
    .superRefine((password, ctx) => {
      const problem = passwordProblem(password);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
