import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEY_PREFIXES, makeId } from '../salesforce/model/ids.js';
import type { Row } from './data.js';
import { SalesforceApiError } from './errors.js';
import { buildSchema, Schema } from './schema.js';
import { compileSoql } from './soql/compile.js';
import { dateLiteralRange, ymdString, type DateContext } from '../salesforce/model/date-literals.js';
import { executeQuery, OrgStore, renderRecord } from './soql/run.js';

const T = (iso: string) => Date.parse(iso);
const schema = new Schema(buildSchema());
const NOW = T('2026-06-17T12:00:00Z'); // a Wednesday
const UTC_US: DateContext = { nowMs: NOW, timeZone: 'GMT', weekStart: 0, fiscalYearStartMonth: 1 };

const acc = (n: number, name: string): Row => ({ Id: makeId(KEY_PREFIXES.Account, n), IsDeleted: false, Name: name, CreatedDate: T('2020-01-01T00:00:00Z') });
const A1 = acc(1, 'Acme Corporation');
const A2 = acc(2, 'Globex Ltd');
const cid = (n: number) => makeId(KEY_PREFIXES.Contact, n);
const contact = (n: number, p: Partial<Row>): Row => ({
  Id: cid(n), IsDeleted: false, AccountId: null, FirstName: null, LastName: 'X', Name: 'X', Email: null, MailingCity: null, MailingState: null,
  MailingCountry: null, Lifecycle_Stage__c: null, Lifetime_Value__c: null, Last_Purchase_Date__c: null, Last_Purchase_Amount__c: null,
  CreatedDate: T('2024-01-01T00:00:00Z') + n * 1000, ...p,
});

// A tiny hand-made org: every expectation below can be checked by reading this table.
const CONTACTS: Row[] = [
  contact(1, { AccountId: A1.Id, FirstName: 'Alice', LastName: 'Smith', Email: 'alice@acme.com', MailingCountry: 'United States', Lifecycle_Stage__c: 'Customer', Lifetime_Value__c: 300, CreatedDate: T('2026-06-17T03:00:00Z') }),
  contact(2, { AccountId: A1.Id, FirstName: 'bob', LastName: 'SMITH', Email: 'Bob@Acme.com', MailingCountry: 'united states', Lifecycle_Stage__c: 'Lead', Lifetime_Value__c: 150, CreatedDate: T('2026-06-14T23:30:00Z') }),
  contact(3, { AccountId: A2.Id, FirstName: 'Carla', LastName: 'Jones', Email: 'carla_x@globex.co.uk', MailingCountry: 'United Kingdom', Lifecycle_Stage__c: 'Opportunity', Lifetime_Value__c: 1200, CreatedDate: T('2026-05-31T23:59:59Z') }),
  contact(4, { FirstName: 'Dieter', Email: 'dieter@gmail.com', MailingCountry: 'Germany', Lifecycle_Stage__c: 'Subscriber', CreatedDate: T('2025-12-31T10:00:00Z') }),
  contact(5, {}),
  contact(6, { AccountId: A2.Id, FirstName: 'Émile', LastName: 'Zola', Email: 'emile%@acmecorp.fr', MailingCountry: 'France', Lifecycle_Stage__c: 'Evangelist', Lifetime_Value__c: 99.99, CreatedDate: T('2026-06-15T00:00:00Z') }),
];
const opp = (n: number, p: Partial<Row>): Row => ({ Id: makeId(KEY_PREFIXES.Opportunity, n), IsDeleted: false, Name: `Deal ${n}`, IsClosed: true, IsWon: true, StageName: 'Closed Won', AccountId: null, Amount: null, CloseDate: '2026-01-01', ...p });
const OPPS: Row[] = [
  opp(1, { AccountId: A1.Id, Amount: 100, CloseDate: '2026-06-16' }),
  opp(2, { AccountId: A1.Id, Amount: 200, CloseDate: '2025-03-01' }),
  opp(3, { AccountId: A1.Id, Amount: 150, CloseDate: '2026-05-20' }),
  opp(4, { AccountId: A2.Id, Amount: 1200, CloseDate: '2024-12-31' }),
  opp(5, { AccountId: A2.Id, Amount: 5000, IsWon: false, StageName: 'Closed Lost', CloseDate: '2026-06-01' }),
  opp(6, { AccountId: A2.Id, Amount: 99.99, CloseDate: '2026-06-17' }),
];
const role = (n: number, o: number, c: number): Row => ({ Id: makeId(KEY_PREFIXES.OpportunityContactRole, n), IsDeleted: false, OpportunityId: OPPS[o - 1].Id, ContactId: cid(c), IsPrimary: true, Role: 'Decision Maker' });
const ROLES = [role(1, 1, 1), role(2, 2, 1), role(3, 3, 2), role(4, 4, 3), role(5, 5, 3), role(6, 6, 6), role(7, 5, 6)];
const LEADS: Row[] = [
  { Id: makeId(KEY_PREFIXES.Lead, 1), IsDeleted: false, LastName: 'Ng', FirstName: 'Li', Company: '[not provided]', Status: 'Nurturing', IsConverted: false, Email: 'li@ng.sg', CreatedDate: T('2026-06-10T00:00:00Z') },
  { Id: makeId(KEY_PREFIXES.Lead, 2), IsDeleted: false, LastName: 'Smith', FirstName: 'Alice', Company: 'Acme Corporation', Status: 'Closed - Converted', IsConverted: true, ConvertedContactId: cid(1), Email: 'alice@acme.com', CreatedDate: T('2026-06-01T00:00:00Z') },
];
const store = new OrgStore(schema, { Contact: CONTACTS, Account: [A1, A2], Opportunity: OPPS, OpportunityContactRole: ROLES, Lead: LEADS });

function run(soql: string, dates: DateContext = UTC_US) {
  return executeQuery(store, compileSoql(soql, { schema, dates }));
}
/** contact numbers a query selects, in its order */
function nums(where: string, tail = '', dates?: DateContext): number[] {
  const out = run(`SELECT Id FROM Contact${where ? ` WHERE ${where}` : ''} ${tail}`, dates);
  if (out.kind !== 'records') throw new Error(out.kind);
  return out.rows.map((r) => CONTACTS.indexOf(r) + 1);
}
function rejects(soql: string, errorCode: string, reason?: RegExp): void {
  try {
    compileSoql(soql, { schema, dates: UTC_US });
  } catch (err) {
    expect(err).toBeInstanceOf(SalesforceApiError);
    const e = err as SalesforceApiError;
    expect(e.errorCode).toBe(errorCode);
    if (reason) expect((e.body as { message: string }[])[0].message).toMatch(reason);
    return;
  }
  throw new Error(`expected ${errorCode} for: ${soql}`);
}

describe('comparisons', () => {
  it('compares text case-insensitively', () => {
    expect(nums("MailingCountry = 'UNITED STATES'")).toEqual([1, 2]);
    expect(nums("MailingCountry IN ('germany', 'FRANCE')")).toEqual([4, 6]);
    expect(nums("LastName = 'smith'")).toEqual([1, 2]);
  });

  it('treats null as a value: positive tests are false, != / NOT IN / NOT are their complements', () => {
    expect(nums("MailingCountry != 'France'")).toEqual([1, 2, 3, 4, 5]);
    expect(nums("NOT MailingCountry = 'France'")).toEqual([1, 2, 3, 4, 5]);
    expect(nums("MailingCountry NOT IN ('France', 'Germany')")).toEqual([1, 2, 3, 5]);
    expect(nums('Lifetime_Value__c < 200')).toEqual([2, 6]);
    expect(nums('NOT Lifetime_Value__c >= 200')).toEqual([2, 4, 5, 6]);
    expect(nums('Email = null')).toEqual([5]);
    expect(nums('Email != null')).toEqual([1, 2, 3, 4, 6]);
  });

  it('LIKE: % and _ wildcards, \\% and \\_ literal, case-insensitive, false without a value', () => {
    expect(nums("Email LIKE '%@ACME.COM'")).toEqual([1, 2]);
    expect(nums("Email LIKE 'carla_x@%'")).toEqual([3]);
    expect(nums("Email LIKE 'carla\\_x@%'")).toEqual([3]);
    expect(nums("Email LIKE '_ob@%'")).toEqual([2]);
    expect(nums("Email LIKE '%\\%@%'")).toEqual([6]);
    expect(nums("NOT Email LIKE '%acme%'")).toEqual([3, 4, 5]);
  });

  it('follows relationship paths; a missing parent has no value', () => {
    expect(nums("Account.Name = 'acme corporation'")).toEqual([1, 2]);
    expect(nums("Account.Name != 'Acme Corporation'")).toEqual([3, 4, 5, 6]);
    expect(nums('Account.Name = null')).toEqual([4, 5]);
  });

  it('accepts 15- and 18-character ids alike and rejects a malformed one', () => {
    const id18 = cid(3);
    expect(nums(`Id = '${id18.slice(0, 15)}'`)).toEqual([3]);
    expect(nums(`Id IN ('${id18.toLowerCase()}', '${cid(4)}')`)).toEqual([3, 4]);
    rejects("SELECT Id FROM Contact WHERE Id = '003abc'", 'INVALID_QUERY_FILTER_OPERATOR', /invalid ID field: 003abc/);
  });
});

describe('logic and syntax', () => {
  it('needs parentheses to mix AND and OR, and honours them', () => {
    rejects("SELECT Id FROM Contact WHERE MailingCountry = 'France' OR MailingCountry = 'Germany' AND Email = null", 'MALFORMED_QUERY', /AND and OR/);
    expect(nums("(MailingCountry = 'France' OR MailingCountry = 'Germany') AND Email LIKE '%gmail%'")).toEqual([4]);
    expect(nums("MailingCountry = 'France' OR (MailingCountry = 'Germany' AND Email = null)")).toEqual([6]);
    expect(nums("NOT (MailingCountry = 'France' OR MailingCountry = 'Germany') AND Email != null")).toEqual([1, 2, 3]);
    expect(nums("((NOT (Lifetime_Value__c > 100)))")).toEqual([4, 5, 6]);
  });

  it('reports syntax errors, unknown objects, fields and relationships as Salesforce does', () => {
    rejects('SELECT Id FROM Contact WHERE', 'MALFORMED_QUERY', /ERROR at Row:1:Column:\d+\nunexpected token/);
    rejects('SELECT Id FROM Contct', 'INVALID_TYPE', /sObject type 'Contct' is not supported/);
    rejects('SELECT Id, Emial FROM Contact', 'INVALID_FIELD', /No such column 'Emial' on entity 'Contact'/);
    rejects('SELECT Acount.Name FROM Contact', 'INVALID_FIELD', /Didn't understand relationship 'Acount'/);
    rejects('SELECT Id, (SELECT Id FROM Opportunities) FROM Contact', 'INVALID_TYPE', /Didn't understand relationship 'Opportunities'/);
    rejects('SELECT Id, Id FROM Contact', 'MALFORMED_QUERY', /duplicate field selected: Id/);
    rejects('SELECT Id FROM Contact WHERE MailingAddress = null', 'INVALID_FIELD', /can not be filtered/);
  });

  it('checks literal types against field types', () => {
    rejects("SELECT Id FROM Contact WHERE CreatedDate > '2024-01-01T00:00:00Z'", 'INVALID_QUERY_FILTER_OPERATOR', /must be of type dateTime and should not be enclosed in quotes/);
    rejects('SELECT Id FROM Contact WHERE CreatedDate > 2024-01-01', 'INVALID_QUERY_FILTER_OPERATOR', /dateTime/);
    rejects('SELECT Id FROM Opportunity WHERE CloseDate > 2024-01-01T00:00:00Z', 'INVALID_QUERY_FILTER_OPERATOR', /must be of type date/);
    rejects('SELECT Id FROM Contact WHERE Email = 5', 'INVALID_QUERY_FILTER_OPERATOR', /must be of type string and should be enclosed in quotes/);
    rejects("SELECT Id FROM Contact WHERE Lifetime_Value__c > '5'", 'INVALID_QUERY_FILTER_OPERATOR', /currency/);
    rejects('SELECT Id FROM Opportunity WHERE IsWon > true', 'INVALID_QUERY_FILTER_OPERATOR', /invalid operator on boolean field/);
    rejects("SELECT Id FROM Contact WHERE Lifetime_Value__c LIKE '5%'", 'INVALID_QUERY_FILTER_OPERATOR', /invalid operator/);
    rejects('SELECT Id FROM Contact WHERE Lifetime_Value__c > USD100', 'MALFORMED_QUERY', /multiple currencies/);
  });
});

describe('date literals', () => {
  const range = (lit: string, n: number | null = null, ctx: DateContext = UTC_US) => {
    const r = dateLiteralRange(lit, n, ctx)!;
    return `${ymdString(r.from)}..${ymdString(r.to)}`;
  };

  it('are ranges of days around today (2026-06-17, a Wednesday; en_US weeks start on Sunday)', () => {
    expect(range('TODAY')).toBe('2026-06-17..2026-06-18');
    expect(range('YESTERDAY')).toBe('2026-06-16..2026-06-17');
    expect(range('THIS_WEEK')).toBe('2026-06-14..2026-06-21');
    expect(range('LAST_WEEK')).toBe('2026-06-07..2026-06-14');
    expect(range('THIS_MONTH')).toBe('2026-06-01..2026-07-01');
    expect(range('LAST_MONTH')).toBe('2026-05-01..2026-06-01');
    expect(range('THIS_QUARTER')).toBe('2026-04-01..2026-07-01');
    expect(range('LAST_QUARTER')).toBe('2026-01-01..2026-04-01');
    expect(range('THIS_YEAR')).toBe('2026-01-01..2027-01-01');
    expect(range('LAST_90_DAYS')).toBe('2026-03-19..2026-06-18');
    expect(range('NEXT_90_DAYS')).toBe('2026-06-18..2026-09-16');
    expect(range('LAST_N_DAYS', 1)).toBe('2026-06-16..2026-06-18');
    expect(range('LAST_N_DAYS', 30)).toBe('2026-05-18..2026-06-18');
    expect(range('NEXT_N_DAYS', 7)).toBe('2026-06-18..2026-06-25');
    expect(range('N_DAYS_AGO', 3)).toBe('2026-06-14..2026-06-15');
    expect(range('LAST_N_WEEKS', 2)).toBe('2026-05-31..2026-06-14');
    expect(range('N_WEEKS_AGO', 1)).toBe('2026-06-07..2026-06-14');
    expect(range('LAST_N_MONTHS', 6)).toBe('2025-12-01..2026-06-01');
    expect(range('N_MONTHS_AGO', 1)).toBe('2026-05-01..2026-06-01');
    expect(range('LAST_N_QUARTERS', 2)).toBe('2025-10-01..2026-04-01');
    expect(range('LAST_N_YEARS', 2)).toBe('2024-01-01..2026-01-01');
    expect(range('N_YEARS_AGO', 1)).toBe('2025-01-01..2026-01-01');
  });

  it('start weeks on the locale\'s first day and fiscal periods at the fiscal year start', () => {
    expect(range('THIS_WEEK', null, { ...UTC_US, weekStart: 1 })).toBe('2026-06-15..2026-06-22');
    const fyFeb = { ...UTC_US, fiscalYearStartMonth: 2 };
    expect(range('THIS_FISCAL_YEAR', null, fyFeb)).toBe('2026-02-01..2027-02-01');
    expect(range('THIS_FISCAL_QUARTER', null, fyFeb)).toBe('2026-05-01..2026-08-01');
    expect(range('LAST_N_FISCAL_QUARTERS', 1, fyFeb)).toBe('2026-02-01..2026-05-01');
  });

  it('take "today" in the running user\'s time zone', () => {
    const la = { ...UTC_US, timeZone: 'America/Los_Angeles', nowMs: T('2026-06-17T05:00:00Z') }; // June 16, 22:00 in LA
    expect(range('TODAY', null, la)).toBe('2026-06-16..2026-06-17');
    // on a datetime field a day starts at local midnight (07:00 UTC in summer in Los Angeles)
    const laNoon = { ...la, nowMs: NOW }; // June 17, 05:00 in LA
    expect(nums('CreatedDate = LAST_N_DAYS:2')).toEqual([1, 6]);
    expect(nums('CreatedDate = LAST_N_DAYS:2', '', laNoon)).toEqual([1]);
    expect(nums('CreatedDate = N_DAYS_AGO:3')).toEqual([2]);
    expect(nums('CreatedDate = N_DAYS_AGO:3', '', laNoon)).toEqual([2, 6]);
    expect(nums('CreatedDate > 2026-06-17T02:59:59Z')).toEqual([1]);
    expect(nums('CreatedDate >= 2026-06-16T20:00:00-07:00')).toEqual([1]);
  });

  it('compare as ranges: = inside, < before, <= before the end, > after the end, >= from the start', () => {
    expect(nums('CreatedDate = TODAY')).toEqual([1]);
    expect(nums('CreatedDate = THIS_WEEK')).toEqual([1, 2, 6]);
    expect(nums('CreatedDate < THIS_WEEK')).toEqual([3, 4, 5]);
    expect(nums('CreatedDate <= LAST_WEEK')).toEqual([3, 4, 5]);
    expect(nums('CreatedDate > LAST_MONTH')).toEqual([1, 2, 6]);
    expect(nums('CreatedDate >= LAST_MONTH')).toEqual([1, 2, 3, 6]);
    expect(nums('CreatedDate != THIS_YEAR')).toEqual([4, 5]);
    expect(nums('CreatedDate = LAST_N_DAYS:2')).toEqual([1, 6]);
    const closed = (where: string) => {
      const out = run(`SELECT Id FROM Opportunity WHERE ${where}`);
      return out.kind === 'records' ? out.rows.map((r) => OPPS.indexOf(r) + 1) : [];
    };
    expect(closed('CloseDate = LAST_N_DAYS:30')).toEqual([1, 3, 5, 6]);
    expect(closed('CloseDate < LAST_N_DAYS:30')).toEqual([2, 4]);
    expect(closed('CloseDate >= 2026-06-16')).toEqual([1, 6]);
    expect(closed('CloseDate = 2026-06-16')).toEqual([1]);
  });
});

describe('semi-joins and anti-joins', () => {
  it('restrict by related records', () => {
    expect(nums('Id IN (SELECT ContactId FROM OpportunityContactRole WHERE Opportunity.IsWon = true)')).toEqual([1, 2, 3, 6]);
    expect(nums('Id NOT IN (SELECT ContactId FROM OpportunityContactRole WHERE Opportunity.IsWon = true)')).toEqual([4, 5]);
    expect(nums('Id IN (SELECT ContactId FROM OpportunityContactRole WHERE Opportunity.IsWon = true AND Opportunity.CloseDate = LAST_N_DAYS:30)')).toEqual([1, 2, 6]);
    expect(nums("AccountId IN (SELECT AccountId FROM Opportunity WHERE Amount > 1000) AND MailingCountry != 'France'")).toEqual([3]);
    expect(
      nums('Id IN (SELECT ContactId FROM OpportunityContactRole WHERE Opportunity.IsWon = true) AND Id NOT IN (SELECT ContactId FROM OpportunityContactRole WHERE Opportunity.IsWon = true AND Opportunity.CloseDate >= 2026-01-01)'),
    ).toEqual([3]);
  });

  it('keep Salesforce\'s restrictions', () => {
    const semi = 'Id IN (SELECT ContactId FROM OpportunityContactRole)';
    rejects(`SELECT Id FROM Contact WHERE ${semi} OR Email = null`, 'MALFORMED_QUERY', /not allowed with the 'OR' operator/);
    rejects(`SELECT Id FROM Contact WHERE NOT (${semi})`, 'MALFORMED_QUERY', /'NOT' operator/);
    rejects(`SELECT Id FROM Contact WHERE ${semi} AND ${semi} AND ${semi}`, 'MALFORMED_QUERY', /two semi join/);
    rejects('SELECT Id FROM Contact WHERE Id IN (SELECT Id FROM Contact)', 'MALFORMED_QUERY', /same object type/);
    rejects('SELECT Id FROM Contact WHERE Id IN (SELECT OpportunityId FROM OpportunityContactRole)', 'MALFORMED_QUERY', /should point to the same object type/);
    rejects('SELECT Id FROM Contact WHERE Id IN (SELECT Contact.Id FROM OpportunityContactRole)', 'MALFORMED_QUERY', /exactly one field/);
    rejects('SELECT Id FROM Contact WHERE Email IN (SELECT ContactId FROM OpportunityContactRole)', 'MALFORMED_QUERY', /left operand/);
    rejects('SELECT Id FROM Contact WHERE Id IN (SELECT ContactId FROM OpportunityContactRole LIMIT 5)', 'MALFORMED_QUERY', /LIMIT/);
    rejects(
      'SELECT Id FROM Contact WHERE Id IN (SELECT ContactId FROM OpportunityContactRole WHERE OpportunityId IN (SELECT Id FROM Opportunity))',
      'MALFORMED_QUERY',
      /Nesting/,
    );
  });
});

describe('select, order, count, aggregates', () => {
  it('orders nulls first by default in both directions, NULLS LAST on request, text case-insensitively, ties by Id', () => {
    expect(nums('', 'ORDER BY Lifetime_Value__c')).toEqual([4, 5, 6, 2, 1, 3]);
    expect(nums('', 'ORDER BY Lifetime_Value__c DESC')).toEqual([4, 5, 3, 1, 2, 6]);
    expect(nums('', 'ORDER BY Lifetime_Value__c DESC NULLS LAST')).toEqual([3, 1, 2, 6, 4, 5]);
    expect(nums('Email != null', 'ORDER BY LastName, FirstName NULLS LAST')).toEqual([3, 1, 2, 4, 6]);
    expect(nums('', 'ORDER BY Account.Name DESC NULLS LAST, Id DESC')).toEqual([6, 3, 2, 1, 5, 4]);
    expect(nums('', 'ORDER BY Id LIMIT 2 OFFSET 3')).toEqual([4, 5]);
    rejects('SELECT Id FROM Contact OFFSET 2001', 'NUMBER_OUTSIDE_VALID_RANGE', /Maximum SOQL offset allowed is 2000/);
    rejects('SELECT Id FROM Contact ORDER BY MailingAddress', 'INVALID_FIELD', /can not be sorted/);
  });

  it('COUNT() counts, capped by LIMIT', () => {
    expect(run("SELECT COUNT() FROM Contact WHERE MailingCountry != 'France'")).toEqual({ kind: 'count', totalSize: 5 });
    expect(run('SELECT COUNT() FROM Contact LIMIT 3')).toEqual({ kind: 'count', totalSize: 3 });
    expect(run('SELECT COUNT() FROM Lead WHERE IsConverted = false')).toEqual({ kind: 'count', totalSize: 1 });
    rejects('SELECT COUNT() FROM Contact ORDER BY Name', 'MALFORMED_QUERY');
    rejects('SELECT COUNT(), Id FROM Contact', 'MALFORMED_QUERY', /COUNT\(\) must be the only element/);
  });

  it('groups and aggregates (sum of won deals per contact, HAVING, ORDER BY an aggregate)', () => {
    const out = run(
      'SELECT ContactId, SUM(Opportunity.Amount) total, MAX(Opportunity.CloseDate) lastClose, COUNT(Id) FROM OpportunityContactRole WHERE Opportunity.IsWon = true GROUP BY ContactId HAVING SUM(Opportunity.Amount) > 100 ORDER BY SUM(Opportunity.Amount) DESC',
    );
    expect(out).toEqual({
      kind: 'aggregate',
      records: [
        { attributes: { type: 'AggregateResult' }, ContactId: cid(3), total: 1200, lastClose: '2024-12-31', expr0: 1 },
        { attributes: { type: 'AggregateResult' }, ContactId: cid(1), total: 300, lastClose: '2026-06-16', expr0: 2 },
        { attributes: { type: 'AggregateResult' }, ContactId: cid(2), total: 150, lastClose: '2026-05-20', expr0: 1 },
      ],
    });
    const total = run('SELECT SUM(Amount) FROM Opportunity WHERE IsWon = true');
    expect(total).toEqual({ kind: 'aggregate', records: [{ attributes: { type: 'AggregateResult' }, expr0: 1749.99 }] });
    rejects('SELECT ContactId, Role FROM OpportunityContactRole GROUP BY ContactId', 'MALFORMED_QUERY', /Field must be grouped or aggregated: Role/);
    rejects('SELECT SUM(Email) FROM Contact', 'MALFORMED_QUERY', /does not support aggregate operator SUM/);
    rejects("SELECT Id FROM Contact WHERE SUM(Lifetime_Value__c) > 5", 'MALFORMED_QUERY');
  });

  it('renders records as the REST API does: attributes, nested parents (null when missing), child subqueries (null when empty)', () => {
    const q = compileSoql(
      "SELECT Id, Name, Account.Name, CreatedDate, (SELECT Opportunity.Amount, Opportunity.CloseDate FROM OpportunityContactRoles WHERE Opportunity.IsWon = true ORDER BY Opportunity.CloseDate DESC) FROM Contact WHERE Id IN ('" +
        cid(1) + "', '" + cid(4) + "')",
      { schema, dates: UTC_US },
    );
    const out = executeQuery(store, q);
    if (out.kind !== 'records') throw new Error('records expected');
    const [alice, dieter] = out.rows.map((r) => renderRecord(store, q, r, '62.0'));
    expect(alice).toEqual({
      attributes: { type: 'Contact', url: `/services/data/v62.0/sobjects/Contact/${cid(1)}` },
      Id: cid(1),
      Name: 'X',
      Account: { attributes: { type: 'Account', url: `/services/data/v62.0/sobjects/Account/${A1.Id}` }, Name: 'Acme Corporation' },
      CreatedDate: '2026-06-17T03:00:00.000+0000',
      OpportunityContactRoles: {
        totalSize: 2,
        done: true,
        records: [OPPS[0], OPPS[1]].map((o, k) => ({
          attributes: { type: 'OpportunityContactRole', url: `/services/data/v62.0/sobjects/OpportunityContactRole/${ROLES[k].Id}` },
          Opportunity: { attributes: { type: 'Opportunity', url: `/services/data/v62.0/sobjects/Opportunity/${o.Id}` }, Amount: o.Amount, CloseDate: o.CloseDate },
        })),
      },
    });
    expect(dieter.Account).toBeNull();
    expect(dieter.OpportunityContactRoles).toBeNull();
  });
});

// --- a property test: random WHERE clauses against an independent reference ---------------------

type Cond = { field: 'MailingCountry' | 'Email' | 'Lifetime_Value__c' | 'CreatedDate' | 'Account.Name'; op: string; value: string | number | null };
type Tree = Cond | { and: Tree[] } | { or: Tree[] } | { not: Tree };

const valueOf = (c: Row, field: Cond['field']) =>
  field === 'Account.Name' ? (c.AccountId ? [A1, A2].find((a) => a.Id === c.AccountId)!.Name : null) : (c[field] ?? null);

function refEval(t: Tree, c: Row): boolean {
  if ('and' in t) return t.and.every((x) => refEval(x, c));
  if ('or' in t) return t.or.some((x) => refEval(x, c));
  if ('not' in t) return !refEval(t.not, c);
  const v = valueOf(c, t.field);
  if (t.value === null) return t.op === '=' ? v === null : v !== null;
  if (v === null) return t.op === '!=';
  const a = typeof v === 'string' ? v.toLowerCase() : v;
  const b = t.field === 'CreatedDate' ? T(String(t.value)) : typeof t.value === 'string' ? t.value.toLowerCase() : t.value;
  switch (t.op) {
    case '=': return a === b;
    case '!=': return a !== b;
    case '<': return a < b;
    case '>=': return a >= b;
    case 'LIKE': return String(a).includes(String(t.value).toLowerCase().slice(1, -1));
    default: throw new Error(t.op);
  }
}

/** The longest chain of NOTs where each NOT's operand begins with the next NOT. */
function chainedNots(t: Tree): number {
  const first = (x: Tree): Tree => ('and' in x ? first(x.and[0]) : 'or' in x ? first(x.or[0]) : x);
  if ('not' in t) {
    const inner = first(t.not);
    const below = 'not' in inner ? chainedNots(inner) : 0;
    return Math.max(1 + below, chainedNots(t.not));
  }
  if ('and' in t) return Math.max(0, ...t.and.map(chainedNots));
  if ('or' in t) return Math.max(0, ...t.or.map(chainedNots));
  return 0;
}

function toSoql(t: Tree): string {
  if ('and' in t) return `(${t.and.map(toSoql).join(' AND ')})`;
  if ('or' in t) return `(${t.or.map(toSoql).join(' OR ')})`;
  if ('not' in t) return `(NOT ${toSoql(t.not)})`;
  const lit = t.value === null ? 'null' : typeof t.value === 'number' ? String(t.value) : t.field === 'CreatedDate' ? t.value : `'${t.value}'`;
  return `${t.field} ${t.op} ${lit}`;
}

const condArb: fc.Arbitrary<Cond> = fc.oneof(
  fc.record({ field: fc.constantFrom('MailingCountry' as const), op: fc.constantFrom('=', '!='), value: fc.constantFrom('France', 'united states', 'GERMANY', null) }),
  fc.record({ field: fc.constantFrom('Email' as const), op: fc.constantFrom('LIKE'), value: fc.constantFrom('%acme%', '%@gmail.com%', '%globex%') }),
  fc.record({ field: fc.constantFrom('Lifetime_Value__c' as const), op: fc.constantFrom('<', '>=', '=', '!='), value: fc.constantFrom(99.99, 150, 1000) }),
  fc.record({ field: fc.constantFrom('Lifetime_Value__c' as const), op: fc.constantFrom('=', '!='), value: fc.constant(null) }),
  fc.record({ field: fc.constantFrom('CreatedDate' as const), op: fc.constantFrom('<', '>='), value: fc.constantFrom('2026-06-15T00:00:00Z', '2026-01-01T00:00:00Z') }),
  fc.record({ field: fc.constantFrom('Account.Name' as const), op: fc.constantFrom('=', '!='), value: fc.constantFrom('ACME CORPORATION', 'Globex Ltd', null) }),
);
const treeArb: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    condArb,
    fc.record({ and: fc.array(tie('tree'), { minLength: 2, maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('tree'), { minLength: 2, maxLength: 3 }) }),
    fc.record({ not: tie('tree') }),
  ),
})).tree;

describe('WHERE evaluation', () => {
  it('agrees with an independent reference on random nested conditions', () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        const soql = toSoql(tree);
        const expected = CONTACTS.map((c, i) => (refEval(tree, c) ? i + 1 : 0)).filter(Boolean);
        let got: number[];
        try {
          got = nums(soql);
        } catch (err) {
          // Refused only where the parser would lose a NOT: three NOTs, each opening the other's operand.
          expect(String((err as SalesforceApiError).message)).toMatch(/Three NOTs/);
          expect(chainedNots(tree)).toBeGreaterThanOrEqual(3);
          return;
        }
        expect(got).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses what the parser would misread instead of answering wrongly', () => {
    // the parser drops one NOT from these; answering would invert the question
    rejects('SELECT Id FROM Contact WHERE NOT NOT (NOT Email = null)', 'MALFORMED_QUERY', /Three NOTs nested in each other are not supported/);
    rejects('SELECT Id FROM Contact WHERE NOT (NOT (NOT Email = null))', 'MALFORMED_QUERY', /Three NOTs/);
    rejects("SELECT Id FROM Contact WHERE Id IN (SELECT ContactId FROM OpportunityContactRole WHERE NOT (NOT (NOT Role = 'x')))", 'MALFORMED_QUERY', /Three NOTs/);
    expect(nums('NOT (NOT Email = null)')).toEqual([5]);
    expect(nums("NOT (Email = 'not') AND Id NOT IN ('" + cid(1) + "') AND NOT ((NOT Email = null) AND (NOT Lifetime_Value__c = null))")).toEqual([4, 5]);
  });
});
