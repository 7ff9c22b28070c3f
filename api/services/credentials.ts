// Who is making a request: a bearer personal access token (non-browser clients) or the browser's
// session cookie. A request that presents a bearer token is judged by it alone, never by a cookie.
import type { PersonalAccessToken, Session, User } from '@prisma/client';
import { bearerToken, resolveAccessToken } from './access-tokens.js';
import type { ServiceDeps } from './deps.js';
import { resolveSession } from './sessions.js';

export interface Credential {
  user: User | null;
  session: Session | null;
  accessToken: PersonalAccessToken | null;
}

export const ANONYMOUS: Credential = { user: null, session: null, accessToken: null };

export async function resolveCredential(
  deps: ServiceDeps,
  presented: { authorization?: string | null; sessionToken?: string | null },
): Promise<Credential> {
  const bearer = bearerToken(presented.authorization);
  if (presented.authorization) {
    const info = await resolveAccessToken(deps, bearer);
    return info ? { user: info.user, session: null, accessToken: info.accessToken } : ANONYMOUS;
  }
  const info = await resolveSession(deps, presented.sessionToken ?? undefined);
  return info ? { user: info.user, session: info.session, accessToken: null } : ANONYMOUS;
}
