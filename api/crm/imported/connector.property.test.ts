/**
 * Property: the imported-contacts connector (segments compiled to SQL over imported_contacts, run on
 * PostgreSQL) selects exactly the records the record evaluator selects — the semantics HubSpot's
 * compiler is proved against — counts them exactly, and reads them in the product's result order
 * (compareRecords), whole and in keyset pages of any size.
 */
import type { PrismaClient } from '@prisma/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/helpers/test-db.js';
import { createPrismaClient } from '../../db/client.js';
import { migrate } from '../../db/migrate.js';
import { compileRecordEvaluator } from '../../segmentation/evaluate.js';
import { NOW, TIME_ZONES, contactsArb, datePool, segmentArb } from '../../segmentation/testing/arbitraries.js';
import { collect } from '../connector.js';
import { HUBSPOT_FIELD_MAP } from '../hubspot/field-map.js';
import { hubspotRecord } from '../hubspot/records.js';
import { sortRecords, type CrmRecord } from '../record.js';
import { idNumber } from '../../services/contact-imports/mapping.js';
import { insertContacts } from '../../services/contact-imports/store.js';
import { ImportedContactsConnector } from './connector.js';

let db: TestDatabase;
let prisma: PrismaClient;
let userId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  await migrate(db.url);
  prisma = createPrismaClient(db.url, { max: 2 });
  const user = await prisma.user.create({
    data: { email: 'p@example.com', password: 'x', firstName: 'P', lastName: 'Q', crmType: 'other', industry: 'retail' },
  });
  userId = user.id;
}, 60_000);

afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});

/** Stores records as one import and returns a connector over it. */
async function imported(records: CrmRecord[]): Promise<ImportedContactsConnector> {
  const imp = await prisma.contactImport.create({ data: { userId, fileName: 'p.csv', format: 'csv', status: 'test' } });
  await insertContacts(
    { prisma },
    imp.id,
    records.map((r) => ({ ...r, idNum: idNumber(r.id), stageValue: r.stage })),
  );
  return new ImportedContactsConnector(<T,>(sql: string, params: unknown[]) => prisma.$queryRawUnsafe<T[]>(sql, ...params), {
    importId: imp.id,
    fieldMap: HUBSPOT_FIELD_MAP,
    fields: [],
  });
}

async function pages(connector: ImportedContactsConnector, plan: ReturnType<ImportedContactsConnector['compile']>, size: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: unknown = null;
  for (let i = 0; i < 1000; i++) {
    const page = await connector.readPage(plan, { first: size, cursor });
    ids.push(...page.records.map((r) => r.record.id));
    if (page.next === null) return ids;
    // the cursor travels as JSON (export cursors)
    cursor = JSON.parse(JSON.stringify(page.next));
  }
  throw new Error('too many pages');
}

const pools = new Map(TIME_ZONES.map((tz) => [tz, datePool(tz)] as const));

describe('imported contacts connector = record evaluator', () => {
  it.each(TIME_ZONES.flatMap((tz) => [[tz, 'numeric ids'], [tz, 'text ids']] as const))('same contacts, count and order (%s, %s)', async (timeZone, ids) => {
    const dates = pools.get(timeZone)!;
    await fc.assert(
      fc.asyncProperty(segmentArb, contactsArb(dates), fc.integer({ min: 1, max: 9 }), async (segment, contacts, pageSize) => {
        const ctx = { now: new Date(NOW), timeZone };
        const records = contacts.map((c) => {
          const r = hubspotRecord(c, HUBSPOT_FIELD_MAP);
          return ids === 'text ids' ? { ...r, id: `c-${r.id.padStart(3, '0')}` } : r;
        });
        const keep = compileRecordEvaluator(segment.where, ctx);
        const want = sortRecords(records.filter(keep), segment.sort).slice(0, segment.limit).map((r) => r.id);
        const connector = await imported(records);
        const plan = connector.compile(segment, ctx);
        expect(plan.residual).toBeUndefined();
        expect(await connector.count(plan)).toBe(want.length);
        expect((await collect(connector.read(plan))).map((r) => r.id)).toEqual(want);
        expect(await pages(connector, JSON.parse(JSON.stringify(plan)), pageSize)).toEqual(want);
      }),
      { numRuns: 40, seed: 27 },
    );
  }, 240_000);

  it('reads every field back as it was stored', async () => {
    const record: CrmRecord = {
      id: '42', firstName: 'Zoë', lastName: "O'Brien", email: 'zoe@example.com', company: 'Acme', stage: 'marketingqualifiedlead', lifecycleStage: 'lead',
      lastPurchaseAt: Date.parse('2026-03-04T05:06:07.089Z'), lastPurchaseAmount: 1234.56, lifetimeValue: 98765.43, city: 'Köln', state: 'NRW', country: 'Germany',
      createdAt: Date.parse('2020-01-02T03:04:05.006Z'),
    };
    const connector = await imported([record]);
    const [got] = await collect(connector.read(connector.compile({ version: 1 }, { now: new Date(NOW), timeZone: 'UTC' })));
    expect(got).toEqual(record);
  });

  it('refuses a plan of another CRM and a cursor that is not its own', async () => {
    const connector = await imported([]);
    await expect(connector.count({ crmType: 'hubspot', native: { searches: [] } })).rejects.toMatchObject({ code: 'VALIDATION' });
    const plan = connector.compile({ version: 1 }, { now: new Date(NOW), timeZone: 'UTC' });
    await expect(connector.readPage(plan, { first: 5, cursor: { offset: 3 } })).rejects.toThrow(/not a cursor/);
  });
});
