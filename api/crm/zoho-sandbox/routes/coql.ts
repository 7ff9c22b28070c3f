/** `POST /api/{dc}/crm/v7/coql`: COQL over the org's records (coql/parse.ts, coql/execute.ts). */
import type { Hono } from 'hono';
import { executeCoql } from '../coql/execute.js';
import { parseCoql } from '../coql/parse.js';
import { invalidData, requiredParamMissing } from '../errors.js';
import { MODULE_SCOPE_NAME } from '../fields.js';
import { chargeCredits, requireAuth, zohoRouter } from '../http.js';
import type { SandboxState } from '../state.js';

export function coqlRoutes(state: SandboxState): Hono {
  const app = zohoRouter();
  app.post('/api/:dc/crm/:version/coql', async (c) => {
    const token = requireAuth(state, c, [['ZohoCRM.coql.READ']]);
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw invalidData('the input JSON is invalid', { expected_data_type: 'jsonobject' });
    }
    const query = (body as { select_query?: unknown } | null)?.select_query;
    if (typeof query !== 'string' || query.trim() === '') throw requiredParamMissing('select_query');
    state.stats.coqlRequests++;
    const parsed = parseCoql(query);
    // The base module's read scope (a lookup's module is read through it, as in Zoho).
    const m = MODULE_SCOPE_NAME[parsed.module];
    requireAuth(state, c, [[`ZohoCRM.modules.${m}.READ`]]);
    void token;
    chargeCredits(state, parsed.credits);
    const result = executeCoql(state.coql, parsed);
    if (result.data.length === 0) return c.body(null, 204);
    return c.json(result);
  });
  return app;
}
