/**
 * First pass of the parser: the token stream becomes a list of items (conditions, unbound values and
 * dates, field mentions, stage words, negations, connectors, sort/limit requests, unknown words).
 * Each recogniser looks at the tokens from a position and consumes what it understands; recognisers are
 * tried in a fixed order (see RECOGNISERS). The second pass (assemble.ts) binds values to fields and
 * builds the boolean tree.
 */
import type { Condition, DateExpr, LifecycleStage, Region, SegmentNode, SortField } from '../ast.js';
import { COUNTRIES } from '../regions.js';
import { recogniseDate, type DateContext, type DateItemValue } from './dates.js';
import { isVocabulary } from './fuzzy.js';
import type { Token } from './lexer.js';
import {
  AMBIGUOUS_STATE_CODES,
  BOUNDARIES,
  COMPARATORS_AFTER,
  COMPARATORS_BEFORE,
  COUNT_NOUNS,
  CURRENCY_WORDS,
  CUSTOMER_QUALIFIERS,
  FILLERS,
  MENTIONS,
  NEGATORS,
  PLACES,
  PREDICATE_WORDS,
  STAGES,
  STATE_CODES,
  UNITS,
  type Cmp,
  type Mention,
  type NegKind,
  type PlaceValue,
} from './lexicon.js';

export type Slot = string;

interface Span {
  s: number;
  e: number;
}

export type Item = Span &
  (
    | { t: 'cond'; node: SegmentNode; slot: Slot; field: string; guess?: string }
    | { t: 'lifecycle'; stage: LifecycleStage; generic: boolean }
    | { t: 'value'; cmp: Cmp | 'between'; a: number; b?: number; money: boolean }
    | ({ t: 'date' } & DateItemValue)
    | { t: 'mention'; m: Mention; neg?: NegKind; withHave?: boolean; bound?: Item[] }
    | { t: 'neg'; kind: NegKind }
    | { t: 'or' }
    | { t: 'and' }
    | { t: 'comma' }
    | { t: 'boundary' }
    | { t: 'sort'; field?: SortField; direction: 'asc' | 'desc'; limit?: number; superlative: boolean }
    | { t: 'by'; field: SortField; direction?: 'asc' | 'desc' }
    | { t: 'limit'; n: number }
    | { t: 'unknown' }
  );

export interface GrammarContext extends DateContext {
  toks: Token[];
  texts: string[];
}

interface Match {
  len: number;
  items: Item[];
}

type Recogniser = (c: GrammarContext, i: number) => Match | undefined;

const LEGAL_SUFFIXES = new Set(['inc', 'corp', 'corporation', 'ltd', 'limited', 'llc', 'gmbh', 'plc', 'ag', 'co', 'sa', 'bv', 'nv', 'pty', 'srl', 'sas', 'llp', 'incorporated']);
const SUBJECT_NOUNS = new Set([
  'customers', 'customer', 'clients', 'client', 'leads', 'lead', 'contacts', 'contact', 'people', 'buyers', 'subscribers', 'prospects',
  'opportunities', 'accounts', 'users', 'records', 'spenders', 'purchasers', 'companies', 'mqls', 'sqls', 'signups', 'members',
]);
const PURCHASE_NOUNS = new Set(['buyers', 'buyer', 'purchasers', 'purchaser', 'purchases', 'orders', 'shoppers', 'deals', 'transactions', 'spenders']);

const cond = (s: number, e: number, node: Condition | SegmentNode, slot: Slot, field: string, guess?: string): Item => ({ t: 'cond', s, e, node, slot, field, guess });

/** A capitalised word that is not part of the parser's vocabulary (a name). */
function isProperName(c: GrammarContext, j: number): boolean {
  const t = c.toks[j];
  return !!t && t.kind === 'word' && t.cap && !isVocabulary(t.text) && !FILLERS.has(t.text);
}

function isPlainUnknownWord(c: GrammarContext, j: number): boolean {
  const t = c.toks[j];
  return !!t && t.kind === 'word' && !isVocabulary(t.text) && !FILLERS.has(t.text) && t.text.length > 1;
}

/** Consecutive proper-name words starting at j (max `max`). */
function properNameRun(c: GrammarContext, j: number, max = 4): number {
  let k = j;
  while (k < c.toks.length && k - j < max && (isProperName(c, k) || (k > j && c.toks[k].kind === 'word' && c.toks[k].cap && LEGAL_SUFFIXES.has(c.texts[k])))) k++;
  return k - j;
}

function rawSpan(c: GrammarContext, s: number, e: number): string {
  return c.source.slice(c.toks[s].start, c.toks[e - 1].end);
}

// ---------------------------------------------------------------------------------------------------
// Sorting and limits

const SUPERLATIVES: Array<[string[], SortField, 'asc' | 'desc', 'all' | 'prefix']> = [
  [['biggest', 'spenders'], 'lifetimeValue', 'desc', 'all'],
  [['top', 'spenders'], 'lifetimeValue', 'desc', 'all'],
  [['largest', 'spenders'], 'lifetimeValue', 'desc', 'all'],
  [['highest', 'spenders'], 'lifetimeValue', 'desc', 'all'],
  [['heaviest', 'spenders'], 'lifetimeValue', 'desc', 'all'],
  [['best', 'customers'], 'lifetimeValue', 'desc', 'prefix'],
  [['most', 'valuable'], 'lifetimeValue', 'desc', 'all'],
  [['highest', 'value'], 'lifetimeValue', 'desc', 'all'],
  [['highest', 'lifetime', 'value'], 'lifetimeValue', 'desc', 'all'],
  [['highest', 'ltv'], 'lifetimeValue', 'desc', 'all'],
  [['highest', 'revenue'], 'lifetimeValue', 'desc', 'all'],
  [['highest', 'total', 'revenue'], 'lifetimeValue', 'desc', 'all'],
  [['most', 'revenue'], 'lifetimeValue', 'desc', 'all'],
  [['highest', 'spending'], 'lifetimeValue', 'desc', 'all'],
  [['spent', 'the', 'most'], 'lifetimeValue', 'desc', 'all'],
  [['biggest', 'customers'], 'lifetimeValue', 'desc', 'prefix'],
  [['largest', 'customers'], 'lifetimeValue', 'desc', 'prefix'],
  [['biggest', 'accounts'], 'lifetimeValue', 'desc', 'prefix'],
  [['lowest', 'lifetime', 'value'], 'lifetimeValue', 'asc', 'all'],
  [['lowest', 'ltv'], 'lifetimeValue', 'asc', 'all'],
  [['lowest', 'value'], 'lifetimeValue', 'asc', 'all'],
  [['least', 'valuable'], 'lifetimeValue', 'asc', 'all'],
  [['smallest', 'spenders'], 'lifetimeValue', 'asc', 'all'],
  [['lowest', 'spenders'], 'lifetimeValue', 'asc', 'all'],
  [['spent', 'the', 'least'], 'lifetimeValue', 'asc', 'all'],
  [['lowest', 'revenue'], 'lifetimeValue', 'asc', 'all'],
  [['largest', 'purchases'], 'lastPurchaseAmount', 'desc', 'all'],
  [['biggest', 'purchases'], 'lastPurchaseAmount', 'desc', 'all'],
  [['largest', 'orders'], 'lastPurchaseAmount', 'desc', 'all'],
  [['biggest', 'orders'], 'lastPurchaseAmount', 'desc', 'all'],
  [['largest', 'deals'], 'lastPurchaseAmount', 'desc', 'all'],
  [['biggest', 'deals'], 'lastPurchaseAmount', 'desc', 'all'],
  [['largest', 'last', 'purchase'], 'lastPurchaseAmount', 'desc', 'all'],
  [['biggest', 'last', 'purchase'], 'lastPurchaseAmount', 'desc', 'all'],
  [['highest', 'last', 'purchase'], 'lastPurchaseAmount', 'desc', 'all'],
  [['highest', 'purchase'], 'lastPurchaseAmount', 'desc', 'all'],
  [['highest', 'order', 'value'], 'lastPurchaseAmount', 'desc', 'all'],
  [['smallest', 'purchases'], 'lastPurchaseAmount', 'asc', 'all'],
  [['smallest', 'orders'], 'lastPurchaseAmount', 'asc', 'all'],
  [['lowest', 'order', 'value'], 'lastPurchaseAmount', 'asc', 'all'],
  [['most', 'recently', 'purchased'], 'lastPurchaseDate', 'desc', 'all'],
  [['most', 'recently', 'bought'], 'lastPurchaseDate', 'desc', 'all'],
  [['bought', 'most', 'recently'], 'lastPurchaseDate', 'desc', 'all'],
  [['purchased', 'most', 'recently'], 'lastPurchaseDate', 'desc', 'all'],
  [['most', 'recently', 'active'], 'lastPurchaseDate', 'desc', 'all'],
  [['most', 'recently', 'created'], 'createdAt', 'desc', 'all'],
  [['most', 'recently', 'added'], 'createdAt', 'desc', 'all'],
  [['newest'], 'createdAt', 'desc', 'all'],
  [['oldest'], 'createdAt', 'asc', 'all'],
  [['earliest'], 'createdAt', 'asc', 'all'],
  [['longest', 'standing'], 'createdAt', 'asc', 'all'],
];

const DIRECTION_WORDS: Array<[string[], 'asc' | 'desc']> = [
  [['ascending'], 'asc'], [['asc'], 'asc'], [['descending'], 'desc'], [['desc'], 'desc'],
  [['highest', 'first'], 'desc'], [['largest', 'first'], 'desc'], [['biggest', 'first'], 'desc'], [['most', 'recent', 'first'], 'desc'],
  [['newest', 'first'], 'desc'], [['latest', 'first'], 'desc'], [['lowest', 'first'], 'asc'], [['smallest', 'first'], 'asc'],
  [['oldest', 'first'], 'asc'], [['earliest', 'first'], 'asc'], [['high', 'to', 'low'], 'desc'], [['low', 'to', 'high'], 'asc'],
  [['a', '-', 'z'], 'asc'], [['z', '-', 'a'], 'desc'], [['a', 'to', 'z'], 'asc'], [['z', 'to', 'a'], 'desc'],
];

function words(c: GrammarContext, i: number, ws: string[]): boolean {
  return ws.every((w, k) => c.texts[i + k] === w);
}

function smallInt(c: GrammarContext, j: number): number | undefined {
  const t = c.toks[j];
  if (t?.kind === 'number' && !t.scaled && !t.plus && !t.ordinal && Number.isInteger(t.num) && (t.num as number) >= 1 && (t.num as number) <= 10_000 && !/[,.]/.test(t.raw)) return t.num;
  return undefined;
}

function sortFieldAt(c: GrammarContext, j: number): { field: SortField; len: number } | undefined {
  const m = MENTIONS.match(c.texts, j);
  if (!m) return undefined;
  const field = m.value.sort ?? m.value.money ?? (m.value.date as SortField | undefined);
  return field ? { field, len: m.len } : undefined;
}

const rSort: Recogniser = (c, i) => {
  const t = c.texts;
  // "sorted by X", "order by X", "by X"
  let k = i;
  if (['sorted', 'sort', 'ordered', 'order', 'ranked', 'rank', 'arranged'].includes(t[k]) && t[k + 1] === 'by') k += 2;
  else if (t[k] === 'by') k += 1;
  if (k > i) {
    const f = sortFieldAt(c, k);
    if (f) {
      let e = k + f.len;
      if (t[e] === 'date' && (f.field === 'lastPurchaseDate' || f.field === 'createdAt')) e++;
      let direction: 'asc' | 'desc' | undefined;
      let p = e;
      if (t[p] === 'in') p++;
      for (const [ws, d] of DIRECTION_WORDS) {
        if (words(c, p, ws)) {
          direction = d;
          e = p + ws.length;
          if (t[e] === 'order') e++;
          break;
        }
      }
      return { len: e - i, items: [{ t: 'by', s: i, e, field: f.field, direction }] };
    }
    if (k - i === 2) return undefined;
  }
  if (t[i] === 'alphabetically' || words(c, i, ['in', 'alphabetical', 'order'])) {
    const len = t[i] === 'alphabetically' ? 1 : 3;
    return { len, items: [{ t: 'by', s: i, e: i + len, field: 'lastName', direction: 'asc' }] };
  }
  // "top 10", "bottom 5", "top"
  if (t[i] === 'top' || t[i] === 'bottom') {
    const n = smallInt(c, i + 1);
    const len = n !== undefined ? 2 : 1;
    // "top spenders" etc. are superlatives below
    if (n === undefined && SUPERLATIVES.some(([ws]) => words(c, i, ws))) {
      // fall through
    } else {
      return { len, items: [{ t: 'sort', s: i, e: i + len, direction: t[i] === 'top' ? 'desc' : 'asc', limit: n, superlative: n === undefined }] };
    }
  }
  // "first 20", "limit 20", "limit to 20"
  if (t[i] === 'first' || t[i] === 'limit') {
    const off = t[i + 1] === 'to' ? 2 : 1;
    const n = smallInt(c, i + off);
    if (n !== undefined) return { len: off + 1, items: [{ t: 'limit', s: i, e: i + off + 1, n }] };
  }
  // superlatives
  for (const [ws, field, direction, consume] of SUPERLATIVES) {
    if (words(c, i, ws)) {
      const len = consume === 'all' ? ws.length : ws.length - 1;
      return { len, items: [{ t: 'sort', s: i, e: i + len, field, direction, superlative: true }] };
    }
  }
  // "most recent buyers", "latest purchases" / "latest leads"
  const mr = words(c, i, ['most', 'recent']) ? 2 : t[i] === 'latest' ? 1 : 0;
  if (mr > 0) {
    const noun = t[i + mr];
    const isMention = (MENTIONS.match(t, i)?.len ?? 0) > mr; // "most recent purchase was over $300"
    if (noun && !isMention && (PURCHASE_NOUNS.has(noun) || SUBJECT_NOUNS.has(noun) || STAGES.match(t, i + mr))) {
      const field: SortField = PURCHASE_NOUNS.has(noun) || (mr === 2 && (noun === 'customers' || noun === 'clients')) ? 'lastPurchaseDate' : 'createdAt';
      return { len: mr, items: [{ t: 'sort', s: i, e: i + mr, field, direction: 'desc', superlative: true }] };
    }
  }
  // "25 leads", "the 50 most valuable customers": a count before a noun or a superlative
  const n = smallInt(c, i);
  if (n !== undefined) {
    const next = t[i + 1];
    const nextIsNoun = next !== undefined && (SUBJECT_NOUNS.has(next) || STAGES.match(t, i + 1) !== undefined);
    const nextIsSuperlative = SUPERLATIVES.some(([ws]) => words(c, i + 1, ws)) || words(c, i + 1, ['most', 'recent']) || next === 'latest';
    const qualified = next !== undefined && CUSTOMER_QUALIFIERS.has(next);
    if ((nextIsNoun || nextIsSuperlative || qualified) && !UNITS.match(t, i + 1)) return { len: 1, items: [{ t: 'limit', s: i, e: i + 1, n }] };
  }
  return undefined;
};

// ---------------------------------------------------------------------------------------------------
// Names, e-mail, companies

/** Value after a name trigger: a quoted string, 1-2 proper names, or one unknown word. */
function nameValue(c: GrammarContext, j: number): { value: string; len: number } | undefined {
  const tok = c.toks[j];
  if (!tok) return undefined;
  if (tok.kind === 'quoted') return { value: tok.text, len: 1 };
  const run = properNameRun(c, j, 2);
  if (run > 0) return { value: rawSpan(c, j, j + run), len: run };
  if (tok.kind === 'word' && tok.cap && !FILLERS.has(tok.text)) return { value: tok.raw, len: 1 };
  if (isPlainUnknownWord(c, j)) return { value: tok.raw, len: 1 };
  return undefined;
}

const rName: Recogniser = (c, i) => {
  const t = c.texts;
  let k = i;
  let field: 'name' | 'firstName' | 'lastName' | undefined;
  let op: 'eq' | 'contains' = 'eq';
  if (t[k] === 'named' || t[k] === 'called') {
    field = 'name';
    k++;
  } else {
    const m = MENTIONS.match(t, k);
    if (m && (m.value.presence === 'firstName' || m.value.presence === 'lastName')) {
      const word = t[k];
      field = word === 'name' || word === 'names' ? 'name' : m.value.presence;
      k += m.len;
      if (t[k] === 'is' || t[k] === '=' || t[k] === ':' || t[k] === 'of') k++;
      else if (t[k] === 'contains' || t[k] === 'containing' || t[k] === 'like' || t[k] === 'includes') {
        op = 'contains';
        k++;
      }
      if (field !== 'name' && op === 'contains') return undefined;
    }
  }
  if (!field) return undefined;
  const v = nameValue(c, k);
  if (!v) return undefined;
  const e = k + v.len;
  const node: Condition =
    field === 'name' ? { field: 'name', op, value: v.value.replace(/\*/g, '') } : { field, op: 'eq', value: v.value };
  return { len: e - i, items: [cond(i, e, node, 'name', field)] };
};

const PROVIDERS: Record<string, string> = {
  gmail: 'gmail.com', googlemail: 'gmail.com', yahoo: 'yahoo.com', hotmail: 'hotmail.com', outlook: 'outlook.com',
  icloud: 'icloud.com', aol: 'aol.com', protonmail: 'protonmail.com', proton: 'protonmail.com', msn: 'msn.com',
};
const EMAIL_NOUNS = ['users', 'user', 'addresses', 'address', 'emails', 'email', 'accounts', 'account', 'contacts', 'people', 'domain', 'mail', 'mailbox'];

const rEmail: Recogniser = (c, i) => {
  const tok = c.toks[i];
  if (tok.kind === 'email') return { len: 1, items: [cond(i, i + 1, { field: 'email', op: 'eq', value: tok.text }, 'email', 'email')] };
  if (tok.kind === 'domain') return { len: 1, items: [cond(i, i + 1, { field: 'emailDomain', op: 'eq', value: tok.text }, 'emailDomain', 'emailDomain')] };
  const provider = PROVIDERS[tok.text];
  if (provider && tok.kind === 'word') {
    let e = i + 1;
    while (e < c.toks.length && EMAIL_NOUNS.includes(c.texts[e]) && e - i < 3) e++;
    return { len: e - i, items: [cond(i, e, { field: 'emailDomain', op: 'eq', value: provider }, 'emailDomain', 'emailDomain')] };
  }
  // "email contains sales"
  if ((tok.text === 'email' || tok.text === 'emails') && ['contains', 'containing', 'includes', 'including', 'like'].includes(c.texts[i + 1])) {
    const v = c.toks[i + 2];
    if (v && (v.kind === 'quoted' || v.kind === 'word' || v.kind === 'domain')) {
      const value = (v.kind === 'quoted' ? v.text : v.raw).replace(/\*/g, '');
      if (value) return { len: 3, items: [cond(i, i + 3, { field: 'email', op: 'contains', value }, 'email', 'email')] };
    }
  }
  return undefined;
};

const rCompany: Recogniser = (c, i) => {
  const t = c.texts;
  let k = i;
  let strong = false;
  if (['work', 'works', 'working', 'worked', 'employed'].includes(t[k]) && ['at', 'for', 'with'].includes(t[k + 1])) {
    k += 2;
    strong = true;
  } else if (['employees', 'staff', 'people', 'team', 'folks', 'contacts', 'everyone', 'anyone'].includes(t[k]) && ['at', 'from', 'of'].includes(t[k + 1])) {
    k += 2;
    strong = false;
  } else if (['company', 'companies', 'employer', 'organization', 'organisation'].includes(t[k])) {
    k++;
    if (t[k] === 'name') k++;
    if (['named', 'called', 'is', '=', ':', 'of', 'contains', 'containing', 'includes', 'like'].includes(t[k])) k++;
    strong = true;
  } else if (t[k] === 'at' || t[k] === 'from') {
    k++;
  } else return undefined;
  if (t[k] === 'the' && !c.toks[k].cap) k++;
  const tok = c.toks[k];
  if (!tok) return undefined;
  if (tok.kind === 'domain') return { len: k + 1 - i, items: [cond(i, k + 1, { field: 'emailDomain', op: 'eq', value: tok.text }, 'emailDomain', 'emailDomain')] };
  let value: string | undefined;
  let e = k;
  if (tok.kind === 'quoted') {
    value = tok.text;
    e = k + 1;
  } else {
    const run = properNameRun(c, k);
    if (run > 0) {
      e = k + run;
    } else if (isPlainUnknownWord(c, k) || (strong && tok.kind === 'word' && !FILLERS.has(tok.text) && !BOUNDARIES.has(tok.text))) {
      e = k + 1;
    } else return undefined;
    // legal suffixes are not part of the name ("Acme Corp" -> "Acme")
    while (e < c.toks.length && LEGAL_SUFFIXES.has(t[e].replace(/\.$/, ''))) e++;
    let last = e;
    while (last > k + 1 && LEGAL_SUFFIXES.has(t[last - 1])) last--;
    if (last === k + 1 && LEGAL_SUFFIXES.has(t[k])) return undefined;
    value = rawSpan(c, k, last).replace(/[.,]+$/, '');
    if (t[e] === '.') e++;
  }
  value = value?.replace(/\*/g, '').trim();
  if (!value) return undefined;
  return { len: e - i, items: [cond(i, e, { field: 'company', op: 'contains', value }, 'company', 'company')] };
};

// ---------------------------------------------------------------------------------------------------
// Mentions, inactivity, money, dates

function withHaveBefore(c: GrammarContext, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && ['a', 'an', 'the', 'any', 'valid', 'their', 'some', 'known'].includes(c.texts[j])) j--;
  return j >= 0 && ['with', 'has', 'have', 'having', 'had', 'got'].includes(c.texts[j]);
}

function mentionRecogniser(multiOnly: boolean): Recogniser {
  return (c, i) => {
    const m = MENTIONS.match(c.texts, i);
    if (!m || (multiOnly && m.len < 2)) return undefined;
    return { len: m.len, items: [{ t: 'mention', s: i, e: i + m.len, m: m.value, withHave: withHaveBefore(c, i) }] };
  };
}

const rInactive: Recogniser = (c, i) => {
  const t = c.texts;
  let k = i;
  if (t[k] === 'not' && t[k + 1] === 'active') k += 2;
  else if (['inactive', 'dormant', 'lapsed', 'idle', 'churned', 'lapsing', 'stale'].includes(t[k])) k++;
  else return undefined;
  const start = k;
  // "inactive since January": no purchase since then
  const since = recogniseDate(c, k);
  if (since && since.value.op === 'gte' && t[k] !== 'for' && t[k] !== 'in' && t[k] !== 'over') {
    const e = k + since.len;
    return { len: e - i, items: [cond(i, e, { field: 'lastPurchaseDate', op: 'lt', value: since.value.value as DateExpr }, 'lastPurchaseDate', 'lastPurchaseDate')] };
  }
  if (['for', 'in', 'since', 'over', 'during', 'within'].includes(t[k])) k++;
  if (t[k] === 'the' && ['last', 'past'].includes(t[k + 1])) k += 2;
  if (t[k] === 'over' || t[k] === 'more') k += t[k] === 'more' && t[k + 1] === 'than' ? 2 : 1;
  else if (t[k] === 'at' && t[k + 1] === 'least') k += 2;
  let n: number | undefined;
  const tok = c.toks[k];
  if (tok?.kind === 'number' && Number.isInteger(tok.num)) {
    n = tok.num;
    k++;
  } else if (t[k] === 'a' || t[k] === 'an') {
    n = 1;
    k++;
  }
  if (t[k] === '+') k++;
  const u = UNITS.match(t, k);
  let value: DateExpr = { kind: 'relative', amount: 90, unit: 'day', direction: 'past' };
  let e = start;
  if (u) {
    k += u.len;
    if (t[k] === '+') k++;
    value = { kind: 'relative', amount: n ?? 1, unit: u.value, direction: 'past' };
    e = k;
  }
  return { len: e - i, items: [cond(i, e, { field: 'lastPurchaseDate', op: 'lt', value }, 'lastPurchaseDate', 'lastPurchaseDate')] };
};

interface Amount {
  v: number;
  money: boolean;
  scaled: boolean;
  mult: number;
  len: number;
}

function amountAt(c: GrammarContext, j: number): Amount | undefined {
  let k = j;
  let money = false;
  if (CURRENCY_WORDS.has(c.texts[k]) && c.toks[k + 1]?.kind === 'number') {
    money = true;
    k++;
  }
  const tok = c.toks[k];
  if (!tok || (tok.kind !== 'money' && tok.kind !== 'number') || tok.num === undefined) return undefined;
  if (tok.ordinal) return undefined;
  money = money || tok.kind === 'money';
  const digits = Number(tok.raw.replace(/[^\d.]/g, '')) || tok.num;
  const mult = tok.scaled ? tok.num / digits : 1;
  k++;
  if (CURRENCY_WORDS.has(c.texts[k])) {
    money = true;
    k++;
  } else if (c.texts[k] === 'us' && c.texts[k + 1] === 'dollars') {
    money = true;
    k += 2;
  }
  return { v: tok.num, money, scaled: !!tok.scaled, mult, len: k - j };
}

/** A time unit or a count noun right after an amount means it is not money. */
function notMoneyAfter(c: GrammarContext, j: number, a: Amount): 'unit' | 'count' | undefined {
  if (UNITS.match(c.texts, j) || c.texts[j] === 'ago') return 'unit';
  if (!a.money && !a.scaled && COUNT_NOUNS.has(c.texts[j])) return 'count';
  return undefined;
}

const rValue: Recogniser = (c, i) => {
  const t = c.texts;
  const unknown = (e: number): Match => ({ len: e - i, items: [{ t: 'unknown', s: i, e }] });
  // between A and B / from A to B
  if (t[i] === 'between' || t[i] === 'from') {
    const a = amountAt(c, i + 1);
    if (!a) return undefined;
    const sep = i + 1 + a.len;
    const ok = t[i] === 'between' ? t[sep] === 'and' : ['to', '-', 'until', 'through', 'thru'].includes(t[sep]);
    if (!ok) return undefined;
    const b = amountAt(c, sep + 1);
    if (!b) return undefined;
    const e = sep + 1 + b.len;
    const after = notMoneyAfter(c, e, { ...b, money: a.money || b.money });
    if (after === 'unit') return undefined;
    if (after === 'count') return unknown(e + 1);
    let lo = a.v;
    if (!a.scaled && b.scaled && lo * b.mult <= b.v) lo *= b.mult;
    const hi = b.v;
    return { len: e - i, items: [{ t: 'value', s: i, e, cmp: 'between', a: Math.min(lo, hi), b: Math.max(lo, hi), money: a.money || b.money }] };
  }
  // comparator before
  let k = i;
  let cmp: Cmp | undefined;
  const pre = COMPARATORS_BEFORE.match(t, k);
  if (pre) {
    cmp = pre.value;
    k += pre.len;
    if (t[k] === 'of' || t[k] === 'a' || t[k] === 'the') k++;
  }
  const a = amountAt(c, k);
  if (!a) return undefined;
  let e = k + a.len;
  // A - B / A to B
  if (!cmp && (t[e] === '-' || t[e] === 'to')) {
    const b = amountAt(c, e + 1);
    if (b && (a.money || b.money || a.scaled || b.scaled)) {
      const end = e + 1 + b.len;
      if (!notMoneyAfter(c, end, b)) {
        let lo = a.v;
        if (!a.scaled && b.scaled && lo * b.mult <= b.v) lo *= b.mult;
        return { len: end - i, items: [{ t: 'value', s: i, e: end, cmp: 'between', a: Math.min(lo, b.v), b: Math.max(lo, b.v), money: true }] };
      }
    }
  }
  // comparator after: "5000+", "$10k or more"
  const tok = c.toks[k];
  if (tok.plus) cmp = cmp ?? 'gte';
  const post = COMPARATORS_AFTER.match(t, e);
  // "1k and under" is a comparator; "over 1k and under 5k" is two conditions
  if (post && !(post.value === 'gte' && ['minimum', 'min'].includes(t[e]) && cmp) && !amountAt(c, e + post.len)) {
    cmp = post.value;
    e += post.len;
  }
  const after = notMoneyAfter(c, e, a);
  if (after === 'unit') return undefined;
  if (after === 'count') {
    // "at least one purchase", "more than 0 orders": has purchased
    const purchaseNoun = ['purchase', 'purchases', 'order', 'orders', 'deal', 'deals', 'transactions'].includes(t[e]);
    if (purchaseNoun && ((cmp === 'gte' && a.v === 1) || (cmp === 'gt' && a.v === 0))) {
      return { len: e + 1 - i, items: [cond(i, e + 1, { field: 'hasPurchased', op: 'eq', value: true }, 'hasPurchased', 'hasPurchased')] };
    }
    return cmp ? unknown(e + 1) : undefined;
  }
  if (!cmp) {
    if (!a.money) return undefined;
    cmp = 'eq';
  }
  return { len: e - i, items: [{ t: 'value', s: i, e, cmp, a: a.v, money: a.money }] };
};

const rDate: Recogniser = (c, i) => {
  const d = recogniseDate(c, i);
  if (!d) return undefined;
  return { len: d.len, items: [{ t: 'date', s: i, e: i + d.len, ...d.value }] };
};

// ---------------------------------------------------------------------------------------------------
// Places and lifecycle stages

const PLACE_PREPS: string[][] = [
  ['based', 'in'], ['located', 'in'], ['living', 'in'], ['headquartered', 'in'], ['located', 'at'], ['who', 'live', 'in'],
  ['in'], ['from'], ['within'], ['across'], ['throughout'], ['inside'], ['out', 'of'],
];
const FIELD_WORDS: Record<string, 'country' | 'state' | 'city' | 'region'> = {
  country: 'country', state: 'state', province: 'state', city: 'city', town: 'city', region: 'region',
};
const CITY_GUESS_PREPS = new Set(['in', 'based in', 'located in', 'living in', 'headquartered in', 'who live in']);

function placeCondition(v: PlaceValue): { node: Condition; field: string } {
  switch (v.field) {
    case 'region':
      return v.values.length === 1
        ? { node: { field: 'region', op: 'eq', value: v.values[0] }, field: 'region' }
        : { node: { field: 'region', op: 'in', values: [...v.values] }, field: 'region' };
    case 'countries':
      return { node: { field: 'country', op: 'in', values: [...v.values] }, field: 'country' };
    default:
      return { node: { field: v.field, op: 'eq', value: v.value }, field: v.field };
  }
}

const rPlace: Recogniser = (c, i) => {
  const t = c.texts;
  let k = i;
  let prep: string | undefined;
  for (const p of PLACE_PREPS) {
    if (words(c, k, p)) {
      prep = p.join(' ');
      k += p.length;
      break;
    }
  }
  if (t[k] === 'the') k++;
  let forced: 'country' | 'state' | 'city' | 'region' | undefined;
  const fw = FIELD_WORDS[t[k]];
  if (fw) {
    const after = ['is', '=', ':', 'of'].includes(t[k + 1]) ? k + 2 : k + 1;
    const next = c.toks[after];
    if (next && (PLACES.match(t, after) || isProperName(c, after) || next.kind === 'quoted' || (STATE_CODES.has(t[after]) && next.upper))) {
      forced = fw;
      k = after;
    }
  }
  const m = PLACES.match(t, k);
  if (m) {
    const v = m.value;
    const first = c.toks[k];
    // lower-case "us" is the pronoun ("show us", "bought from us") unless it reads as a place ("in the us")
    if (t[k] === 'us' && m.len === 1 && !first.upper && t[k - 1] !== 'the' && (!prep || prep === 'from')) return undefined;
    if ('ambiguous' in v && v.ambiguous && !first.cap && !first.upper) return undefined;
    const e = k + m.len;
    let { node, field } = placeCondition(v);
    if (forced && forced !== field && 'value' in v && forced !== 'region') {
      // "country Georgia", "city of Washington": the field said explicitly wins
      const canonical = forced === 'country' ? COUNTRIES.find((x) => x.toLowerCase() === t.slice(k, e).join(' ')) ?? rawSpan(c, k, e) : v.value;
      node = { field: forced, op: 'eq', value: canonical };
      field = forced;
    }
    return { len: e - i, items: [cond(i, e, node, 'location', field)] };
  }
  // US state codes: "CA", "in TX"
  const code = t[k];
  const tok = c.toks[k];
  if (tok && tok.kind === 'word' && code && code.length === 2 && STATE_CODES.has(code)) {
    const okUpper = tok.upper && (!AMBIGUOUS_STATE_CODES.has(code) || prep !== undefined);
    const okLower = !tok.upper && prep !== undefined && !AMBIGUOUS_STATE_CODES.has(code);
    if (okUpper || okLower) {
      const name = STATE_CODES.get(code) as string;
      return { len: k + 1 - i, items: [cond(i, k + 1, { field: 'state', op: 'eq', value: name }, 'location', 'state')] };
    }
  }
  // an unknown capitalised place after "in": read as a city
  if ((prep && CITY_GUESS_PREPS.has(prep)) || forced) {
    const quoted = c.toks[k]?.kind === 'quoted';
    const run = quoted ? 1 : properNameRun(c, k, 3);
    if (run > 0) {
      const value = quoted ? c.toks[k].text : rawSpan(c, k, k + run);
      const field = forced && forced !== 'region' ? forced : 'city';
      const e = k + run;
      return { len: e - i, items: [cond(i, e, { field, op: 'eq', value }, 'location', field, `"${value}" is a ${field}`)] };
    }
  }
  return undefined;
};

const rLifecycle: Recogniser = (c, i) => {
  const t = c.texts;
  let k = i;
  let explicit = false;
  // "lifecycle stage is lead", "stage = customer", "in the customer stage"
  const stageWords = words(c, k, ['lifecycle', 'stage']) ? 2 : t[k] === 'stage' || t[k] === 'lifecycle' ? 1 : 0;
  if (stageWords && ['is', '=', ':', 'of'].includes(t[k + stageWords])) {
    k += stageWords + 1;
    explicit = true;
  } else if (stageWords && STAGES.match(t, k + stageWords)) {
    k += stageWords;
    explicit = true;
  }
  let qualified = explicit;
  while (CUSTOMER_QUALIFIERS.has(t[k]) && STAGES.match(t, k + 1)) {
    qualified = true;
    k++;
  }
  if (words(c, k, ['closed', 'won'])) {
    qualified = true;
    k += 2;
  }
  const m = STAGES.match(t, k);
  if (!m) return undefined;
  let e = k + m.len;
  if (t[e] === 'only') {
    qualified = true;
    e++;
  }
  if (t[e] === 'stage' || t[e] === 'lifecycle') e++;
  const prev = t[i - 1];
  if (prev && (PREDICATE_WORDS.has(prev) || prev === 'only')) qualified = true;
  const generic = m.value.generic === true && !qualified;
  return { len: e - i, items: [{ t: 'lifecycle', s: i, e, stage: m.value.stage, generic }] };
};

// ---------------------------------------------------------------------------------------------------
// Structure words

const rNeg: Recogniser = (c, i) => {
  const m = NEGATORS.match(c.texts, i);
  if (!m) return undefined;
  return { len: m.len, items: [{ t: 'neg', s: i, e: i + m.len, kind: m.value }] };
};

const rConnector: Recogniser = (c, i) => {
  const x = c.texts[i];
  if (x === 'or' || x === '/' || x === 'and/or') return { len: 1, items: [{ t: 'or', s: i, e: i + 1 }] };
  if (x === 'either' && c.texts[i + 1]) return { len: 1, items: [] };
  if (x === 'and' || x === '&' || words(c, i, ['as', 'well', 'as']) || x === 'plus') {
    const len = x === 'as' ? 3 : 1;
    return { len, items: [{ t: 'and', s: i, e: i + len }] };
  }
  if (x === ',') return { len: 1, items: [{ t: 'comma', s: i, e: i + 1 }] };
  if (BOUNDARIES.has(x)) return { len: 1, items: [{ t: 'boundary', s: i, e: i + 1 }] };
  return undefined;
};

const MULTI_FILLERS: string[][] = [
  ['would', 'like', 'to'], ['would', 'like'], ["i'd", 'like'], ['like', 'to', 'see'], ['so', 'far'], ['list', 'of'], ['how', 'many'],
  ['show', 'me'], ['can', 'you'], ['i', 'want'], ['ending', 'in'], ['ending', 'with'], ['end', 'in'], ['that', 'are'], ['who', 'are'],
  ['the', 'number', 'of'], ['number', 'of'], ['count', 'of'],
];

const rFiller: Recogniser = (c, i) => {
  for (const ws of MULTI_FILLERS) if (words(c, i, ws)) return { len: ws.length, items: [] };
  if (FILLERS.has(c.texts[i])) return { len: 1, items: [] };
  return undefined;
};

/** The order in which recognisers are tried at each position. */
export const RECOGNISERS: Recogniser[] = [
  rSort,
  rName,
  rEmail,
  rCompany,
  mentionRecogniser(true),
  rInactive,
  rValue,
  rDate,
  rPlace,
  rLifecycle,
  mentionRecogniser(false),
  rNeg,
  rConnector,
  rFiller,
];

export function scan(c: GrammarContext): Item[] {
  const items: Item[] = [];
  let i = 0;
  while (i < c.toks.length) {
    let matched = false;
    for (const r of RECOGNISERS) {
      const m = r(c, i);
      if (m && m.len > 0) {
        items.push(...m.items);
        i += m.len;
        matched = true;
        break;
      }
    }
    if (!matched) {
      items.push({ t: 'unknown', s: i, e: i + 1 });
      i++;
    }
  }
  return items;
}

export type { Region };
