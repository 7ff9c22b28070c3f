import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAllSavedSegments } from '../../api/services/segments.js';
import { connectedUser, expectedIds, registerUser } from '../helpers/crm.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '300' });
});
afterAll(async () => {
  await t?.close();
});

describe('saved segments (REST)', () => {
  it('creates (trimmed), lists, validates, and deletes only for the owner', async () => {
    const { c } = await registerUser(t.url);
    expect((await c.get('/api/segments')).json).toEqual([]);
    const empty = await c.post('/api/segments', { description: '   ' });
    expect(empty.status).toBe(400);
    const long = await c.post('/api/segments', { description: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.json.message).toMatch(/500/);
    const created = await c.post('/api/segments', { description: '  leads in Canada  ' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ description: 'leads in Canada', message: 'Segment created' });
    // The same description again, twice at once (a double click): the saved one, not a second.
    const again = await Promise.all([c.post('/api/segments', { description: 'Leads in Canada' }), c.post('/api/segments', { description: 'leads in canada ' })]);
    for (const r of again) expect(r.json.id).toBe(created.json.id);
    const list = (await c.get('/api/segments')).json;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: created.json.id, description: 'leads in Canada', customerCount: null, processedAt: null });

    const other = await registerUser(t.url);
    expect((await other.c.delete(`/api/segments/${created.json.id}`)).status).toBe(404);
    expect((await other.c.delete('/api/segments/nope')).status).toBe(404);
    expect((await c.get('/api/segments')).json).toHaveLength(1);
    const del = await c.delete(`/api/segments/${created.json.id}`);
    expect(del.json).toMatchObject({ success: true, message: 'Segment deleted' });
    expect((await c.get('/api/segments')).json).toEqual([]);
    expect((await t.app.deps.prisma.segment.count({ where: { id: created.json.id } }))).toBe(0);
  });

  it('processes segments (on demand and in the daily run) and shows the latest count', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const s = (await c.post('/api/segments', { description: 'subscribers in the United States' })).json;
    const bad = (await c.post('/api/segments', { description: 'leads' })).json;
    const p = await c.post(`/api/segments/${s.id}/process`);
    const expected = (await expectedIds(t.app, 'subscribers in the United States')).length;
    expect(p.json).toMatchObject({ customerCount: expected, hasError: false });
    const list = (await c.get('/api/segments')).json as any[];
    const row = list.find((x) => x.id === s.id);
    expect(row.customerCount).toBe(expected);
    expect(row.processedAt).toBeTruthy();

    const stats = await processAllSavedSegments(t.app.deps);
    expect(stats.processed).toBeGreaterThanOrEqual(2);
    expect(await t.app.deps.prisma.processedSegment.count({ where: { segmentId: bad.id } })).toBe(1);
  });

  it('records an error when the CRM is not connected', async () => {
    const { c } = await registerUser(t.url);
    const s = (await c.post('/api/segments', { description: 'leads' })).json;
    const p = await c.post(`/api/segments/${s.id}/process`);
    expect(p.json.hasError).toBe(true);
    expect(p.json.errorMessage).toMatch(/Not connected/);
  });

  it('runs a saved segment as a query', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const s = (await c.post('/api/segments', { description: 'leads who never purchased' })).json;
    const r = await c.post(`/api/segments/${s.id}/run`);
    expect(r.status).toBe(200);
    expect(r.json.query.naturalLanguage).toBe('leads who never purchased');
    expect(r.json.resultCount).toBe((await expectedIds(t.app, 'leads who never purchased')).length);
  });
});

describe('saved segments (GraphQL)', () => {
  it('creates, lists with latest result, runs and deletes', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const created = await c.gql('mutation { createSavedSegment(input: { description: " customers in Germany " }) { savedSegment { id segmentId description latestResult { customerCount } } } }');
    expect(created.data.createSavedSegment.savedSegment).toMatchObject({ description: 'customers in Germany', latestResult: null });
    const { id, segmentId } = created.data.createSavedSegment.savedSegment;
    const processed = await c.gql(`mutation { processSavedSegment(input: { id: "${id}" }) { savedSegment { latestResult { customerCount hasError } } } }`);
    const latest = processed.data.processSavedSegment.savedSegment.latestResult;
    expect(latest.hasError).toBe(false);
    const run = await c.gql(`mutation { runSavedSegment(input: { id: "${id}" }) { resultCount hasError query { naturalLanguage } } }`);
    expect(run.data.runSavedSegment.query.naturalLanguage).toBe('customers in Germany');
    expect(run.data.runSavedSegment.resultCount).toBe(latest.customerCount);
    const list = await c.gql('{ savedSegments { totalCount edges { node { segmentId } } } }');
    expect(list.data.savedSegments).toEqual({ totalCount: 1, edges: [{ node: { segmentId } }] });
    const empty = await c.gql('mutation { createSavedSegment(input: { description: "" }) { savedSegment { id } } }');
    expect(empty.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const del = await c.gql(`mutation { deleteSavedSegment(input: { id: "${id}" }) { deletedId } }`);
    expect(del.data.deleteSavedSegment.deletedId).toBe(id);
    // Someone else's segment, and a raw uuid, are refused without touching anything.
    const raw = await c.gql(`mutation { deleteSavedSegment(input: { id: "${segmentId}" }) { deletedId } }`);
    expect(raw.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('descriptions the engine cannot fully understand', () => {
  it('records an error naming the phrases instead of silently dropping them', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const s = (await c.post('/api/segments', { description: 'VIP clients in Germany' })).json;
    const p = await c.post(`/api/segments/${s.id}/process`);
    expect(p.json.hasError).toBe(true);
    expect(p.json.errorMessage).toMatch(/not understood: "VIP"/);
    const list = (await c.get('/api/segments')).json as any[];
    expect(list.find((x) => x.id === s.id)).toMatchObject({ customerCount: null, hasError: true });
  });
});

describe('renaming and editing a saved segment (GraphQL updateSavedSegment)', () => {
  const UPDATE = `mutation($input: UpdateSavedSegmentInput!) {
    updateSavedSegment(input: $input) { savedSegment { id name description latestResult { customerCount hasError processedAt } } }
  }`;
  async function create(c: Awaited<ReturnType<typeof connectedUser>>['c'], description: string) {
    const r = await c.gql('mutation($d: String!) { createSavedSegment(input: { description: $d }) { savedSegment { id segmentId } } }', { d: description });
    return r.data.createSavedSegment.savedSegment as { id: string; segmentId: string };
  }
  const row = (id: string) => t.app.deps.prisma.segment.findUniqueOrThrow({ where: { id } });

  it('lets the owner rename it and edit its description, which is counted again at once', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const s = await create(c, 'leads in Canada');
    const renamed = await c.gql(UPDATE, { input: { id: s.id, name: '  Canadian leads ' } });
    expect(renamed.errors).toBeUndefined();
    expect(renamed.data.updateSavedSegment.savedSegment).toMatchObject({ id: s.id, name: 'Canadian leads', description: 'leads in Canada', latestResult: null });

    const edited = await c.gql(UPDATE, { input: { id: s.id, description: ' subscribers in the United States ' } });
    expect(edited.errors).toBeUndefined();
    const saved = edited.data.updateSavedSegment.savedSegment;
    expect(saved).toMatchObject({ name: 'Canadian leads', description: 'subscribers in the United States' });
    expect(saved.latestResult).toMatchObject({ customerCount: (await expectedIds(t.app, 'subscribers in the United States')).length, hasError: false });
    expect(await row(s.segmentId)).toMatchObject({ name: 'Canadian leads', description: 'subscribers in the United States' });

    // A blank name removes it (the description shows again); the list reads the same.
    const cleared = await c.gql(UPDATE, { input: { id: s.id, name: '   ' } });
    expect(cleared.data.updateSavedSegment.savedSegment.name).toBeNull();
    const list = await c.gql('{ savedSegments { edges { node { id name description } } } }');
    expect(list.data.savedSegments.edges).toEqual([{ node: { id: s.id, name: null, description: 'subscribers in the United States' } }]);
  });

  it('refuses another user, and a raw id, without changing anything', async () => {
    const owner = await connectedUser(t.app, t.url);
    const s = await create(owner.c, 'customers in Germany');
    const other = await connectedUser(t.app, t.url);
    const refused = await other.c.gql(UPDATE, { input: { id: s.id, name: 'Mine now', description: 'leads in Canada' } });
    expect(refused.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(refused.data?.updateSavedSegment ?? null).toBeNull();
    const raw = await owner.c.gql(UPDATE, { input: { id: s.segmentId, name: 'Raw' } });
    expect(raw.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(await row(s.segmentId)).toMatchObject({ name: null, description: 'customers in Germany' });
    expect(await t.app.deps.prisma.processedSegment.count({ where: { segmentId: s.segmentId } })).toBe(0);
  });

  it('refuses an invalid description with a clear message on the field, and changes nothing', async () => {
    const { c } = await connectedUser(t.app, t.url);
    const s = await create(c, 'leads in Canada');
    const twin = await create(c, 'customers in Germany');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ description: '   ' }, /Please describe the segment/],
      [{ description: 'x'.repeat(501) }, /at most 500 characters/],
      [{ description: 'VIP clients in Germany' }, /not understood: "VIP"/],
      [{ description: 'Customers in GERMANY' }, /already has this description/],
      [{ name: 'n'.repeat(101), description: 'customers in France' }, /at most 100 characters/],
    ];
    for (const [changes, message] of cases) {
      const r = await c.gql(UPDATE, { input: { id: s.id, name: 'Should not stick', ...changes } });
      expect(r.errors?.[0].extensions?.code, JSON.stringify(changes)).toBe('BAD_USER_INPUT');
      expect(r.errors?.[0].message).toMatch(message);
      expect(r.errors?.[0].extensions?.field).toBe('name' in changes && String(changes.name).length > 100 ? 'name' : 'description');
    }
    expect(await row(s.segmentId)).toMatchObject({ name: null, description: 'leads in Canada' });
    expect(await row(twin.segmentId)).toMatchObject({ description: 'customers in Germany' });
    expect(await t.app.deps.prisma.processedSegment.count({ where: { segmentId: s.segmentId } })).toBe(0);
  });
});
