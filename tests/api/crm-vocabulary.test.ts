// The crmVocabulary query (issue 25, suggestions while typing): the signed-in user's own CRM values, from
// the same per-user cache as the question parser's; refused without a session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../api/crm/hubspot-sandbox/index.js';
import { connectorForUser } from '../../api/services/crm.js';
import { Client, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '300' });
});
afterAll(async () => {
  await t?.close();
});

const DOCUMENT = '{ crmVocabulary { companies cities states countries } }';

async function newUser() {
  const c = new Client(t.url);
  const email = `v${Math.random().toString(36).slice(2)}@example.com`;
  const r = await c.post('/api/auth/register', { firstName: 'V', lastName: 'W', email, crmType: 'hubspot', industry: 'telecom', password: 'pw-123456', confirmPassword: 'pw-123456' });
  expect(r.status).toBe(201);
  return { c, userId: r.json.user.id as string };
}

describe('crmVocabulary', () => {
  it('is refused without a session', async () => {
    const r = await new Client(t.url).gql(DOCUMENT);
    expect(r.data?.crmVocabulary ?? null).toBeNull();
    expect(r.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('is empty before a CRM is connected', async () => {
    const { c } = await newUser();
    const r = await c.gql(DOCUMENT);
    expect(r.errors).toBeUndefined();
    expect(r.data.crmVocabulary).toEqual({ companies: [], cities: [], states: [], countries: [] });
  });

  it("returns the values of the user's own CRM, most frequent first", async () => {
    const { c, userId } = await newUser();
    expect((await c.post('/api/crm/token', { token: DEFAULT_SANDBOX_CREDENTIALS.privateAppToken })).status).toBe(200);
    const r = await c.gql(DOCUMENT);
    expect(r.errors).toBeUndefined();
    const v = r.data.crmVocabulary as Record<string, string[]>;
    // what the user's connector reads from the CRM, field by field
    const user = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    const connector = await connectorForUser(t.app.deps, user);
    expect(v.countries).toEqual((await connector.listValues!('country')).slice(0, 500));
    expect(v.cities).toEqual((await connector.listValues!('city')).slice(0, 500));
    expect(v.companies).toEqual((await connector.listValues!('company')).slice(0, 500));
    expect(v.countries.length).toBeGreaterThan(3);
    expect(v.companies.length).toBeGreaterThan(3);
    expect(v.countries).toContain('Germany');

    // disconnected: the values are forgotten, not suggested from the old connection
    expect((await c.delete('/api/auth/hubspot/disconnect')).status).toBe(200);
    expect((await c.gql(DOCUMENT)).data.crmVocabulary).toEqual({ companies: [], cities: [], states: [], countries: [] });
  });
});
