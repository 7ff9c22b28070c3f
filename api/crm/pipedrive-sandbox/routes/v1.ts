/**
 * v1 routes (served under `/v1` and `/api/v1`): the current user and company (`GET /users/me`), field
 * definitions (`GET /personFields`, `/organizationFields`, `/dealFields`, start/limit paging) and
 * filters (`GET|POST /filters`, `GET /filters/helpers`, `GET|PUT|DELETE /filters/{id}`,
 * `DELETE /filters?ids=`).
 */
import type { Context, Hono } from 'hono';
import { ADDRESS_COMPONENTS, FILTER_TYPES, RELATIVE_DATES, type FilterType } from '../../pipedrive/model/index.js';
import { FilterDefinitionError, OPERATORS_BY_KIND, validateConditions } from '../conditions.js';
import { badRequest, notFound } from '../errors.js';
import { renderField, type FieldDef } from '../fields.js';
import { pipedriveRouter, requireAuth, SCOPES } from '../http.js';
import type { SandboxState } from '../state.js';
import { renderFilter } from '../store.js';

export function v1Routes(state: SandboxState): Hono {
  const { store, config, clock } = state;
  const app = pipedriveRouter();

  app.get('/users/me', (c) => {
    const auth = requireAuth(state, c, SCOPES.base);
    const u = auth.user;
    const offset = utcOffset(config.timeZone, clock.now());
    return c.json({
      success: true,
      data: {
        id: u.id, name: u.name, default_currency: 'USD', locale: 'en_US', lang: 1, email: u.email, phone: null, activated: true,
        last_login: v1(clock.now()), created: '2024-01-15 09:00:00', modified: v1(clock.now()), has_created_company: u.is_admin,
        access: [{ app: 'sales', admin: u.is_admin, permission_set_id: u.is_admin ? 'admin' : 'regular' }],
        active_flag: true, timezone_name: config.timeZone, timezone_offset: offset, role_id: 1, icon_url: null, is_you: true, is_deleted: false,
        company_id: config.companyId, company_name: config.companyName, company_domain: config.companyDomain, company_country: 'US',
        company_industry: 'Software', language: { language_code: 'en', country_code: 'US' },
      },
    });
  });

  const fieldList = (path: string, scopes: readonly string[], defs: () => FieldDef<any>[]) =>
    app.get(path, (c) => {
      requireAuth(state, c, scopes);
      const start = Math.max(0, Number(c.req.query('start') ?? 0) || 0);
      const limit = Math.min(500, Math.max(1, Number(c.req.query('limit') ?? 100) || 100));
      const all = defs();
      const data = all.slice(start, start + limit).map((f, i) => renderField(f, start + i + 1));
      const more = start + limit < all.length;
      return c.json({ success: true, data, additional_data: { pagination: { start, limit, more_items_in_collection: more, ...(more ? { next_start: start + limit } : {}) } } });
    });
  fieldList('/personFields', SCOPES.contactsRead, () => store.fields.person);
  fieldList('/organizationFields', SCOPES.contactsRead, () => store.fields.organization);
  fieldList('/dealFields', SCOPES.dealsRead, () => store.fields.deal);

  app.get('/filters/helpers', (c) => {
    requireAuth(state, c, SCOPES.filtersRead);
    const byType: Record<string, string[]> = {};
    for (const f of [...store.fields.person, ...store.fields.organization, ...store.fields.deal]) byType[f.field_type] ??= OPERATORS_BY_KIND[f.kind];
    return c.json({
      success: true,
      data: {
        operators: Object.fromEntries(Object.entries(byType).map(([type, ops]) => [type, Object.fromEntries(ops.map((o) => [o, OPERATOR_LABELS[o] ?? o]))])),
        relative_dates: Object.fromEntries(RELATIVE_DATES.map((d) => [d, d.replace('_', ' ')])),
        address_field_components: Object.fromEntries(ADDRESS_COMPONENTS.map((a) => [a, a === 'value' ? 'Full/combined address' : a])),
      },
    });
  });

  app.get('/filters', (c) => {
    requireAuth(state, c, SCOPES.filtersRead);
    const type = c.req.query('type');
    if (type !== undefined && !(FILTER_TYPES as readonly string[]).includes(type)) throw badRequest(`Unknown filter type "${type}".`);
    return c.json({ success: true, data: store.listFilters(type as FilterType | undefined).map((f) => renderFilter(f, false)) });
  });

  app.get('/filters/:id{[0-9]+}', (c) => {
    requireAuth(state, c, SCOPES.filtersRead);
    const f = store.filter(Number(c.req.param('id')));
    if (!f) throw notFound('Filter not found');
    return c.json({ success: true, data: renderFilter(f, true) });
  });

  app.post('/filters', async (c) => {
    const auth = requireAuth(state, c, SCOPES.filtersWrite);
    const body = await jsonBody(c);
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!name) throw badRequest('Filter name is required.');
    const type = body.type as FilterType;
    if (!(FILTER_TYPES as readonly string[]).includes(String(type))) throw badRequest(`type must be one of ${FILTER_TYPES.join(', ')}.`);
    const conditions = checked(() => validateConditions(body.conditions, type, store.fields));
    const f = store.createFilter({ name, type, conditions, userId: auth.user.id, visibleTo: typeof body.visible_to === 'string' ? body.visible_to : undefined });
    state.stats.filtersCreated++;
    return c.json({ success: true, data: renderFilter(f, true) });
  });

  app.put('/filters/:id{[0-9]+}', async (c) => {
    requireAuth(state, c, SCOPES.filtersWrite);
    const f = store.filter(Number(c.req.param('id')));
    if (!f) throw notFound('Filter not found');
    const body = await jsonBody(c);
    const conditions = body.conditions === undefined ? undefined : checked(() => validateConditions(body.conditions, f.type, store.fields));
    store.updateFilter(f, { name: typeof body.name === 'string' && body.name.trim() ? body.name.trim() : undefined, conditions });
    return c.json({ success: true, data: renderFilter(f, true) });
  });

  app.delete('/filters/:id{[0-9]+}', (c) => {
    requireAuth(state, c, SCOPES.filtersWrite);
    const f = store.filter(Number(c.req.param('id')));
    if (!f) throw notFound('Filter not found');
    store.deleteFilter(f);
    state.stats.filtersDeleted++;
    return c.json({ success: true, data: { id: f.id } });
  });

  app.delete('/filters', (c) => {
    requireAuth(state, c, SCOPES.filtersWrite);
    const ids = (c.req.query('ids') ?? '').split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0);
    if (ids.length === 0) throw badRequest('ids is required: a comma-separated list of filter ids.');
    const found = ids.map((id) => store.filter(id)).filter((f) => f !== undefined);
    for (const f of found) store.deleteFilter(f);
    state.stats.filtersDeleted += found.length;
    return c.json({ success: true, data: { id: found.map((f) => f.id) } });
  });

  return app;
}

const OPERATOR_LABELS: Record<string, string> = {
  '=': 'is', '!=': 'is not', '<': 'is less than', '>': 'is more than', '<=': 'is less or equal than', '>=': 'is more or equal than',
  'IS NULL': 'is empty', 'IS NOT NULL': 'is not empty', "LIKE '$%'": 'starts with', "LIKE '%$%'": 'contains',
  "NOT LIKE '$%'": 'does not start with', "NOT LIKE '%$%'": 'does not contain',
};

async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  try {
    const body = (await c.req.json()) as unknown;
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw badRequest('The request body must be a JSON object.');
}

function checked<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof FilterDefinitionError) throw badRequest(err.message);
    throw err;
  }
}

const v1 = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** "+02:00"-style offset of a time zone at an instant. */
function utcOffset(timeZone: string, at: number): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-]\d{2}:\d{2})/.exec(part);
  return m ? m[1] : '+00:00';
}
