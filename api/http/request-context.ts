// Builds the RequestContext (session user, client meta, cookie sink) of a request, from whichever
// door it came in by: a Hono route (REST), the node request of /graphql (graphql-endpoint.ts) or a
// websocket's upgrade request. One rule for all three: a bearer token is judged alone, else the cookie.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { RequestContext } from '../context.js';
import type { ServiceDeps } from '../services/deps.js';
import { resolveCredential } from '../services/credentials.js';
import { readSessionToken } from './cookies.js';

export type AppEnv = { Variables: { ctx: RequestContext; cookies: string[] } };

/** What a request presents, whatever carried it. */
export interface PresentedRequest {
  authorization?: string | null;
  cookie?: string | null;
  /** The peer's address ('unknown' for in-process requests, which have no socket). */
  ip: string;
  userAgent?: string;
  /** Arrived over TLS. */
  secure: boolean;
}

export async function createRequestContext(deps: ServiceDeps, req: PresentedRequest, setCookie: (header: string) => void = () => {}): Promise<RequestContext> {
  const credential = await resolveCredential(deps, { authorization: req.authorization, sessionToken: readSessionToken(req.cookie ?? undefined) });
  return {
    deps,
    ...credential,
    meta: { ip: req.ip, userAgent: req.userAgent, secure: req.secure || Boolean(deps.config.publicUrl?.startsWith('https:')) },
    setCookie,
  };
}

/** A node request as presented (only the peer's address: no port or family reads on this hot path). */
export function presentedByNode(req: IncomingMessage): PresentedRequest {
  return {
    authorization: req.headers.authorization,
    cookie: req.headers.cookie,
    ip: req.socket?.remoteAddress ?? 'unknown',
    userAgent: req.headers['user-agent'],
    secure: Boolean((req.socket as TLSSocket | undefined)?.encrypted),
  };
}

/** REST: the context and the cookie queue go on the Hono context (app.ts attaches the cookies). */
export async function buildRequestContext(deps: ServiceDeps, c: Context<AppEnv>): Promise<RequestContext> {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  const cookies: string[] = [];
  const ctx = await createRequestContext(
    deps,
    {
      authorization: c.req.header('authorization'),
      cookie: c.req.header('cookie'),
      ip: incoming?.socket?.remoteAddress ?? 'unknown',
      userAgent: c.req.header('user-agent'),
      secure: c.req.url.startsWith('https:'),
    },
    (h) => cookies.push(h),
  );
  c.set('ctx', ctx);
  c.set('cookies', cookies);
  return ctx;
}
