/**
 * What every sandbox route shares: Salesforce's error bodies, the REST API gate (version, session,
 * daily allocation, concurrent long-running requests, `Sforce-Limit-Info`) and URL helpers.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { SessionRecord } from './auth.js';
import { concurrentRequestsExceeded, invalidSession, notFound, SalesforceApiError, totalRequestsExceeded } from './errors.js';
import { FAULT_LATENCY, sleep } from './faults.js';
import { API_VERSIONS, type SandboxState } from './state.js';

export type SandboxEnv = {
  Variables: { session: SessionRecord; version: string; [FAULT_LATENCY]?: number };
  Bindings: { compositeSubrequest?: boolean; incoming?: unknown };
};

/** A router whose thrown SalesforceApiErrors become Salesforce's error responses. */
export function salesforceRouter(): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.onError((err, c) => {
    if (!(err instanceof SalesforceApiError)) throw err;
    const status = err.httpStatus as ContentfulStatusCode;
    if (typeof err.body === 'string') return c.text(err.body, status, err.headers);
    return c.json(err.body, status, err.headers);
  });
  return app;
}

/** "v62.0" → "62.0" when the sandbox serves that version, else null. */
export function apiVersion(param: string | undefined): string | null {
  if (!param || param[0] !== 'v') return null;
  const v = param.slice(1);
  return API_VERSIONS.includes(v) ? v : null;
}

export const limitInfo = (state: SandboxState) => `api-usage=${state.allocation.used()}/${state.allocation.max}`;

/**
 * The REST API gate, in Salesforce's order: unknown version → 404; no live session → 401
 * INVALID_SESSION_ID; allocation used up → 403 REQUEST_LIMIT_EXCEEDED; too many long-running requests
 * in flight → 403 REQUEST_LIMIT_EXCEEDED. An admitted call counts against the daily allocation
 * (a composite request counts once, its subrequests not at all) and its answer carries
 * `Sforce-Limit-Info`.
 */
export function restApiGate(state: SandboxState): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const version = apiVersion(c.req.param('version'));
    if (!version) throw notFound();
    const session = state.tokens.authenticate(c.req.header('authorization'));
    if (!session) throw invalidSession();
    c.set('session', session);
    c.set('version', version);
    if (c.env?.compositeSubrequest) return next();
    if (state.allocation.remaining() <= 0) {
      state.stats.refusedDaily++;
      const err = totalRequestsExceeded();
      throw new SalesforceApiError(err.httpStatus, err.body, { 'Sforce-Limit-Info': limitInfo(state) });
    }
    const release = state.concurrency.enter();
    if (!release) {
      state.stats.refusedConcurrent++;
      throw concurrentRequestsExceeded();
    }
    state.allocation.record();
    state.stats.apiCalls++;
    try {
      const latency = c.get(FAULT_LATENCY);
      if (latency) await sleep(latency);
      await next();
    } finally {
      release();
    }
    c.res.headers.set('Sforce-Limit-Info', limitInfo(state));
  };
}

/** The sandbox's base URL as the caller sees it (origin + mount prefix), from the part of the path at `marker`. */
export function baseUrlOf(c: Context, marker: string): string {
  const url = new URL(c.req.url);
  const i = url.pathname.indexOf(marker);
  return url.origin + (i >= 0 ? url.pathname.slice(0, i) : '');
}
