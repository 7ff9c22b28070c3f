// Per-request context shared by GraphQL resolvers (HTTP and websocket) and REST handlers.
import type { PersonalAccessToken, Session, User } from '@prisma/client';
import type { AppError } from './errors.js';
import type { RequestMeta } from './services/auth.js';
import type { ServiceDeps } from './services/deps.js';

export interface RequestContext {
  deps: ServiceDeps;
  user: User | null;
  /** The browser session behind the cookie, when the request was made with one. */
  session: Session | null;
  /** The personal access token of a bearer request (the CLI). */
  accessToken: PersonalAccessToken | null;
  /** Set when the request came with a token of a banned user (the request is anonymous). */
  suspended?: AppError | null;
  meta: RequestMeta & { secure: boolean };
  /** Queues a Set-Cookie header for the HTTP response (no-op over websockets). */
  setCookie: (header: string) => void;
}
