/**
 * Contact routes: search (throttled per portal, like HubSpot's SECONDLY policy), batch read, list and
 * read by id.
 */
import type { Hono } from 'hono';
import { ID_PROPERTY } from '../../hubspot/model/index.js';
import { notFoundError, secondlyRateLimit, validationError } from '../errors.js';
import { CONTACTS_READ, hubSpotRouter, propertiesParam, requireAuth } from '../http.js';
import { CONTACT_PROPERTY_DEFS, DEFAULT_SEARCH_PROPERTIES } from '../properties.js';
import { executeSearch } from '../search.js';
import type { SandboxState } from '../state.js';
import { lowerBound, renderContact, type ContactStore } from '../store.js';

export function contactRoutes(state: SandboxState): Hono {
  const { store, clock, config, limiter, stats } = state;
  const app = hubSpotRouter();
  const withSystemProps = (props: string[]) => [...new Set([...props, ID_PROPERTY])].filter((p) => store.column(p)).sort();

  app.post('/crm/v3/objects/contacts/search', async (c) => {
    const auth = requireAuth(state, c, [CONTACTS_READ]);
    stats.searchRequests++;
    const wait = limiter.check(auth.hubId, clock.now());
    if (wait > 0) {
      stats.rateLimited++;
      throw secondlyRateLimit(wait, config.rateLimitPerSecond);
    }
    return c.json(executeSearch(store, await c.req.text()));
  });

  app.post('/crm/v3/objects/contacts/batch/read', async (c) => {
    requireAuth(state, c, [CONTACTS_READ]);
    const startedAt = new Date(clock.now()).toISOString();
    let body: Record<string, unknown>;
    try {
      body = (await c.req.json()) as Record<string, unknown>;
    } catch {
      throw validationError('Invalid input JSON: the request body is not valid JSON.');
    }
    const inputs = body?.inputs;
    if (!Array.isArray(inputs)) throw validationError('Invalid input JSON: inputs must be an array.');
    if (inputs.length > 100) throw validationError(`Batch read is limited to 100 inputs, got ${inputs.length}.`);
    const requested = Array.isArray(body.properties) && body.properties.length > 0 ? body.properties.map(String) : DEFAULT_SEARCH_PROPERTIES;
    const props = withSystemProps(requested);
    const idProperty = typeof body.idProperty === 'string' ? body.idProperty : ID_PROPERTY;
    const results = [];
    const missing: string[] = [];
    const seen = new Set<number>();
    for (const input of inputs) {
      const id = String((input as Record<string, unknown>)?.id ?? '');
      const row = findRow(store, id, idProperty);
      if (row < 0) missing.push(id);
      else if (!seen.has(row)) {
        seen.add(row);
        results.push(renderContact(store, row, props));
      }
    }
    const completedAt = new Date(clock.now()).toISOString();
    if (missing.length === 0) return c.json({ status: 'COMPLETE', results, startedAt, completedAt });
    return c.json(
      {
        status: 'COMPLETE',
        results,
        numErrors: 1,
        errors: [
          {
            status: 'error',
            category: 'OBJECT_NOT_FOUND',
            message: 'Could not get some CONTACT objects, they may be deleted or not exist. Check that ids are valid.',
            context: { ids: missing },
          },
        ],
        startedAt,
        completedAt,
      },
      207,
    );
  });

  app.get('/crm/v3/objects/contacts', (c) => {
    requireAuth(state, c, [CONTACTS_READ]);
    const limitRaw = c.req.query('limit');
    const limit = limitRaw === undefined ? 10 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw validationError(`limit must be an integer between 1 and 100, got ${JSON.stringify(limitRaw)}.`);
    const afterRaw = c.req.query('after');
    let start = 0;
    if (afterRaw !== undefined && afterRaw !== '') {
      if (!/^\d+$/.test(afterRaw)) throw validationError(`Invalid after cursor ${JSON.stringify(afterRaw)}.`);
      // `after` is the hs_object_id of the first record of the page
      start = lowerBound(store.ids, Number(afterRaw), false);
    }
    const props = withSystemProps(propertiesParam(c) ?? DEFAULT_SEARCH_PROPERTIES);
    const end = Math.min(store.size, start + limit);
    const results = [];
    for (let r = start; r < end; r++) results.push(renderContact(store, r, props));
    const response: Record<string, unknown> = { results };
    if (end < store.size) {
      const next = String(store.ids[end]);
      const url = new URL(c.req.url);
      url.searchParams.set('after', next);
      response.paging = { next: { after: next, link: url.toString() } };
    }
    return c.json(response);
  });

  app.get('/crm/v3/objects/contacts/:id', (c) => {
    requireAuth(state, c, [CONTACTS_READ]);
    const id = c.req.param('id');
    const idProperty = c.req.query('idProperty') ?? ID_PROPERTY;
    const row = findRow(store, id, idProperty);
    if (row < 0) throw notFoundError(`Object not found.  objectId are usually numeric.`, { context: { id: [id] } });
    return c.json(renderContact(store, row, withSystemProps(propertiesParam(c) ?? DEFAULT_SEARCH_PROPERTIES)));
  });

  // The contact's page in HubSpot's app (app.hubspot.com/contacts/{portal}/record/0-1/{id}), where
  // the product links a contact: here a plain page of its properties (a sandbox has no sign-in).
  app.get('/contacts/:hubId/record/0-1/:id', (c) => {
    const row = c.req.param('hubId') === String(config.hubId) ? findRow(store, c.req.param('id'), ID_PROPERTY) : -1;
    if (row < 0) return c.html('<!doctype html><title>Contact not found</title><p>This contact does not exist in the sandbox.</p>', 404);
    const contact = renderContact(store, row, CONTACT_PROPERTY_DEFS.map((d) => d.name));
    const escape = (v: string) => v.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
    const name = [contact.properties.firstname, contact.properties.lastname].filter(Boolean).join(' ') || contact.properties.email || contact.id;
    const rows = Object.entries(contact.properties)
      .filter(([, v]) => v !== null && v !== '')
      .map(([k, v]) => `<tr><th>${escape(k)}</th><td>${escape(String(v))}</td></tr>`)
      .join('');
    return c.html(`<!doctype html><html lang="en"><meta charset="utf-8"><title>${escape(name)} · HubSpot sandbox</title><h1>${escape(name)}</h1><p>Contact ${escape(contact.id)} of sandbox portal ${config.hubId}</p><table>${rows}</table></html>`);
  });

  return app;
}

function findRow(store: ContactStore, id: string, idProperty: string): number {
  if (idProperty === 'email') {
    const p = store.postingsOf('email');
    const k = p.index.get(id.toLowerCase());
    return k === undefined ? -1 : p.rows[p.start[k]];
  }
  if (!/^\d+$/.test(id)) return -1;
  return store.rowOfId(Number(id));
}
