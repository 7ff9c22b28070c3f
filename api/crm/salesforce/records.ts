/**
 * Salesforce records (Lead, Contact as the REST API returns them) → the CRM-neutral CrmRecord, read
 * through the connection's field map; and the SELECT lists that read what the map needs.
 *
 * - "[not provided]" (what Salesforce writes into an empty required LastName / Company) is no value.
 * - A date field's day is read as its midnight UTC (the product's purchase dates are UTC days).
 * - Purchases derived from won opportunities come from the contact's `OpportunityContactRoles`
 *   subquery: the last is the latest CloseDate (ties: the later opportunity), the lifetime value the
 *   sum of the Amounts (to the cent).
 */
import { detailedStage, productStage, MAPPABLE_FIELDS, type FieldMap, type MappableField } from '../field-map.js';
import type { CrmRecord } from '../record.js';
import { readsWonOpportunities, sideOf, type SfObject } from './field-map.js';
import { NOT_PROVIDED } from './model/org.js';
import { dayInstant } from './model/soql-text.js';

/** The child subquery that reads a contact's won opportunities. */
export const WON_SUBQUERY = '(SELECT Opportunity.Id, Opportunity.CloseDate, Opportunity.Amount FROM OpportunityContactRoles WHERE Opportunity.IsWon = true)';

export function selectFields(map: FieldMap, object: SfObject): string[] {
  const paths = new Set<string>(['Id']);
  for (const f of MAPPABLE_FIELDS) {
    const side = sideOf(map, f, object);
    if (side.kind === 'field') paths.add(side.path);
  }
  const out = [...paths];
  if (object === 'Contact' && readsWonOpportunities(map)) out.push(WON_SUBQUERY);
  return out;
}

type Raw = Record<string, unknown>;

/** The value at a relationship path (`Account.Name`), case-insensitively as SOQL names are. */
export function valueAt(rec: Raw, path: string): unknown {
  let node: unknown = rec;
  for (const seg of path.split('.')) {
    if (node === null || typeof node !== 'object') return null;
    const o = node as Raw;
    const key = seg in o ? seg : Object.keys(o).find((k) => k.toLowerCase() === seg.toLowerCase());
    node = key === undefined ? null : o[key];
  }
  return node ?? null;
}

function text(v: unknown, notProvided: boolean): string | null {
  if (v === null || v === undefined) return null;
  const t = String(v).trim();
  if (t === '' || (notProvided && t.toLowerCase() === NOT_PROVIDED)) return null;
  return t;
}

function number(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** A date ("2026-06-15": midnight UTC) or dateTime ("2026-06-15T12:00:00.000+0000") as epoch ms. */
export function instant(v: unknown): number | null {
  if (typeof v !== 'string' || v === '') return null;
  if (v.length === 10) return dayInstant(v);
  const ms = Date.parse(v.endsWith('+0000') ? `${v.slice(0, -5)}Z` : v);
  return Number.isFinite(ms) ? ms : null;
}

interface WonDeal {
  id: string;
  closeDate: string;
  amount: number | null;
}

function wonDeals(rec: Raw): WonDeal[] {
  const roles = valueAt(rec, 'OpportunityContactRoles') as { records?: Raw[] } | null;
  const deals: WonDeal[] = [];
  for (const r of roles?.records ?? []) {
    const o = r.Opportunity as Raw | null;
    if (!o || typeof o.CloseDate !== 'string') continue;
    deals.push({ id: String(o.Id ?? ''), closeDate: o.CloseDate, amount: number(o.Amount) });
  }
  // latest first; the same day: the later opportunity
  return deals.sort((a, b) => (a.closeDate !== b.closeDate ? (a.closeDate < b.closeDate ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

export function salesforceRecord(object: SfObject, rec: Raw, map: FieldMap): CrmRecord {
  const read = (f: MappableField): unknown => {
    const side = sideOf(map, f, object);
    return side.kind === 'field' ? valueAt(rec, side.path) : null;
  };
  const textOf = (f: MappableField) => {
    const side = sideOf(map, f, object);
    return side.kind === 'field' ? text(valueAt(rec, side.path), side.notProvided === true) : null;
  };
  const deals = object === 'Contact' && readsWonOpportunities(map) ? wonDeals(rec) : [];
  const derived = (f: MappableField): number | null => {
    const side = sideOf(map, f, object);
    if (side.kind !== 'derived') return null;
    if (deals.length === 0) return null;
    if (side.what === 'lastCloseDate') return dayInstant(deals[0].closeDate);
    if (side.what === 'lastAmount') return deals[0].amount;
    const amounts = deals.map((d) => d.amount).filter((a): a is number => a !== null);
    return amounts.length ? Math.round(amounts.reduce((s, a) => s + Math.round(a * 100), 0)) / 100 : null;
  };
  const numberOf = (f: MappableField) => (sideOf(map, f, object).kind === 'derived' ? derived(f) : number(read(f)));
  const instantOf = (f: MappableField) => (sideOf(map, f, object).kind === 'derived' ? derived(f) : instant(read(f)));
  const stage = detailedStage(map, textOf('lifecycleStage'));
  return {
    id: String(rec.Id),
    firstName: textOf('firstName'),
    lastName: textOf('lastName'),
    email: textOf('email'),
    company: textOf('company'),
    stage,
    lifecycleStage: productStage(stage),
    lastPurchaseAt: instantOf('lastPurchaseDate'),
    lastPurchaseAmount: numberOf('lastPurchaseAmount'),
    lifetimeValue: numberOf('lifetimeValue'),
    city: textOf('city'),
    state: textOf('state'),
    country: textOf('country'),
    createdAt: instantOf('createdAt'),
  };
}
