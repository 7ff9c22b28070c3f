// The session cookie: httpOnly, SameSite=Lax, Secure when served over https.
import { parse, serialize } from 'hono/utils/cookie';
import { SESSION_COOKIE } from '../services/sessions.js';

export function sessionCookie(token: string, expires: Date, secure: boolean): string {
  return serialize(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'Lax', secure, expires });
}

export function clearSessionCookie(secure: boolean): string {
  return serialize(SESSION_COOKIE, '', { path: '/', httpOnly: true, sameSite: 'Lax', secure, maxAge: 0, expires: new Date(0) });
}

export function readSessionToken(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  return parse(cookieHeader, SESSION_COOKIE)[SESSION_COOKIE] || undefined;
}
