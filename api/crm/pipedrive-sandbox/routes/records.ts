/**
 * v2 record routes: `GET /api/v2/persons`, `/organizations`, `/deals` (filter_id, ids, linked-record
 * and status parameters, `updated_since|until`, `sort_by` id | update_time | add_time, cursor paging of
 * at most 500) and one record by id.
 */
import type { Context, Hono } from 'hono';
import type { FilterType } from '../../pipedrive/model/index.js';
import type { PdDeal, PdOrganization, PdPerson } from '../data.js';
import { badRequest, notFound, validationFailed } from '../errors.js';
import { idsParam, intParam, listParam, pipedriveRouter, requireAuth, SCOPES, timeParam, v2PageRequest } from '../http.js';
import { renderDeal, renderOrganization, renderPerson, type PersonRenderOptions } from '../render.js';
import type { SandboxState } from '../state.js';
import { CursorError, pageOf, type CompanyStore } from '../store.js';

export function recordRoutes(state: SandboxState): Hono {
  const { store } = state;
  const app = pipedriveRouter();

  /** The records a `filter_id` selects (404 for an unknown filter, 400 for one of another type). */
  function filtered<T>(c: Context, type: FilterType): T[] | null {
    const filterId = intParam(c, 'filter_id');
    if (filterId === null) return null;
    const f = store.filter(filterId);
    if (!f) throw notFound('Filter not found');
    if (f.type !== type) throw badRequest(`Filter ${filterId} is a "${f.type}" filter and cannot be applied to ${type}.`);
    return store.applyFilter(f) as T[];
  }

  function page<T extends { id: number; add_time: number; update_time: number }>(c: Context, records: readonly T[], render: (r: T) => unknown) {
    const req = v2PageRequest(c);
    const since = timeParam(c, 'updated_since');
    const until = timeParam(c, 'updated_until');
    const scoped = since === null && until === null ? records : records.filter((r) => (since === null || r.update_time >= since) && (until === null || r.update_time < until));
    try {
      const { items, nextCursor } = pageOf(scoped, req);
      return c.json({ success: true, data: items.map(render), additional_data: { next_cursor: nextCursor } });
    } catch (err) {
      if (err instanceof CursorError) throw validationFailed(`cursor: ${err.message}`);
      throw err;
    }
  }

  const personOptions = (c: Context): PersonRenderOptions => {
    const customFields = listParam(c, 'custom_fields');
    if (customFields.length > 15) throw validationFailed('custom_fields: At most 15 custom field keys are allowed');
    return { includeFields: listParam(c, 'include_fields'), customFields, optionLabels: c.req.query('include_option_labels') === 'true', labels: c.req.query('include_labels') === 'true' };
  };

  app.get('/api/v2/persons', (c) => {
    requireAuth(state, c, SCOPES.contactsRead);
    const opts = personOptions(c);
    let records = filtered<PdPerson>(c, 'people');
    if (records === null) {
      const ids = idsParam(c);
      const ownerId = intParam(c, 'owner_id');
      const orgId = intParam(c, 'org_id');
      const dealId = intParam(c, 'deal_id');
      const dealPerson = dealId === null ? null : (store.deals.find((d) => d.id === dealId)?.person_id ?? -1);
      const idSet = ids ? new Set(ids) : null;
      records = store.persons.filter(
        (p) => (!idSet || idSet.has(p.id)) && (ownerId === null || p.owner_id === ownerId) && (orgId === null || p.org_id === orgId) && (dealPerson === null || p.id === dealPerson),
      );
    }
    return page(c, records, (p) => renderPerson(p, store, opts));
  });

  app.get('/api/v2/persons/:id{[0-9]+}', (c) => {
    requireAuth(state, c, SCOPES.contactsRead);
    const p = store.person(Number(c.req.param('id')));
    if (!p) throw notFound('Person not found');
    return c.json({ success: true, data: renderPerson(p, store, personOptions(c)) });
  });

  app.get('/api/v2/organizations', (c) => {
    requireAuth(state, c, SCOPES.contactsRead);
    let records = filtered<PdOrganization>(c, 'org');
    if (records === null) {
      const ids = idsParam(c);
      const ownerId = intParam(c, 'owner_id');
      const idSet = ids ? new Set(ids) : null;
      records = store.organizations.filter((o) => (!idSet || idSet.has(o.id)) && (ownerId === null || o.owner_id === ownerId));
    }
    return page(c, records, renderOrganization);
  });

  app.get('/api/v2/organizations/:id{[0-9]+}', (c) => {
    requireAuth(state, c, SCOPES.contactsRead);
    const o = store.orgById(Number(c.req.param('id')));
    if (!o) throw notFound('Organization not found');
    return c.json({ success: true, data: renderOrganization(o) });
  });

  app.get('/api/v2/deals', (c) => {
    requireAuth(state, c, SCOPES.dealsRead);
    let records = filtered<PdDeal>(c, 'deals');
    if (records === null) records = dealsBy(c, store);
    return page(c, records, renderDeal);
  });

  app.get('/api/v2/deals/:id{[0-9]+}', (c) => {
    requireAuth(state, c, SCOPES.dealsRead);
    const d = store.deals.find((x) => x.id === Number(c.req.param('id')));
    if (!d) throw notFound('Deal not found');
    return c.json({ success: true, data: renderDeal(d) });
  });

  return app;
}

/** Deals by the list parameters (used when no filter is given): status defaults to every not-deleted deal. */
function dealsBy(c: Context, store: CompanyStore): PdDeal[] {
  const ids = idsParam(c);
  const ownerId = intParam(c, 'owner_id');
  const personId = intParam(c, 'person_id');
  const orgId = intParam(c, 'org_id');
  const pipelineId = intParam(c, 'pipeline_id');
  const stageId = intParam(c, 'stage_id');
  const statuses = listParam(c, 'status');
  const allowed = ['open', 'won', 'lost', 'deleted'];
  if (statuses.some((s) => !allowed.includes(s))) throw validationFailed(`status: Value must be one of ${allowed.join(', ')}`);
  const idSet = ids ? new Set(ids) : null;
  return store.deals.filter(
    (d) =>
      (!idSet || idSet.has(d.id)) && (ownerId === null || d.owner_id === ownerId) && (personId === null || d.person_id === personId) &&
      (orgId === null || d.org_id === orgId) && (pipelineId === null || d.pipeline_id === pipelineId) && (stageId === null || d.stage_id === stageId) &&
      (statuses.length === 0 || statuses.includes(d.status)),
  );
}
