// Per-request context shared by GraphQL resolvers (HTTP and websocket) and REST handlers.
import type { Session, User } from '@prisma/client';
import type { RequestMeta } from './services/auth.js';
import type { ServiceDeps } from './services/deps.js';

export interface RequestContext {
  deps: ServiceDeps;
  user: User | null;
  session: Session | null;
  meta: RequestMeta & { secure: boolean };
  /** Queues a Set-Cookie header for the HTTP response (no-op over websockets). */
  setCookie: (header: string) => void;
}
