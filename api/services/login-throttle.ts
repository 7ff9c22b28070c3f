// Brute-force protection for every door that checks a password (REST and GraphQL sign-in,
// personal-access-token creation, password change) and for registration.
//
// An attempt is *taken before* the password is checked: one INSERT … ON CONFLICT DO UPDATE adds it
// to fixed-window counters and returns their new values. The upsert locks each counter row and
// updates its latest version, so concurrent attempts get consecutive counts: of 50 wrong passwords
// sent at once, exactly the first LOGIN_MAX_FAILURES are checked and the rest are refused (429)
// without running argon2. The counters live in the database, so the limits hold across API processes.
//
// Counters (every attempt counts, refused ones included; the window starts at the first attempt):
// - "login": one e-mail from one address, LOGIN_MAX_FAILURES per LOGIN_WINDOW_MINUTES;
// - "login_address": one address across all e-mails, LOGIN_IP_MAX_FAILURES per LOGIN_IP_WINDOW_MINUTES;
// - "register_address": registrations from one address, REGISTER_MAX_PER_IP per REGISTER_WINDOW_MINUTES;
// - "reset" / "reset_address": "forgot password" requests for one e-mail from any address, and from one
//   address (PASSWORD_RESET_MAX_PER_EMAIL / _PER_IP per PASSWORD_RESET_WINDOW_MINUTES).
// A successful check gives its attempt back (loginSucceeded): the e-mail's counter from that address
// is cleared (the owner proved they know the password) and the address gets its unit back, so people
// signing in correctly behind one address (an office) never use up its budget; only failures stay.
// An address is the peer's IP; IPv6 addresses count per /64 (one host usually holds a whole /64).
import { isIPv6 } from 'node:net';
import { Prisma } from '@prisma/client';
import { AppError } from '../errors.js';
import type { ServiceDeps } from './deps.js';

type Scope = 'login' | 'login_address' | 'register_address' | 'reset' | 'reset_address';

interface Counter {
  scope: Scope;
  email: string;
  /** Counted for every address (the e-mail's counter of password resets): '' instead of the request's. */
  anyAddress?: boolean;
  limit: number;
  windowMinutes: number;
  refusal: (retryAfter: number) => AppError;
}

const minutes = (seconds: number) => Math.ceil(seconds / 60);

const tooManyLogins = (retryAfter: number) =>
  new AppError('RATE_LIMITED', `Too many failed sign-in attempts. Try again in ${minutes(retryAfter)} minute(s).`, {
    title: 'Too many login attempts',
    retryAfter,
  });

const tooManyRegistrations = (retryAfter: number) =>
  new AppError('RATE_LIMITED', `Too many accounts were created from your network. Try again in ${minutes(retryAfter)} minute(s).`, {
    title: 'Too many registrations',
    retryAfter,
  });

/** The key an address is counted under: IPv4 (also when IPv4-mapped) as is, IPv6 by its /64. */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head, tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

/** Takes one attempt on each counter atomically; throws RATE_LIMITED for the first one beyond its limit. */
async function take(deps: ServiceDeps, ip: string, counters: Counter[]): Promise<void> {
  const now = deps.now();
  const address = addressKey(ip);
  const rows = await deps.prisma.$queryRaw<{ scope: Scope; count: number; window_ends_at: Date }[]>`
    INSERT INTO auth_throttles (scope, email, address, count, window_ends_at)
    VALUES ${Prisma.join(counters.map((c) => Prisma.sql`(${c.scope}, ${c.email}, ${c.anyAddress ? '' : address}, 1, ${new Date(now.getTime() + c.windowMinutes * 60_000)})`))}
    ON CONFLICT (scope, email, address) DO UPDATE SET
      count = CASE WHEN auth_throttles.window_ends_at <= ${now} THEN 1 ELSE auth_throttles.count + 1 END,
      window_ends_at = CASE WHEN auth_throttles.window_ends_at <= ${now} THEN EXCLUDED.window_ends_at ELSE auth_throttles.window_ends_at END
    RETURNING scope, count, window_ends_at`;
  for (const c of counters) {
    const row = rows.find((r) => r.scope === c.scope);
    if (row && row.count > c.limit) {
      throw c.refusal(Math.max(1, Math.ceil((new Date(row.window_ends_at).getTime() - now.getTime()) / 1000)));
    }
  }
}

/**
 * Takes a password attempt for an e-mail from an address (before the password is checked). Throws
 * RATE_LIMITED (429, Retry-After) when the e-mail from this address, or the address, is over its budget.
 */
export async function takeLoginAttempt(deps: ServiceDeps, email: string, ip: string): Promise<void> {
  const { maxFailures, windowMinutes, ipMaxFailures, ipWindowMinutes } = deps.config.login;
  // Always in this order (the e-mail's row, then the address's): concurrent statements lock alike.
  await take(deps, ip, [
    { scope: 'login', email, limit: maxFailures, windowMinutes, refusal: tooManyLogins },
    { scope: 'login_address', email: '', limit: ipMaxFailures, windowMinutes: ipWindowMinutes, refusal: tooManyLogins },
  ]);
}

/** The password was right: the e-mail's failures from this address are cleared and the address gets its attempt back. */
export async function loginSucceeded(deps: ServiceDeps, email: string, ip: string): Promise<void> {
  const address = addressKey(ip);
  await deps.prisma.authThrottle.deleteMany({ where: { scope: 'login', email, address } });
  await deps.prisma.authThrottle.updateMany({
    where: { scope: 'login_address', email: '', address, count: { gt: 0 }, windowEndsAt: { gt: deps.now() } },
    data: { count: { decrement: 1 } },
  });
}

/** Takes a registration attempt from an address (a valid form, whether or not the e-mail is taken). */
export async function takeRegistrationAttempt(deps: ServiceDeps, ip: string): Promise<void> {
  const { maxPerIp, windowMinutes } = deps.config.registration;
  await take(deps, ip, [{ scope: 'register_address', email: '', limit: maxPerIp, windowMinutes, refusal: tooManyRegistrations }]);
}

const tooManyResets = (retryAfter: number) =>
  new AppError('RATE_LIMITED', `Too many password reset requests. Try again in ${minutes(retryAfter)} minute(s).`, {
    title: 'Too many requests',
    retryAfter,
  });

/**
 * Takes a "forgot password" request for an e-mail (whether or not it has an account, so the refusal
 * tells nothing about it): PASSWORD_RESET_MAX_PER_EMAIL per window from any address (the owner's
 * mailbox is not flooded), PASSWORD_RESET_MAX_PER_IP per window from one address.
 */
export async function takePasswordResetAttempt(deps: ServiceDeps, email: string, ip: string): Promise<void> {
  const { maxPerEmail, maxPerIp, windowMinutes } = deps.config.passwordReset;
  await take(deps, ip, [
    { scope: 'reset', email, anyAddress: true, limit: maxPerEmail, windowMinutes, refusal: tooManyResets },
    { scope: 'reset_address', email: '', limit: maxPerIp, windowMinutes, refusal: tooManyResets },
  ]);
}

/** Counters whose window has ended (daily maintenance). */
export async function purgeOldLoginAttempts(deps: ServiceDeps): Promise<number> {
  const { count } = await deps.prisma.authThrottle.deleteMany({ where: { windowEndsAt: { lte: deps.now() } } });
  return count;
}
