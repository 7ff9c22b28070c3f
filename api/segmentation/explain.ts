/**
 * Plain-English explanation of a segment, e.g.
 * "Customers · in Europe · last purchase within the last 30 days · lifetime value over $5,000",
 * and the assistant's chat message ("Found 42 customers: ... I ignored: 'blah blah'.").
 * Money: US dollars with thousands separators and no decimals. Dates: "Jan 5, 2025" in the time zone.
 */
import type { Condition, DateExpr, LifecycleStage, LifecycleValue, Segment, SegmentNode, SortField } from './ast.js';
import { REGION_COUNTRIES, type Region } from './regions.js';
import { isAnd, isCondition, isNot, isOr } from './ast.js';
import { formatLocalDate, resolveContext, resolveDateExpr, type ResolveContext, type ResolveOptions } from './resolve.js';

export type ExplainOptions = ResolveOptions;

const STAGE_PLURAL: Record<LifecycleStage, string> = {
  subscriber: 'subscribers',
  lead: 'leads',
  opportunity: 'opportunities',
  customer: 'customers (stage: customer)',
  unknown: 'contacts without a lifecycle stage',
};

/** HubSpot's own lifecycle stages (the `hubspotStage` field), plural and singular. */
const HUBSPOT_STAGE_PLURAL: Record<LifecycleValue, [string, string]> = {
  subscriber: ['subscribers (HubSpot stage "Subscriber")', 'subscriber'],
  lead: ['leads (HubSpot stage "Lead" only)', 'lead'],
  marketingqualifiedlead: ['marketing qualified leads (MQLs)', 'MQL'],
  salesqualifiedlead: ['sales qualified leads (SQLs)', 'SQL'],
  opportunity: ['opportunities (HubSpot stage "Opportunity")', 'opportunity'],
  customer: ['customers (HubSpot stage "Customer" only)', 'customer'],
  evangelist: ['evangelists', 'evangelist'],
  other: ['contacts in the HubSpot stage "Other"', 'contact'],
};
/** The noun of a reply ("Found 2,060 leads"): plural, singular. */
const STAGE_NOUN: Record<LifecycleStage, [string, string]> = {
  subscriber: ['subscribers', 'subscriber'],
  lead: ['leads', 'lead'],
  opportunity: ['opportunities', 'opportunity'],
  customer: ['customers', 'customer'],
  unknown: ['contacts', 'contact'],
};
const HUBSPOT_STAGE_NOUN: Record<LifecycleValue, [string, string]> = {
  subscriber: ['subscribers', 'subscriber'], lead: ['leads', 'lead'], marketingqualifiedlead: ['MQLs', 'MQL'],
  salesqualifiedlead: ['SQLs', 'SQL'], opportunity: ['opportunities', 'opportunity'], customer: ['customers', 'customer'],
  evangelist: ['evangelists', 'evangelist'], other: ['contacts', 'contact'],
};

const FIELD_LABEL: Record<string, string> = {
  firstName: 'first name', lastName: 'last name', email: 'email', company: 'company', city: 'city', state: 'state',
  country: 'country', lifetimeValue: 'lifetime value', lastPurchaseAmount: 'last purchase amount',
  lastPurchaseDate: 'last purchase', createdAt: 'created', lifecycleStage: 'lifecycle stage', region: 'region',
  emailDomain: 'email domain', name: 'name',
};

const SORT_LABEL: Record<SortField, string> = {
  lifetimeValue: 'lifetime value', lastPurchaseAmount: 'last purchase amount', lastPurchaseDate: 'last purchase date',
  createdAt: 'creation date', firstName: 'first name', lastName: 'last name', company: 'company', email: 'email',
  city: 'city', state: 'state', country: 'country',
};

export function formatMoney(n: number): string {
  const sign = n < 0 ? '-' : '';
  return `${sign}$${Math.round(Math.abs(n)).toLocaleString('en-US')}`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function list(values: string[], conj: 'or' | 'and' = 'or', max = 4): string {
  if (values.length > max) return `one of ${values.length} (${values.slice(0, 3).join(', ')}, …)`;
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} ${conj} ${values[values.length - 1]}`;
}

const quote = (s: string) => `"${s}"`;
/** A region's countries: all of them up to 8, else how many (the chip lists every one of them). */
const countryList = (cs: readonly string[]) => (cs.length <= 8 ? cs.join(', ') : `${cs.length} countries`);
const THE_COUNTRIES = new Set(['United States', 'United Kingdom', 'Netherlands', 'United Arab Emirates', 'Philippines', 'Czech Republic', 'Dominican Republic', 'Bahamas', 'Maldives', 'Central African Republic', 'Democratic Republic of the Congo', 'Republic of the Congo', 'Gambia', 'Marshall Islands', 'Solomon Islands', 'Faroe Islands']);
const UNIT_PLURAL: Record<string, string> = { day: 'days', week: 'weeks', month: 'months', quarter: 'quarters', year: 'years' };
const amountOf = (n: number, unit: string) => (n === 1 ? `${unit}` : `${n} ${UNIT_PLURAL[unit]}`);

function periodName(e: Extract<DateExpr, { kind: 'anchor' }>): string | undefined {
  if (e.unit === 'day') return e.offset === 0 ? 'today' : e.offset === -1 ? 'yesterday' : undefined;
  if (e.offset === 0) return `this ${e.unit}`;
  if (e.offset === -1) return `last ${e.unit}`;
  return undefined;
}

function dateText(e: DateExpr, ctx: ResolveContext): string {
  return formatLocalDate(resolveDateExpr(e, ctx), ctx.timeZone);
}

function dateCondition(c: Extract<Condition, { field: 'lastPurchaseDate' | 'createdAt' }>, ctx: ResolveContext, negated: boolean): string {
  const label = FIELD_LABEL[c.field];
  const isPurchase = c.field === 'lastPurchaseDate';
  if (c.op === 'is_set' || c.op === 'is_not_set') {
    const set = (c.op === 'is_set') !== negated;
    return isPurchase ? (set ? 'has a last purchase date' : 'no last purchase date') : set ? 'has a creation date' : 'no creation date';
  }
  let text: string;
  if (c.op === 'between') {
    const from = c.from;
    const to = c.to;
    if (from.kind === 'anchor' && to.kind === 'anchor' && from.unit === to.unit && to.offset === from.offset + 1 && periodName(from)) {
      text = periodName(from) as string;
    } else {
      const last = resolveDateExpr(to, ctx) - 1;
      text = `between ${dateText(from, ctx)} and ${formatLocalDate(last, ctx.timeZone)}`;
    }
  } else if ('value' in c) {
    const v = c.value;
    switch (c.op) {
      case 'gte':
      case 'gt':
        if (v.kind === 'relative' && v.direction === 'past') text = `within the last ${amountOf(v.amount, v.unit)}`;
        else if (v.kind === 'anchor' && v.offset === 0) text = v.unit === 'day' ? 'today' : `this ${v.unit}`;
        else text = `${c.op === 'gte' ? 'on or after' : 'after'} ${dateText(v, ctx)}`;
        break;
      case 'lt':
      case 'lte':
        if (v.kind === 'relative' && v.direction === 'past') text = `more than ${v.amount === 1 ? `a ${v.unit}` : amountOf(v.amount, v.unit)} ago`;
        else text = `${c.op === 'lt' ? 'before' : 'on or before'} ${dateText(v, ctx)}`;
        break;
    }
  } else text = '';
  if (negated) return isPurchase ? `no purchase ${text} (including contacts who never bought)` : `not created ${text}`;
  // "before X" on the last purchase: only contacts who bought (lapsed buyers); say which reading this is
  if (isPurchase && (c.op === 'lt' || c.op === 'lte')) return `${label} ${text} (past buyers only)`;
  return `${label} ${text}`;
}

function moneyCondition(c: Extract<Condition, { field: 'lifetimeValue' | 'lastPurchaseAmount' }>, negated: boolean): string {
  const label = FIELD_LABEL[c.field];
  let text: string;
  switch (c.op) {
    case 'is_set': text = negated ? `no ${label}` : `has a ${label}`; return text;
    case 'is_not_set': text = negated ? `has a ${label}` : `no ${label}`; return text;
    case 'between': text = `between ${formatMoney(c.from)} and ${formatMoney(c.to)}`; break;
    case 'gt': text = `over ${formatMoney(c.value)}`; break;
    case 'gte': text = `of at least ${formatMoney(c.value)}`; break;
    case 'lt': text = `under ${formatMoney(c.value)}`; break;
    case 'lte': text = `of at most ${formatMoney(c.value)}`; break;
    case 'eq': text = `of exactly ${formatMoney(c.value)}`; break;
    case 'neq': text = `other than ${formatMoney(c.value)}`; break;
  }
  return negated ? `${label} not ${text}` : `${label} ${text}`;
}

function conditionText(c: Condition, ctx: ResolveContext, negated = false): string {
  switch (c.field) {
    case 'lifecycleStage': {
      const values = 'values' in c ? c.values : [c.value];
      const neg = (c.op === 'neq' || c.op === 'not_in') !== negated;
      return neg ? `excluding ${list(values.map((v) => STAGE_PLURAL[v]), 'and')}` : list(values.map((v) => STAGE_PLURAL[v]), 'or');
    }
    case 'hubspotStage': {
      const values = 'values' in c ? c.values : [c.value];
      const neg = (c.op === 'neq' || c.op === 'not_in') !== negated;
      const names = values.map((v) => HUBSPOT_STAGE_PLURAL[v][0]);
      return neg ? `excluding ${list(names, 'and')}` : list(names, 'or');
    }
    case 'region': {
      if (!('values' in c) && !('value' in c)) break;
      const regions = ('values' in c ? c.values : [c.value]) as Region[];
      const neg = (c.op === 'neq' || c.op === 'not_in') !== negated;
      // the countries a region covers are said, so the user sees what it means (and can edit them)
      const named = regions.map((r) => `${r} (${countryList(REGION_COUNTRIES[r])})`);
      return `${neg ? 'not in' : 'in'} ${list(named)}`;
    }
    case 'country':
    case 'state':
    case 'city': {
      if (c.op === 'is_set' || c.op === 'is_not_set') return (c.op === 'is_set') !== negated ? `has a ${c.field}` : `no ${c.field}`;
      if (c.op === 'contains' || c.op === 'not_contains') {
        return `${c.field} ${(c.op === 'contains') !== negated ? 'contains' : 'does not contain'} ${quote(c.value)}`;
      }
      const values: string[] = 'values' in c ? c.values : 'value' in c ? [c.value] : [];
      const neg = (c.op === 'neq' || c.op === 'not_in') !== negated;
      const named = values.map((v) => (c.field === 'country' && THE_COUNTRIES.has(v) ? `the ${v}` : v));
      const places = values.length > 4 ? `one of ${values.length} ${c.field === 'country' ? 'countries' : `${c.field === 'city' ? 'cities' : c.field === 'state' ? 'states' : 'regions'}`} (${values.slice(0, 3).join(', ')}, …)` : list(named);
      return `${neg ? 'not in' : 'in'} ${places}`;
    }
    case 'lifetimeValue':
    case 'lastPurchaseAmount':
      return moneyCondition(c, negated);
    case 'lastPurchaseDate':
    case 'createdAt':
      return dateCondition(c, ctx, negated);
    case 'emailDomain': {
      const values: string[] = 'values' in c ? c.values : [c.value];
      const neg = (c.op === 'neq' || c.op === 'not_in') !== negated;
      const dotted = values.every((v) => v.startsWith('.'));
      return `email ${neg ? 'not ' : ''}${dotted ? 'ending in' : 'at'} ${list(values)}`;
    }
    case 'name':
      return c.op === 'eq' ? `${negated ? 'not ' : ''}named ${quote(c.value)}` : `name ${negated ? 'does not contain' : 'contains'} ${quote(c.value)}`;
    case 'hasPurchased':
      return c.value !== negated ? 'has purchased' : 'never purchased';
    case 'firstName':
    case 'lastName':
    case 'email':
    case 'company': {
      const label = FIELD_LABEL[c.field];
      switch (c.op) {
        case 'eq': return `${label} ${negated ? 'is not' : 'is'} ${quote(c.value)}`;
        case 'neq': return `${label} ${negated ? 'is' : 'is not'} ${quote(c.value)}`;
        case 'contains': return `${label} ${negated ? 'does not contain' : 'contains'} ${quote(c.value)}`;
        case 'not_contains': return `${label} ${negated ? 'contains' : 'does not contain'} ${quote(c.value)}`;
        case 'in': return `${label} ${negated ? 'is not' : 'is'} ${list(c.values.map(quote))}`;
        case 'not_in': return `${label} ${negated ? 'is' : 'is not'} ${list(c.values.map(quote))}`;
        case 'is_set': return negated ? `no ${label}` : `has a ${label}`;
        case 'is_not_set': return negated ? `has a ${label}` : `no ${label}`;
      }
    }
  }
  return JSON.stringify(c);
}

function nodeText(n: SegmentNode, ctx: ResolveContext, nested = false): string {
  if (isCondition(n)) return conditionText(n, ctx);
  if (isNot(n)) {
    if (isCondition(n.not)) return conditionText(n.not, ctx, true);
    if (isNot(n.not)) return nodeText(n.not.not, ctx, nested);
    return `not (${nodeText(n.not, ctx, false)})`;
  }
  if (isAnd(n)) {
    if (n.and.length === 0) return 'everyone';
    // "leads in Canada" rather than "leads and in Canada"
    const stageIdx = n.and.findIndex((x) => isCondition(x) && x.field === 'lifecycleStage' && (x.op === 'eq' || x.op === 'in'));
    if (stageIdx >= 0 && n.and.length > 1) {
      const subject = nodeText(n.and[stageIdx], ctx, true);
      const rest = n.and.filter((_, i) => i !== stageIdx).map((x) => nodeText(x, ctx, true));
      const text = `${subject} ${rest.join(', ')}`;
      return nested ? `(${text})` : text;
    }
    const text = n.and.map((x) => nodeText(x, ctx, true)).join(' and ');
    return nested && n.and.length > 1 ? `(${text})` : text;
  }
  if (isOr(n)) {
    if (n.or.length === 0) return 'no one';
    const text = n.or.map((x) => nodeText(x, ctx, true)).join(' or ');
    return nested && n.or.length > 1 ? `(${text})` : text;
  }
  return '';
}

function sortText(segment: Segment): string | undefined {
  const { sort, limit } = segment;
  if (!sort) return limit !== undefined ? `first ${limit.toLocaleString('en-US')}` : undefined;
  const label = SORT_LABEL[sort.field];
  const textual = ['firstName', 'lastName', 'company', 'email', 'city', 'state', 'country'].includes(sort.field);
  const dates = sort.field === 'lastPurchaseDate' || sort.field === 'createdAt';
  if (limit !== undefined) {
    const n = limit.toLocaleString('en-US');
    if (sort.field === 'lastPurchaseDate') return sort.direction === 'desc' ? `${n} most recent buyers` : `${n} least recent buyers`;
    if (sort.field === 'createdAt') return sort.direction === 'desc' ? `${n} newest` : `${n} oldest`;
    if (textual) return `${sort.direction === 'asc' ? 'first' : 'last'} ${n} by ${label}`;
    return `${sort.direction === 'desc' ? 'top' : 'bottom'} ${n} by ${label}`;
  }
  const order = textual ? (sort.direction === 'asc' ? 'A to Z' : 'Z to A') : dates ? (sort.direction === 'desc' ? 'newest first' : 'oldest first') : sort.direction === 'desc' ? 'highest first' : 'lowest first';
  return `sorted by ${label} (${order})`;
}

/** Explanation of a segment as " · "-separated parts, starting with who is selected. */
export function explainSegment(segment: Segment, opts: ExplainOptions = {}): string {
  const ctx = resolveContext(opts);
  const parts: SegmentNode[] = segment.where ? (isAnd(segment.where) ? [...segment.where.and] : [segment.where]) : [];
  // the subject: a positive lifecycle condition at the top names the group
  let subject = 'Customers';
  const idx = parts.findIndex((p) => isCondition(p) && (p.field === 'lifecycleStage' || p.field === 'hubspotStage') && (p.op === 'eq' || p.op === 'in'));
  if (idx >= 0) {
    const c = parts[idx] as Extract<Condition, { field: 'lifecycleStage' | 'hubspotStage' }>;
    const names = c.field === 'lifecycleStage' ? ('values' in c ? c.values : [c.value]).map((v) => STAGE_PLURAL[v]) : ('values' in c ? c.values : [c.value]).map((v) => HUBSPOT_STAGE_PLURAL[v][0]);
    subject = capitalise(list(names, 'and'));
    parts.splice(idx, 1);
  }
  const texts = [subject, ...parts.map((p) => nodeText(p, ctx, false))];
  const s = sortText(segment);
  if (s) texts.push(s);
  return texts.join(' · ');
}

export interface AssistantMessageInput extends ExplainOptions {
  segment: Segment;
  /** Number of matching customers. */
  count: number;
  unrecognized?: string[];
  notes?: string[];
}

/**
 * What a reply calls the contacts found: the one lifecycle stage the segment asks for ("leads", "MQLs"),
 * otherwise "contacts". Returns [plural, singular] and whether the stage is said by the noun alone.
 */
export function resultNoun(segment: Segment): { plural: string; singular: string; saysStage: boolean } {
  const parts = segment.where ? (isAnd(segment.where) ? segment.where.and : [segment.where]) : [];
  const stages = parts.filter((p): p is Extract<Condition, { field: 'lifecycleStage' | 'hubspotStage' }> => isCondition(p) && (p.field === 'lifecycleStage' || p.field === 'hubspotStage'));
  if (stages.length === 1 && stages[0].op === 'eq') {
    const c = stages[0];
    const [plural, singular] = c.field === 'lifecycleStage' ? STAGE_NOUN[c.value] : HUBSPOT_STAGE_NOUN[c.value];
    if (c.field === 'lifecycleStage' && c.value === 'customer') return { plural: 'customers (stage: customer)', singular: 'customer (stage: customer)', saysStage: true };
    const saysStage = !(c.field === 'lifecycleStage' && c.value === 'unknown') && !(c.field === 'hubspotStage' && c.value === 'other');
    return { plural, singular, saysStage };
  }
  return { plural: 'contacts', singular: 'contact', saysStage: false };
}

/** The assistant's chat message for a completed search ("Found 2,060 leads: in Canada."). */
export function buildAssistantMessage(input: AssistantMessageInput): string {
  const { segment, count } = input;
  const noun = resultNoun(segment);
  let parts = explainSegment(segment, input).split(' · ');
  // the subject adds nothing after "Found 42 contacts" / "Found 42 leads"
  if (parts[0] === 'Customers' || noun.saysStage) parts = parts.slice(1);
  const n = count.toLocaleString('en-US');
  const any = segment.where || segment.sort || segment.limit !== undefined;
  const scope = any ? parts.join(' · ') : `all of your ${noun.plural}`;
  const found = count === 1 ? noun.singular : noun.plural;
  let msg: string;
  if (count === 0) msg = scope ? `I found no ${noun.plural} matching: ${scope}.` : `I found no ${noun.plural}.`;
  else msg = scope ? `Found ${n} ${found}: ${scope}.` : `Found ${n} ${found}.`;
  const ignored = (input.unrecognized ?? []).filter((u) => u.trim());
  if (ignored.length > 0) msg += ` I ignored: ${ignored.map((u) => `'${u}'`).join(', ')}.`;
  for (const note of input.notes ?? []) if (note.trim()) msg += ` ${note.trim()}`;
  return msg;
}

/** One condition in words, e.g. "lifetime value over $5,000" (the label of a chip). */
export function explainCondition(c: Condition, opts: ExplainOptions = {}, negated = false): string {
  return conditionText(c, resolveContext(opts), negated);
}

/**
 * The reply to a question none of which was understood: what was not understood, that nothing was
 * run or charged, and what can be asked (each field with an example question).
 */
export function buildNotUnderstoodMessage(unrecognized: string[], fields: ReadonlyArray<{ label: string; example: string }>): string {
  const phrases = unrecognized.filter((u) => u.trim());
  const what = phrases.length ? `I didn't understand ${phrases.map((u) => `"${u}"`).join(', ')}` : "I didn't understand the question";
  const offers = fields.map((f) => `${f.label.toLowerCase()} ("${f.example}")`).join(', ');
  return `${what}, so I didn't run a search and no query was used. I can filter your contacts by: ${offers}.`;
}
