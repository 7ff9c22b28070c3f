/** What every sandbox route shares: HubSpot's error bodies, bearer-token checks, the `properties` parameter. */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { expiredAuthentication, HubSpotApiError, invalidAuthentication, missingScopes } from './errors.js';
import type { SandboxState } from './state.js';

export const CONTACTS_READ = 'crm.objects.contacts.read';
export const SCHEMAS_READ = 'crm.schemas.contacts.read';

/**
 * A router for sandbox routes: a HubSpotApiError thrown by a route becomes HubSpot's JSON error
 * response; anything else is rethrown to the app that mounts the sandbox (it logs and answers 500).
 */
export function hubSpotRouter(): Hono {
  const app = new Hono();
  app.onError((err, c) => {
    if (err instanceof HubSpotApiError) return c.json(err.body, err.httpStatus as ContentfulStatusCode, err.headers);
    throw err;
  });
  return app;
}

/** The bearer token's grant; throws HubSpot's 401 / 403 unless it holds one of the scopes. */
export function requireAuth(state: SandboxState, c: Context, anyOfScopes: string[]) {
  const auth = state.tokens.authenticate(c.req.header('authorization'));
  if (auth.kind === 'missing' || auth.kind === 'invalid') throw invalidAuthentication();
  if (auth.kind === 'expired') throw expiredAuthentication(auth.expiredMsAgo);
  if (!anyOfScopes.some((s) => auth.scopes.includes(s))) throw missingScopes(anyOfScopes);
  return auth;
}

/** `?properties=a,b&properties=c` → [a, b, c]; null when absent. */
export function propertiesParam(c: Context): string[] | null {
  const all = c.req.queries('properties');
  if (!all || all.length === 0) return null;
  return all.flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
}
