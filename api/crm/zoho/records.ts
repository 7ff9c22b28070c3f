/**
 * Zoho rows as CRM-neutral records, through the connection's field map, and each contact's purchases
 * from its won deals: the last purchase is the latest Closing_Date (a date: the start of that UTC day;
 * on a tie the deal created last), its Amount the last amount, and the sum of the amounts (in cents) the
 * lifetime value.
 */
import { detailedStage, productStage, type FieldMap } from '../field-map.js';
import type { CrmRecord } from '../record.js';
import { fieldIn, isDerived, type ZohoPersonModule } from './field-map.js';

export interface Purchases {
  lastAt: number;
  lastAmount: number | null;
  /** sum in cents */
  totalCents: number;
  /** id of the last deal (ties on the date go to the later deal) */
  lastDealId: string;
}

function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = (typeof v === 'object' ? String((v as { name?: unknown }).name ?? '') : String(v)).trim();
  return s === '' ? null : s;
}

function number(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** A Zoho date ('2026-01-31': the start of that UTC day) or date-time ('…T09:00:00+05:30') as epoch ms. */
export function instant(v: unknown): number | null {
  const s = text(v);
  if (s === null) return null;
  const t = Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s);
  return Number.isFinite(t) ? t : null;
}

/** The COQL columns a read selects from a module: the id and every mapped field the module holds. */
export function selectColumns(module: ZohoPersonModule, map: FieldMap): string[] {
  const cols = new Set<string>(['id']);
  for (const mapped of Object.values(map.fields)) {
    const name = fieldIn(module, mapped);
    if (name && !isDerived(name)) cols.add(name);
  }
  return [...cols];
}

/** Folds one won deal into a contact's purchases. */
export function addDeal(p: Purchases | undefined, deal: { id: string; closedAt: number | null; amount: number | null }): Purchases | undefined {
  if (deal.closedAt === null) return p;
  const cents = deal.amount === null ? 0 : Math.round(deal.amount * 100);
  if (!p) return { lastAt: deal.closedAt, lastAmount: deal.amount, totalCents: cents, lastDealId: deal.id };
  const later = deal.closedAt > p.lastAt || (deal.closedAt === p.lastAt && deal.id > p.lastDealId);
  return {
    lastAt: later ? deal.closedAt : p.lastAt,
    lastAmount: later ? deal.amount : p.lastAmount,
    lastDealId: later ? deal.id : p.lastDealId,
    totalCents: p.totalCents + cents,
  };
}

export function zohoRecord(module: ZohoPersonModule, row: Record<string, unknown>, map: FieldMap, purchases: Purchases | undefined): CrmRecord {
  const f = map.fields;
  const get = (mapped: string) => {
    const name = fieldIn(module, mapped);
    return name === null || isDerived(name) ? null : row[name];
  };
  const p = module === 'Contacts' ? purchases : undefined;
  const stage = detailedStage(map, text(get(f.lifecycleStage)));
  return {
    id: String(row.id),
    firstName: text(get(f.firstName)),
    lastName: text(get(f.lastName)),
    email: text(get(f.email)),
    company: text(get(f.company)),
    stage,
    lifecycleStage: productStage(stage),
    lastPurchaseAt: isDerived(f.lastPurchaseDate) ? (p?.lastAt ?? null) : instant(get(f.lastPurchaseDate)),
    lastPurchaseAmount: isDerived(f.lastPurchaseAmount) ? (p ? p.lastAmount : null) : number(get(f.lastPurchaseAmount)),
    lifetimeValue: isDerived(f.lifetimeValue) ? (p ? p.totalCents / 100 : null) : number(get(f.lifetimeValue)),
    city: text(get(f.city)),
    state: text(get(f.state)),
    country: text(get(f.country)),
    createdAt: instant(get(f.createdAt)),
  };
}

/** Whether reading a module's records needs its contacts' deals (a purchase field is derived). */
export function needsDeals(module: ZohoPersonModule, map: FieldMap): boolean {
  return module === 'Contacts' && [map.fields.lastPurchaseDate, map.fields.lastPurchaseAmount, map.fields.lifetimeValue].some(isDerived);
}
