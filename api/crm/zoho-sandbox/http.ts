/**
 * What every Zoho sandbox route shares: Zoho's error bodies, the `Zoho-oauthtoken` check (token, data
 * centre, scopes), the org's API credits (charged per call, reported in `X-RATELIMIT-DAY-LIMIT` /
 * `X-RATELIMIT-DAY-REMAINING` on every answer of the CRM API) and its concurrency gate.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { scopeCovers, type AccessToken } from './auth.js';
import { apiError, authenticationFailure, invalidToken, scopeMismatch, ZohoApiError } from './errors.js';
import type { SandboxState } from './state.js';

/** A router whose ZohoApiErrors become Zoho's JSON error answers (anything else goes to the host app). */
export function zohoRouter(): Hono {
  const app = new Hono();
  app.onError((err, c) => {
    if (err instanceof ZohoApiError) return c.json(err.body, err.httpStatus as ContentfulStatusCode, err.headers);
    throw err;
  });
  return app;
}

/**
 * The caller's access token, checked: present (401 AUTHENTICATION_FAILURE), known, unexpired and issued
 * for the data centre in the path (401 INVALID_TOKEN), holding every scope of `required` — each entry
 * a list of alternatives (401 OAUTH_SCOPE_MISMATCH).
 */
export function requireAuth(state: SandboxState, c: Context, required: string[][]): AccessToken {
  const auth = state.tokens.authenticate(c.req.header('authorization'));
  if (auth.kind === 'missing') throw authenticationFailure();
  if (auth.kind !== 'ok' || c.req.param('dc') !== state.config.dataCentre) throw invalidToken();
  for (const alternatives of required) {
    if (!alternatives.some((s) => scopeCovers(auth.record.scopes, s))) throw scopeMismatch(alternatives[0]);
  }
  return auth.record;
}

/** Charges the org's credits for one call; 429 when the rolling 24 hours' credits are used up. */
export function chargeCredits(state: SandboxState, credits: number) {
  if (state.credits.charge(credits)) return;
  state.stats.rateLimited++;
  const release = state.credits.nextRelease();
  throw apiError(429, 'LIMIT_REACHED', 'The API credits of the organization for the last 24 hours are used up', {
    limit_type: 'credits',
    limit: state.credits.limit,
    remaining: 0,
    ...(release ? { reset_time: new Date(release).toISOString() } : {}),
  });
}

/** Concurrency gate + credit headers for every CRM API route. */
export function apiMiddleware(state: SandboxState): MiddlewareHandler {
  return async (c, next) => {
    state.stats.apiRequests++;
    const { concurrencyLimit } = state.config;
    if (concurrencyLimit > 0 && state.concurrency.inFlight >= concurrencyLimit) {
      state.stats.rateLimited++;
      return c.json(
        { code: 'TOO_MANY_REQUESTS', details: { limit_type: 'concurrency', limit: concurrencyLimit }, message: 'The number of concurrent requests exceeds the limit', status: 'error' },
        429,
      );
    }
    state.concurrency.inFlight++;
    try {
      await next();
    } finally {
      state.concurrency.inFlight--;
    }
    if (state.credits.limit > 0) {
      c.res.headers.set('X-RATELIMIT-DAY-LIMIT', String(state.credits.limit));
      c.res.headers.set('X-RATELIMIT-DAY-REMAINING', String(state.credits.remaining()));
    }
  };
}
