import { describe, expect, it } from 'vitest';
import { generatePeople } from '../synthetic-people/index.js';
import { executeCoql, type CoqlDataset } from './coql/execute.js';
import { parseCoql } from './coql/parse.js';
import { isContactPerson, personIdOfRecord, toZohoDataset, type ZohoRecord } from './data.js';
import { ZohoApiError } from './errors.js';
import { MODULES, type ModuleName } from './fields.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const people = generatePeople({ count: 2500, seed: 21, now: NOW });
const ds = toZohoDataset(people, NOW);
const index = new Map<ModuleName, Map<string, ZohoRecord>>(MODULES.map((m) => [m, new Map(ds[m].map((r) => [r.id, r]))]));
const data: CoqlDataset = { rows: (m) => ds[m], byId: (m, id) => index.get(m)?.get(id) };

function run(q: string) {
  return executeCoql(data, parseCoql(q));
}
/** Every row of a query, paged as a client would (limit 2000, offset). */
function all(q: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let offset = 0; ; offset += 2000) {
    const r = run(`${q} limit ${offset}, 2000`);
    out.push(...r.data);
    if (!r.info.more_records) return out;
  }
}
function error(q: string): { code: string; details: Record<string, unknown> } {
  try {
    parseCoql(q);
  } catch (e) {
    expect(e).toBeInstanceOf(ZohoApiError);
    return (e as ZohoApiError).body as { code: string; details: Record<string, unknown> };
  }
  throw new Error(`expected ${q} to fail`);
}
const contacts = people.filter(isContactPerson);
const pid = (r: Record<string, unknown>) => personIdOfRecord(String(r.id));

describe('COQL grammar (node-sql-parser, confined to COQL)', () => {
  it('refuses what COQL does not have', () => {
    expect(error('select id from Contacts where (a = 1) and (b = 2) and (c = 3)').code).toBe('SYNTAX_ERROR');
    expect(error("select Email from Contacts where Email = 'a' and Last_Name = 'b' and First_Name = 'c'")).toEqual({ code: 'SYNTAX_ERROR', details: { clause: 'where' }, message: expect.any(String), status: 'error' });
    expect(error("select Email from Contacts where Email = 'a' and Last_Name = 'b' or First_Name = 'c'").code).toBe('SYNTAX_ERROR');
    expect(error('select Email from Contacts').details).toEqual({ clause: 'where' });
    expect(error("select Email from Contacts where not (Email = 'a')").code).toBe('SYNTAX_ERROR');
    expect(error('select * from Contacts where id is not null').code).toBe('INVALID_QUERY');
    expect(error('select Email from Contacts where id in (select Contact_Name from Deals where Amount > 1)').code).toBe('SYNTAX_ERROR');
    expect(error('select distinct Email from Contacts where id is not null').code).toBe('SYNTAX_ERROR');
    expect(error('select Email from Contacts, Leads where id is not null').code).toBe('SYNTAX_ERROR');
    expect(error('select Email from Contacts where id is not null; select id from Leads where id is not null').code).toBe('SYNTAX_ERROR');
    const parse = error('selec Email from Contacts where id is not null');
    expect(parse.code).toBe('SYNTAX_ERROR');
    expect(parse.details).toMatchObject({ line: 1, column: expect.any(Number), near: expect.any(String) });
  });

  it('checks modules, fields, operators and values by field type', () => {
    expect(error('select Email from People where id is not null')).toMatchObject({ code: 'INVALID_QUERY', details: { module: 'People' } });
    expect(error('select Emial from Contacts where id is not null')).toMatchObject({ code: 'INVALID_QUERY', message: 'column given seems to be invalid', details: { column_name: 'Emial' } });
    expect(error('select Email from Contacts where Amount > 5').details).toEqual({ column_name: 'Amount' });
    expect(error("select Email from Contacts where Lifecycle_Stage like 'Cust%'")).toMatchObject({ code: 'INVALID_QUERY', details: { operator: 'like' } });
    expect(error("select Email from Contacts where Email <> 'x'")).toMatchObject({ code: 'INVALID_QUERY', details: { operator: '<>' } });
    expect(error("select id from Deals where Amount > '5'")).toMatchObject({ code: 'INVALID_QUERY', message: 'value given seems to be invalid for the column' });
    expect(error("select id from Deals where Closing_Date > '2026-02-30'").code).toBe('INVALID_QUERY');
    expect(error("select id from Contacts where Created_Time > '2026-01-01'").code).toBe('INVALID_QUERY');
    expect(error("select id from Contacts where Created_Time > '2026-01-01T00:00:00'").code).toBe('INVALID_QUERY');
    expect(error("select id from Contacts where Email like '%a%b%'").code).toBe('INVALID_QUERY');
    expect(error("select id from Contacts where Account_Name.Account_Name.Website = 'x'").code).toBe('INVALID_QUERY');
    expect(parseCoql("select id from Deals where Contact_Name.Account_Name.Account_Name like 'A%'").where).toMatchObject({ ref: { modules: ['Deals', 'Contacts', 'Accounts'] } });
  });

  it('enforces the limits: 2,000 rows a call, 100,000 through offsets, 25 criteria, 50 values in IN', () => {
    expect(error('select id from Contacts where id is not null limit 2001')).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { by: 'limit', limit: 2000 } });
    expect(error('select id from Contacts where id is not null limit 98001, 2000')).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { by: 'offset', limit: 100000 } });
    expect(parseCoql('select id from Contacts where id is not null limit 98000, 2000').offset).toBe(98000);
    expect(parseCoql('select id from Contacts where id is not null limit 2000 offset 10').offset).toBe(10);
    const in51 = Array.from({ length: 51 }, (_, i) => `'v${i}'`).join(',');
    expect(error(`select id from Contacts where Email in (${in51})`)).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { by: 'in' } });
    let where = "Email = 'x0'";
    for (let i = 1; i < 26; i++) where = `(${where}) or Email = 'x${i}'`;
    expect(error(`select id from Contacts where ${where}`)).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { by: 'criteria', limit: 25 } });
    expect(error('select id from Contacts where id is not null order by Email, Email').code).toBe('DUPLICATE_DATA');
  });

  it('charges credits by LIMIT (1 up to 200, 2 up to 1,000, 3 up to 2,000)', () => {
    expect(parseCoql('select id from Contacts where id is not null').credits).toBe(1);
    expect(parseCoql('select id from Contacts where id is not null limit 1000').credits).toBe(2);
    expect(parseCoql('select id from Contacts where id is not null limit 1001').credits).toBe(3);
  });
});

describe('COQL semantics over the people', () => {
  it('compares text case-insensitively, like as starts/ends/contains, nulls never equal', () => {
    const got = all("select Email from Contacts where (Mailing_Country = 'germany' and Email like '%.DE')").map(pid);
    const want = contacts.filter((p) => p.country === 'Germany' && p.email?.toLowerCase().endsWith('.de')).map((p) => p.id);
    expect(got).toEqual(want);
    expect(want.length).toBeGreaterThan(0);
    const notUs = all("select id from Contacts where Mailing_Country != 'United States'").map(pid);
    expect(notUs).toEqual(contacts.filter((p) => p.country !== null && p.country !== 'United States').map((p) => p.id));
    const orNull = all("select id from Contacts where (Mailing_Country != 'United States' or Mailing_Country is null)").map(pid);
    expect(orNull).toEqual(contacts.filter((p) => p.country !== 'United States').map((p) => p.id));
  });

  it('joins through lookups and compares date-times to the second with their offset', () => {
    const cutoff = Date.parse('2025-03-01T12:00:00Z');
    const got = all("select Account_Name.Account_Name from Contacts where (Account_Name.Account_Name like 'a%' and Created_Time >= '2025-03-01T17:30:00+05:30')");
    const want = contacts.filter((p) => p.company?.toLowerCase().startsWith('a') && Math.floor(p.createdAt / 1000) * 1000 >= cutoff);
    expect(got.map(pid)).toEqual(want.map((p) => p.id));
    expect(got.map((r) => r['Account_Name.Account_Name'])).toEqual(want.map((p) => p.company));
  });

  it('sums won deals per contact with GROUP BY, as the lifetime value', () => {
    const rows = all("select Contact_Name, SUM(Amount), MAX(Closing_Date), COUNT(id) from Deals where Stage = 'Closed Won' group by Contact_Name");
    const buyers = people.filter((p) => p.purchases.length > 0);
    expect(rows.length).toBe(buyers.length);
    const byPerson = new Map(rows.map((r) => [personIdOfRecord((r.Contact_Name as { id: string }).id)!, r]));
    for (const p of buyers) {
      const r = byPerson.get(p.id)!;
      expect(Math.round(Number(r['SUM(Amount)']) * 100)).toBe(Math.round(p.lifetimeValue! * 100));
      expect(r['MAX(Closing_Date)']).toBe(new Date(p.lastPurchaseAt!).toISOString().slice(0, 10));
      expect(r['COUNT(id)']).toBe(p.purchases.length);
    }
    expect(run("select COUNT(id) from Contacts where Lifecycle_Stage in ('Customer', 'Evangelist')").data).toEqual([
      { 'COUNT(id)': contacts.filter((p) => p.stage === 'customer' || p.stage === 'evangelist').length },
    ]);
  });

  it('orders by id by default, nulls first ascending and last descending, ties by id', () => {
    const ids = all('select id from Leads where id is not null').map((r) => String(r.id));
    expect(ids).toEqual([...ids].sort());
    const asc = all('select Last_Name from Leads where id is not null order by Last_Name asc');
    const nulls = asc.filter((r) => r.Last_Name === null).length;
    expect(nulls).toBeGreaterThan(0);
    expect(asc.slice(0, nulls).every((r) => r.Last_Name === null)).toBe(true);
    const names = asc.slice(nulls).map((r) => String(r.Last_Name).toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const desc = all('select Last_Name from Leads where id is not null order by Last_Name desc');
    expect(desc.slice(-nulls).every((r) => r.Last_Name === null)).toBe(true);
  });

  it('pages every row once, and says when there are more', () => {
    const first = run('select id from Contacts where id is not null limit 0, 400');
    const second = run('select id from Contacts where id is not null limit 400 offset 400');
    expect(first.info).toEqual({ count: 400, more_records: true });
    expect(new Set([...first.data, ...second.data].map((r) => r.id)).size).toBe(800);
    expect(contacts.length).toBeGreaterThan(800);
    const total = contacts.length;
    const last = run(`select id from Contacts where id is not null limit ${total - 5}, 200`);
    expect(last.info).toEqual({ count: 5, more_records: false });
  });
});
