// Who is making a request: a bearer personal access token (non-browser clients) or the browser's
// session cookie. A request that presents a bearer token is judged by it alone, never by a cookie.
import type { PersonalAccessToken, Session, User } from '@prisma/client';
import type { AppError } from '../errors.js';
import { bannedOwnerOf, bearerToken, resolveAccessToken } from './access-tokens.js';
import { accountSuspended } from './auth.js';
import type { ServiceDeps } from './deps.js';
import { resolveSession } from './sessions.js';

export interface Credential {
  user: User | null;
  session: Session | null;
  accessToken: PersonalAccessToken | null;
  /** A bearer token of a banned user: the request is anonymous, and "signed in" fields answer this. */
  suspended?: AppError | null;
}

export const ANONYMOUS: Credential = { user: null, session: null, accessToken: null };

export async function resolveCredential(
  deps: ServiceDeps,
  presented: { authorization?: string | null; sessionToken?: string | null },
): Promise<Credential> {
  const bearer = bearerToken(presented.authorization);
  if (presented.authorization) {
    const info = await resolveAccessToken(deps, bearer);
    if (info) return { user: info.user, session: null, accessToken: info.accessToken };
    const banned = await bannedOwnerOf(deps, bearer);
    return banned ? { ...ANONYMOUS, suspended: accountSuspended(banned) } : ANONYMOUS;
  }
  const info = await resolveSession(deps, presented.sessionToken ?? undefined);
  return info ? { user: info.user, session: info.session, accessToken: null } : ANONYMOUS;
}
