// node(id) / nodes(ids): every Node type loads only what the viewer may see; anything else is null,
// like an id that does not exist (issue: another user's CustomerQuery, User, SavedSegment,
// DailySegment and AuditLogEntry leaked to anyone, signed out included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { connectedUser } from '../helpers/crm.js';
import { ADMIN, Client, startTestApp, type TestApp } from '../helpers/test-app.js';
import { registeredNodeTypes } from '../../api/schema/node-access.js';
import { receiveUpload } from '../../api/services/contact-imports/index.js';
import { NODES } from './authorization-matrix.js';

let t: TestApp;
let owner: Awaited<ReturnType<typeof connectedUser>>;
let other: Awaited<ReturnType<typeof connectedUser>>;
let admin: Client;
let anonymous: Client;
const ids: Record<string, string> = {};

const NODE = `query($id: ID!) { node(id: $id) { __typename id } }`;

beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '300' });
  owner = await connectedUser(t.app, t.url);
  other = await connectedUser(t.app, t.url);
  admin = new Client(t.url);
  await admin.login(ADMIN);
  anonymous = new Client(t.url);

  const q = await owner.c.post('/api/queries', { naturalLanguage: 'leads in Europe' });
  expect(q.status).toBe(200);
  const seg = await owner.c.post('/api/segments', { description: 'customers in Canada' });
  expect(seg.status).toBe(201);
  await admin.post(`/api/admin/users/${other.userId}/ban`, { reason: 'probe' });
  await admin.post(`/api/admin/users/${other.userId}/unban`, {});
  await other.c.login({ email: other.email, password: 'pw-123456' }); // the ban ended its session
  const prisma = t.app.deps.prisma;
  const preset = await prisma.smartSegmentPreset.findFirstOrThrow({ include: { category: true } });
  const daily = await prisma.dailyGeneratedSegment.create({
    data: { userId: owner.userId, presetId: preset.id, date: new Date('2026-01-01'), customerCount: 3 },
  });
  const message = await prisma.chatMessage.findFirstOrThrow({ where: { userId: owner.userId } });
  const pat = await anonymous.gql(
    `mutation($input: CreatePersonalAccessTokenInput!) { createPersonalAccessToken(input: $input) { personalAccessToken { id } } }`,
    { input: { email: owner.email, password: 'pw-123456', name: 'probe' } },
  );
  const audit = await prisma.auditLog.findFirstOrThrow();
  const tier = await prisma.pricingTier.findFirstOrThrow();
  const formula = await prisma.impactScoreFormula.findFirstOrThrow();
  const upload = await receiveUpload(t.app.deps, { id: owner.userId }, { fileName: 'probe.csv', body: (async function* () { yield Buffer.from('Email\r\nprobe@example.com\r\n'); })() });
  Object.assign(ids, {
    ContactImport: encodeGlobalID('ContactImport', upload.id),
    CustomerQuery: encodeGlobalID('CustomerQuery', q.json.query.id),
    SavedSegment: encodeGlobalID('SavedSegment', seg.json.id),
    User: encodeGlobalID('User', owner.userId),
    DailySegment: encodeGlobalID('DailySegment', daily.id),
    ChatMessage: encodeGlobalID('ChatMessage', message.id),
    AuditLogEntry: encodeGlobalID('AuditLogEntry', audit.id),
    PricingTier: encodeGlobalID('PricingTier', tier.id),
    ImpactScoreFormula: encodeGlobalID('ImpactScoreFormula', formula.id),
    SmartSegmentPreset: encodeGlobalID('SmartSegmentPreset', preset.id),
    SmartSegmentCategory: encodeGlobalID('SmartSegmentCategory', preset.categoryId),
    PersonalAccessToken: pat.data.createPersonalAccessToken.personalAccessToken.id,
  });
});
afterAll(async () => {
  await t?.close();
});

/** Who sees each node type: written once, in the authorization matrix. */
const VISIBLE = NODES;

describe('node(id) authorization', () => {
  it('covers every registered node type', () => {
    expect(Object.keys(VISIBLE).sort()).toEqual(expect.arrayContaining(registeredNodeTypes()));
    expect(registeredNodeTypes()).toEqual(expect.arrayContaining(Object.keys(ids)));
  });

  for (const [type, who] of Object.entries(VISIBLE)) {
    for (const role of ['owner', 'other', 'admin', 'anonymous'] as const) {
      it(`${type} as ${role}: ${who[role] ? 'visible' : 'null'}`, async () => {
        const client = { owner: owner.c, other: other.c, admin, anonymous }[role];
        const r = await client.gql(NODE, { id: ids[type] });
        expect(r.errors).toBeUndefined();
        if (who[role]) expect(r.data.node).toEqual({ __typename: type, id: ids[type] });
        else expect(r.data.node).toBeNull();
        const many = await client.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [ids[type], ids[type]] });
        expect(many.errors).toBeUndefined();
        expect(many.data.nodes).toEqual(who[role] ? [{ id: ids[type] }, { id: ids[type] }] : [null, null]);
      });
    }
  }

  it('reads no private field of another user through node()', async () => {
    const r = await other.c.gql(`query($id: ID!) { node(id: $id) { ... on CustomerQuery { naturalLanguage customers(first: 5) { edges { node { email } } } } } }`, {
      id: ids.CustomerQuery,
    });
    expect(r).toEqual({ data: { node: null } });
  });

  it.each([
    ['malformed base64', '%%%not-an-id'],
    ['unknown type', encodeGlobalID('Nope', '7a1e3c0e-6a55-4c61-9d43-1b1c5f3f2b11')],
    ['not a uuid', encodeGlobalID('CustomerQuery', '42')],
    ['missing row', encodeGlobalID('CustomerQuery', '7a1e3c0e-6a55-4c61-9d43-1b1c5f3f2b11')],
    ['plain uuid', '7a1e3c0e-6a55-4c61-9d43-1b1c5f3f2b11'],
    ['empty', ''],
  ])('%s is null, not an error', async (_label, id) => {
    for (const client of [owner.c, anonymous]) {
      expect(await client.gql(NODE, { id })).toEqual({ data: { node: null } });
      expect(await client.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [id, ids.SavedSegment] })).toEqual({
        data: { nodes: [null, client === owner.c ? { id: ids.SavedSegment } : null] },
      });
    }
  });
});

describe('inactive Smart Segment content', () => {
  it('node(id) follows the list rule: inactive presets and categories (and presets of an inactive category) are null to users, visible to admins', async () => {
    const prisma = t.app.deps.prisma;
    const active = await prisma.smartSegmentCategory.findFirstOrThrow({ where: { isActive: true } });
    const hidden = await prisma.smartSegmentCategory.create({ data: { name: 'retired-category', displayName: 'Retired', isActive: false, sortOrder: 99 } });
    const inactivePreset = await prisma.smartSegmentPreset.create({ data: { categoryId: active.id, name: 'Retired preset', description: 'leads in Canada', isActive: false } });
    const presetOfHidden = await prisma.smartSegmentPreset.create({ data: { categoryId: hidden.id, name: 'Orphaned preset', description: 'leads in Canada', isActive: true } });
    const cases = [
      encodeGlobalID('SmartSegmentCategory', hidden.id),
      encodeGlobalID('SmartSegmentPreset', inactivePreset.id),
      encodeGlobalID('SmartSegmentPreset', presetOfHidden.id),
    ];
    // the lists users read hide them…
    const lists = await owner.c.gql('{ smartSegmentCategories { id } smartSegmentPresets { id } }');
    const listed = [...lists.data.smartSegmentCategories, ...lists.data.smartSegmentPresets].map((x: { id: string }) => x.id);
    for (const id of cases) expect(listed).not.toContain(id);
    // …and so does node(id) / nodes(ids), for any signed-in user; an administrator sees them
    for (const id of cases) {
      for (const client of [owner.c, other.c]) {
        expect(await client.gql(NODE, { id })).toEqual({ data: { node: null } });
        expect(await client.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [id] })).toEqual({ data: { nodes: [null] } });
      }
      expect((await admin.gql(NODE, { id })).data.node?.id).toBe(id);
    }
    // an active preset of an active category stays readable
    expect((await owner.c.gql(NODE, { id: ids.SmartSegmentPreset })).data.node?.id).toBe(ids.SmartSegmentPreset);
  });
});
