/**
 * Contacts from a file, through the running app: upload (raw body, streamed), preview (guessed mapping,
 * problems), import with progress, the file connection, everything on imported contacts (questions,
 * history, export, saved segments, Smart Segments), re-upload and undo, and bad input.
 */
import { request } from 'node:http';
import { encodeGlobalID } from '@pothos/plugin-relay';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../api/crm/hubspot-sandbox/index.js';
import { contactsExportCsv } from '../../api/crm/synthetic-people/export.js';
import { generatePeople, type SyntheticPerson } from '../../api/crm/synthetic-people/index.js';
import { hubspotRecord } from '../../api/crm/hubspot/records.js';
import { HUBSPOT_FIELD_MAP } from '../../api/crm/hubspot/field-map.js';
import { toSandboxContact } from '../../api/crm/hubspot-sandbox/data.js';
import { generateForUser } from '../../api/services/smart-segments/generate.js';
import { receiveUpload } from '../../api/services/contact-imports/index.js';
import { parseSegment } from '../../api/segmentation/index.js';
import { compileRecordEvaluator } from '../../api/segmentation/evaluate.js';
import { connectorForUser } from '../../api/services/crm.js';
import { Client, startTestApp, type TestApp } from '../helpers/test-app.js';
import { registerUser } from '../helpers/crm.js';
import { IMPORT_STATE, importFile, mappingInput, preview, START, upload, waitForImport } from '../helpers/imports.js';
import { until } from '../helpers/wait.js';
import { collect, wsClient } from '../helpers/ws-client.js';

let t: TestApp;
const NOW = new Date('2026-06-15T12:00:00Z');
const people = generatePeople({ count: 400, seed: 7, now: NOW });
const csv = contactsExportCsv(people);

beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '50' }, { now: () => NOW });
});
afterAll(async () => {
  await t?.close();
});

/** The people a question selects, by the record evaluator (the reference). */
async function expectedCount(question: string, subset: SyntheticPerson[] = people): Promise<number> {
  const opts = { now: NOW, timeZone: 'UTC' };
  const { segment } = await parseSegment(question, opts);
  const keep = compileRecordEvaluator(segment.where, opts);
  const records = subset.map((p) => {
    const c = toSandboxContact(p);
    const properties = Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v === null ? null : String(v)]));
    return hubspotRecord({ id: String(c.id), properties: { ...properties, hs_object_id: String(c.id) } }, HUBSPOT_FIELD_MAP);
  });
  const n = records.filter(keep).length;
  return segment.limit !== undefined ? Math.min(n, segment.limit) : n;
}

describe('a user who registered with "Other"', () => {
  let c: Client;
  let userId: string;
  let importGid: string;

  beforeAll(async () => {
    ({ c, userId } = await registerUser(t.url, { crmType: 'other' }));
  });

  it('is told to import a file before the first question', async () => {
    const r = await c.post('/api/queries', { naturalLanguage: 'customers in Germany' });
    expect(r.json.message).toMatch(/Import your contacts from a CSV or Excel file in CRM Integration first/);
  });

  it('uploads a CRM export and sees the guessed mapping, the first rows and no problems', async () => {
    const up = await upload(c, csv, 'hubspot-export.csv');
    expect(up.status, up.text).toBe(201);
    expect(up.json).toMatchObject({ fileName: 'hubspot-export.csv', format: 'csv', encoding: 'utf-8', status: 'uploaded', byteSize: Buffer.byteLength(csv) });
    importGid = up.json.importId;
    const p = await preview(c, importGid);
    expect(p.blocker).toBeNull();
    expect(p.complete).toBe(true);
    expect(p.scannedRows).toBe(400);
    expect(p.delimiter).toBe('comma');
    expect(Object.fromEntries(p.columns.map((col: any) => [col.header, col.field]))).toEqual({
      'Record ID': 'id', 'First Name': 'firstName', 'Last Name': 'lastName', Email: 'email', 'Company Name': 'company',
      'Lifecycle Stage': 'lifecycleStage', 'Recent Deal Close Date': 'lastPurchaseDate', 'Recent Deal Amount': 'lastPurchaseAmount',
      'Total Revenue': 'lifetimeValue', City: 'city', 'State/Region': 'state', 'Country/Region': 'country', 'Create Date': 'createdAt',
    });
    expect(p.problems.total).toBe(0);
    expect(p.rows).toHaveLength(10);
    const first = people[0];
    expect(p.rows[0].customer).toMatchObject({ id: String(first.id), firstName: first.firstName, email: first.email, country: first.country });
    expect(p.stageValues.every((s: any) => s.known)).toBe(true);
    expect(p.stageValues.find((s: any) => s.value === 'Marketing Qualified Lead')?.stage).toBe('marketingqualifiedlead');
  });

  it('imports it with progress events, and the file becomes the connection', async () => {
    const ws = wsClient(t.url, `crm_session=${c.cookies.get('crm_session')}`);
    const sub = collect<{ contactImportProgress: any }>(ws, `subscription { contactImportProgress(importId: "${importGid}") { importId status importedCount progress done error } }`);
    await new Promise((r) => setTimeout(r, 300));
    const p = await preview(c, importGid);
    const started = await c.gql(START, { input: { importId: importGid, mapping: mappingInput(p) } });
    expect(started.errors).toBeUndefined();
    expect(started.data.startContactImport.contactImport.status).toBe('importing');
    await until(() => sub.items.some((i) => i.contactImportProgress.done), { timeoutMs: 30_000, what: 'the last progress event' });
    sub.dispose();
    await ws.dispose();
    const events = sub.items.map((i) => i.contactImportProgress);
    expect(events[0].status).toBe('importing');
    const last = events[events.length - 1];
    expect(last).toMatchObject({ importId: importGid, status: 'active', importedCount: 400, progress: 1, done: true, error: null });
    const state = await waitForImport(c, importGid);
    expect(state).toMatchObject({ status: 'active', rowCount: 400, importedCount: 400, skippedCount: 0, problemCount: 0, progress: 1 });
    expect(await t.app.deps.prisma.contactImportChunk.count({ where: { contactImport: { userId } } })).toBe(0);
    const conn = await c.gql('{ crmConnection { connected tokenType crmLabel activeImport { fileName importedCount } previousImport { id } } }');
    expect(conn.data.crmConnection).toMatchObject({ connected: true, tokenType: 'file', activeImport: { fileName: 'hubspot-export.csv', importedCount: 400 }, previousImport: null });
  });

  it('answers questions over the imported contacts, with the evaluator\'s counts', async () => {
    for (const q of ['customers in Germany', 'leads in Europe who bought in the last year', 'top 10 customers by lifetime value', 'people at gmail.com', 'contacts with no email']) {
      const r = await c.post('/api/queries', { naturalLanguage: q });
      expect(r.status, q).toBe(200);
      expect(r.json.hasError, q).toBe(false);
      expect(r.json.resultCount, q).toBe(await expectedCount(q));
    }
    // the results' filters (lifecycle stage, region) over the stored customers of an imported-contacts query
    const everyone = await c.post('/api/queries', { naturalLanguage: 'everyone' });
    const filtered = await c.gql(
      'query($id: ID!) { node(id: $id) { ... on CustomerQuery { customers(first: 100, filter: { lifecycle: "lead", region: "Europe" }) { totalCount edges { node { lifecycleStage country } } } } } }',
      { id: encodeGlobalID('CustomerQuery', everyone.json.query.id) },
    );
    expect(filtered.errors).toBeUndefined();
    expect(filtered.data.node.customers.totalCount).toBe(await expectedCount('leads in Europe'));
    expect(filtered.data.node.customers.edges.every((e: any) => e.node.lifecycleStage === 'lead')).toBe(true);
    const top = await c.post('/api/queries', { naturalLanguage: 'top 3 customers by lifetime value' });
    const customers = (await c.get(`/api/customers?queryId=${top.json.query.id}`)).json;
    const values = (customers.customers ?? customers).map((x: any) => x.lifetimeValue);
    expect(values).toEqual([...values].sort((a: number, b: number) => b - a));
  });

  it('keeps history, exports every customer, counts saved segments and generates Smart Segments from the imported contacts', async () => {
    const history = await c.get('/api/queries');
    expect(history.json.length ?? history.json.queries?.length).toBeGreaterThan(0);
    const q = await c.post('/api/queries', { naturalLanguage: 'customers' });
    const gid = { id: encodeGlobalID('CustomerQuery', q.json.query.id) };
    expect(q.json.resultCount).toBe(400);
    let after: string | null = null;
    const ids: string[] = [];
    for (;;) {
      const page: any = await c.gql('query($id: ID!, $after: String) { customerExport(source: $id, first: 37, after: $after) { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }', { id: gid.id, after });
      expect(page.errors).toBeUndefined();
      ids.push(...page.data.customerExport.edges.map((e: any) => e.node.id));
      if (!page.data.customerExport.pageInfo.hasNextPage) break;
      after = page.data.customerExport.pageInfo.endCursor;
    }
    expect(ids.length).toBe(await expectedCount('customers'));
    expect(new Set(ids).size).toBe(ids.length);

    const saved = await c.post('/api/segments', { description: 'leads in Canada' });
    const processed = await c.post(`/api/segments/${saved.json.id}/process`);
    expect(processed.status, processed.text).toBe(200);
    expect(processed.json.customerCount).toBe(await expectedCount('leads in Canada'));

    const user = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    const r = await generateForUser(t.app.deps, user);
    expect(r.failed).toBe(0);
    expect(r.success).toBeGreaterThan(0);
    const segments = await t.app.deps.prisma.dailyGeneratedSegment.findMany({ where: { userId }, include: { preset: true } });
    for (const s of segments) {
      expect(s.hasError).toBe(false);
      const connector = await connectorForUser(t.app.deps, user);
      const plan = s.hubspotQuery as any;
      expect(plan.crmType).toBe('other');
      expect(await connector.count(plan)).toBe(s.customerCount);
    }
  });
});

describe('re-uploading and undo', () => {
  it('replaces the contacts atomically, undo brings the previous ones back, and a first import undone disconnects', async () => {
    const { c } = await registerUser(t.url, { crmType: 'other' });
    const a = await importFile(c, contactsExportCsv(people.slice(0, 100)), 'a.csv');
    expect(a.state.status).toBe('active');
    const count = async () => (await c.post('/api/queries', { naturalLanguage: 'everyone' })).json.resultCount;
    expect(await count()).toBe(100);
    const b = await importFile(c, contactsExportCsv(people.slice(100, 130)), 'b.csv');
    expect(b.state.status).toBe('active');
    expect(await count()).toBe(30);
    const conn = (await c.gql('{ crmConnection { activeImport { fileName } previousImport { fileName } } }')).data.crmConnection;
    expect(conn).toEqual({ activeImport: { fileName: 'b.csv' }, previousImport: { fileName: 'a.csv' } });

    const undo = await c.gql('mutation { undoContactImport { undoneId crmConnection { connected tokenType activeImport { fileName } previousImport { fileName } } } }');
    expect(undo.errors).toBeUndefined();
    expect(undo.data.undoContactImport.crmConnection).toMatchObject({ connected: true, tokenType: 'file', activeImport: { fileName: 'a.csv' }, previousImport: null });
    expect(await count()).toBe(100);

    const again = await c.gql('mutation { undoContactImport { crmConnection { connected activeImport { fileName } } } }');
    expect(again.data.undoContactImport.crmConnection).toEqual({ connected: false, activeImport: null });
    const nothing = await c.gql('mutation { undoContactImport { crmConnection { connected } } }');
    expect(nothing.errors?.[0].message).toBe('There is no import to undo.');
    expect(await t.app.deps.prisma.importedContact.count({ where: { contactImport: { userId: (await whoami(c)) } } })).toBe(0);
  });

  it('a failed import changes nothing', async () => {
    const { c, userId } = await registerUser(t.url, { crmType: 'other' });
    await importFile(c, contactsExportCsv(people.slice(0, 50)), 'good.csv');
    // 12,000 good rows (more than a preview reads), then a quote that never closes: the import fails
    // after thousands of rows were written
    const broken = `${contactsExportCsv(generatePeople({ count: 12_000, seed: 9, now: NOW }))}9999999,"Never,closed,x@y.z\r\n`;
    const r = await importFile(c, broken, 'broken.csv');
    expect(r.preview.blocker).toBeNull();
    expect(r.state.status).toBe('failed');
    expect(r.state.error).toMatch(/quote/);
    const conn = (await c.gql('{ crmConnection { activeImport { fileName importedCount } previousImport { fileName } pendingImport { fileName status error } } }')).data.crmConnection;
    expect(conn).toMatchObject({ activeImport: { fileName: 'good.csv', importedCount: 50 }, previousImport: null, pendingImport: { fileName: 'broken.csv', status: 'failed' } });
    expect(await t.app.deps.prisma.importedContact.count({ where: { contactImport: { userId, status: 'failed' } } })).toBe(0);
    expect((await c.post('/api/queries', { naturalLanguage: 'everyone' })).json.resultCount).toBe(50);
  });
});

describe('one connection at a time', () => {
  it('an import replaces a HubSpot connection, and connecting HubSpot later replaces the imported contacts', async () => {
    const { c, userId } = await registerUser(t.url, { crmType: 'hubspot' });
    expect((await c.post('/api/crm/token', { token: DEFAULT_SANDBOX_CREDENTIALS.privateAppToken })).status).toBe(200);
    const r = await importFile(c, contactsExportCsv(people.slice(0, 20)), 'x.csv');
    expect(r.state.status).toBe('active');
    const conn = (await c.gql('{ crmConnection { connected tokenType crmLabel } }')).data.crmConnection;
    expect(conn).toEqual({ connected: true, tokenType: 'file', crmLabel: 'HubSpot' });
    expect((await c.post('/api/queries', { naturalLanguage: 'everyone' })).json.resultCount).toBe(20);
    expect((await c.post('/api/crm/token', { token: DEFAULT_SANDBOX_CREDENTIALS.privateAppToken })).status).toBe(200);
    expect((await c.gql('{ crmConnection { tokenType activeImport { id } } }')).data.crmConnection).toEqual({ tokenType: 'pat', activeImport: null });
    expect(await t.app.deps.prisma.contactImport.count({ where: { userId } })).toBe(0);
    expect((await c.post('/api/queries', { naturalLanguage: 'everyone' })).json.resultCount).toBe(50);
  });
});

describe('bad input gets a clear error and loses nothing', () => {
  let c: Client;
  beforeAll(async () => {
    ({ c } = await registerUser(t.url, { crmType: 'other' }));
  });

  it('reads Windows-1252 and UTF-16 exports correctly', async () => {
    const text = 'First Name;Last Name;E-mail;Country\r\nJürgen;Müller;jm@example.de;Österreich\r\nZoë;Brontë;zb@example.com;France\r\n';
    const latin = Buffer.from(text, 'latin1');
    let p = await preview(c, (await upload(c, latin, 'excel.csv')).json.importId);
    expect(p.encoding).toBe('Windows-1252 (Western European)');
    expect(p.delimiter).toBe('semicolon');
    expect(p.rows[0].customer).toMatchObject({ firstName: 'Jürgen', lastName: 'Müller', email: 'jm@example.de', country: 'Österreich' });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace(/;/g, '\t'), 'utf16le')]);
    p = await preview(c, (await upload(c, utf16, 'unicode.txt')).json.importId);
    expect(p.encoding).toBe('UTF-16 (little-endian)');
    expect(p.delimiter).toBe('tab');
    expect(p.rows[1].customer).toMatchObject({ firstName: 'Zoë', lastName: 'Brontë' });
  });

  it('says when a file that claims UTF-8 is not', async () => {
    const bad = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Email\r\nj\xfcrgen@example.de\r\n', 'latin1')]);
    const r = await upload(c, bad);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error: 'Wrong encoding' });
    expect(r.json.message).toMatch(/says it is UTF-8 .* byte 12 is not UTF-8/);
  });

  it('refuses what is not a spreadsheet, and old .xls workbooks, saying what to do', async () => {
    const pdf = await upload(c, Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n'), 'contacts.pdf');
    expect(pdf.status).toBe(400);
    expect(pdf.json).toMatchObject({ error: 'Not a spreadsheet', message: expect.stringMatching(/This file is a PDF document, not a spreadsheet/) });
    const binary = await upload(c, Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256)), 'x.bin');
    expect(binary.json.error).toBe('Not a spreadsheet');
    const xls = await upload(c, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'old.xls');
    expect(xls.json.message).toMatch(/Excel 97–2003 workbook \(\.xls\)/);
    const zip = await upload(c, Buffer.from('PK\u0003\u0004 not really a zip'), 'x.xlsx');
    expect(zip.status).toBe(201);
    const r = await c.gql('query($id: ID!) { contactImportPreview(id: $id) { blocker } }', { id: zip.json.importId });
    expect(r.errors?.[0].message).toMatch(/not an Excel workbook/);
    const empty = await upload(c, Buffer.alloc(0), 'empty.csv');
    expect(empty.json.error).toBe('Empty file');
    expect(await t.app.deps.prisma.contactImport.count({ where: { status: 'uploading' } })).toBe(0);
  });

  it('a file without a name or e-mail column cannot be imported, and says which column it needs', async () => {
    const up = await upload(c, 'Company,City\r\nAcme,Paris\r\n');
    const p = await preview(c, up.json.importId);
    expect(p.blocker).toMatch(/needs a column with the contacts' e-mail addresses or names/);
    const r = await c.gql(START, { input: { importId: up.json.importId, mapping: mappingInput(p) } });
    expect(r.errors?.[0]).toMatchObject({ message: p.blocker, extensions: { code: 'BAD_USER_INPUT' } });
    // choosing the column by hand makes it importable
    const fixed = await preview(c, up.json.importId, { columns: [{ index: 0, field: 'fullName' }, { index: 1, field: 'city' }] });
    expect(fixed.blocker).toBeNull();
  });

  it('reports bad dates, non-numeric amounts, duplicate ids and empty rows, and imports the rest', async () => {
    const file = [
      'Contact ID,Name,Email Address,Last Purchase Date,Last Order Amount,Lifetime Value,Mailing Country,Lead Status',
      '1,Ann Lee,ann@acme.com,31/12/2025,"$1,200.50",EUR 2.400,Germany,Customer',
      '2,Bob Stone,bob@acme.com,not a date,twelve,100,France,VIP',
      '1,Ann Again,ann2@acme.com,01/01/2026,5,5,Spain,Lead',
      ',,,,,,Italy,Lead',
      '4,=HYPERLINK("http://evil"),@sum@x.com,2026-02-03,-50,(75.25),USA,closed won',
    ].join('\r\n');
    const up = await upload(c, file, 'messy.csv');
    const p = await preview(c, up.json.importId);
    expect(p.mapping.dateOrder).toBe('DMY');
    expect(p.dateOrderDetected).toBe(true);
    expect(Object.fromEntries(p.problems.counts.map((x: any) => [x.kind, x.count]))).toEqual({ bad_date: 1, bad_amount: 1, duplicate_id: 1, missing_required: 1 });
    expect(p.problems.examples.map((x: any) => [x.kind, x.row])).toEqual([['bad_date', 3], ['bad_amount', 3], ['duplicate_id', 4], ['missing_required', 5]]);
    expect(p.stageValues.find((s: any) => s.value === 'VIP')).toEqual({ value: 'VIP', count: 1, stage: null, known: false });
    // the user says VIP means customer
    const r = await c.gql(START, { input: { importId: up.json.importId, mapping: mappingInput(p, (m) => m.stages.push({ value: 'VIP', stage: 'customer' })) } });
    expect(r.errors).toBeUndefined();
    const state = await waitForImport(c, up.json.importId);
    expect(state).toMatchObject({ status: 'active', rowCount: 5, importedCount: 3, skippedCount: 2, problemCount: 4 });
    const rows = await t.app.deps.prisma.importedContact.findMany({ where: { contactImport: { fileName: 'messy.csv' } }, orderBy: { id: 'asc' } });
    expect(rows.map((x) => [x.id, x.firstName, x.lastName, x.lastPurchaseAmount, x.lifetimeValue, x.lifecycleStage, x.lastPurchaseAt?.toISOString() ?? null])).toEqual([
      ['1', 'Ann', 'Lee', 1200.5, 2400, 'customer', '2025-12-31T00:00:00.000Z'],
      ['2', 'Bob', 'Stone', null, 100, 'customer', null],
      ['4', '=HYPERLINK("http://evil")', null, -50, -75.25, 'customer', '2026-02-03T00:00:00.000Z'],
    ]);
    // a formula-like cell is data: stored and exported as text, never evaluated
    const q = await c.post('/api/queries', { naturalLanguage: 'customers in the United States' });
    expect(q.json.resultCount).toBe(1);
  });

  it('reads an Excel workbook: cached results of formula cells, dates, numbers', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Contacts');
    ws.addRow(['First Name', 'Last Name', 'Email', 'Total Revenue', 'Last Purchase Date', 'Country']);
    ws.addRow(['Ann', 'Lee', 'ann@acme.com', { formula: 'B3*2', result: 2500 }, new Date(Date.UTC(2026, 0, 15)), 'Germany']);
    ws.addRow(['Bob', { formula: 'UPPER("stone")', result: 'STONE' }, 'bob@acme.com', 1250, { formula: 'DATE(2026,2,1)', result: 46054 }, 'France']);
    ws.addRow(['Cy', 'Doe', 'cy@acme.com', { formula: 'NA()', result: { error: '#N/A' } }, null, 'Spain']);
    ws.getColumn(5).numFmt = 'yyyy-mm-dd';
    const buffer = Buffer.from(await wb.xlsx.writeBuffer());
    const up = await upload(c, buffer, 'contacts.xlsx');
    expect(up.json.format).toBe('xlsx');
    const p = await preview(c, up.json.importId);
    expect(p.rows.map((r: any) => [r.customer.lastName, r.customer.lifetimeValue, r.customer.lastPurchaseDate])).toEqual([
      ['Lee', 2500, '2026-01-15'],
      ['STONE', 1250, '2026-02-01'],
      ['Doe', null, null],
    ]);
    expect(p.problems.counts).toEqual([{ kind: 'formula', count: 1, label: expect.stringMatching(/Formula cells/) }]);
  });

  it('refuses a file declared over 200 MB with 413 before reading it, and a streamed one as it passes the limit', async () => {
    const before = await t.app.deps.prisma.contactImport.count();
    const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const declared = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${t.url}/api/crm/imports?name=huge.csv`, {
        method: 'POST',
        headers: { origin: t.url, cookie, 'content-length': String(200 * 1024 * 1024 + 1) },
      }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d) => (body += d)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.flushHeaders(); // not a byte of the body is sent
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toEqual({ error: 'Payload too large', message: 'The file is larger than 200 MB' });
    // the service's own limit, as a streamed body passes it (the route's is the same 200 MB: api/http/body-limit.test.ts)
    const user = await t.app.deps.prisma.user.findFirstOrThrow({ where: { email: { not: '' } }, orderBy: { createdAt: 'desc' } });
    let produced = 0;
    async function* body() {
      yield Buffer.from('Email\n');
      for (; produced < 100; produced++) yield Buffer.alloc(64 * 1024, 0x61);
    }
    await expect(receiveUpload(t.app.deps, user, { fileName: 'big.csv', body: body(), maxBytes: 1024 * 1024 })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(produced).toBeLessThan(17); // stopped reading at the limit
    expect(await t.app.deps.prisma.contactImport.count()).toBe(before);
  });
});

describe('access', () => {
  it('imports are their owner\'s only; the upload needs a signed-in user', async () => {
    const { c } = await registerUser(t.url, { crmType: 'other' });
    const { c: other } = await registerUser(t.url, { crmType: 'other' });
    const up = await upload(c, 'Email\r\na@b.c\r\n');
    expect((await other.gql(IMPORT_STATE, { id: up.json.importId })).data.node).toBeNull();
    const r = await other.gql('query($id: ID!) { contactImportPreview(id: $id) { blocker } }', { id: up.json.importId });
    expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const anon = await upload(new Client(t.url), 'Email\r\na@b.c\r\n');
    expect(anon.status).toBe(401);
  });
});

async function whoami(c: Client): Promise<string> {
  return (await c.get('/api/auth/status')).json.user.id;
}
