/**
 * First pass of the parser: the token stream becomes a list of items (conditions, unbound values and
 * dates, field mentions, stage words, negations, connectors, sort/limit requests, unknown words).
 * Each recogniser looks at the tokens from a position and consumes what it understands; recognisers are
 * tried in a fixed order (see RECOGNISERS). The second pass (assemble.ts) binds values to fields and
 * builds the boolean tree. Word lists live in lexicon.ts.
 */
import type { Condition, DateExpr, LifecycleStage, LifecycleValue, Region, SegmentNode, SortField } from '../ast.js';
import { COUNTRIES } from '../regions.js';
import { recogniseDate, type DateContext, type DateItemValue } from './dates.js';
import type { KnownCompanies } from './known-companies.js';
import { FUNCTION_WORDS, isEnglishWord, isVocabulary } from './fuzzy.js';
import {
  AMBIGUOUS_STATE_CODES,
  BOUNDARIES,
  CITY_GUESS_PREPOSITIONS,
  COMPANY_VALUE_LINKS,
  COMPANY_WORDS,
  COMPARATORS_AFTER,
  COMPARATORS_BEFORE,
  CONTAINS_WORDS,
  COUNT_NOUNS,
  CURRENCY_WORDS,
  CUSTOMER_QUALIFIERS,
  DURATION_PREPOSITIONS,
  EMAIL_NOUNS,
  EMAIL_PROVIDERS,
  FILLERS,
  HAVE_DETERMINERS,
  HAVE_WORDS,
  INACTIVITY_WORDS,
  LEGAL_SUFFIXES,
  MENTIONS,
  MULTI_WORD_FILLERS,
  NEGATORS,
  PLACE_FIELD_WORDS,
  PLACE_PREPOSITIONS,
  PLACES,
  PREDICATE_WORDS,
  PURCHASE_COUNT_NOUNS,
  PURCHASE_NOUNS,
  RANGE_SEPARATORS,
  SORT_DIRECTIONS,
  SORT_VERBS,
  STAFF_NOUNS,
  STAFF_PREPOSITIONS,
  STAGES,
  EXPLICIT_STAGE_VALUES,
  STATE_CODES,
  SUBJECT_NOUNS,
  SUPERLATIVES,
  UNITS,
  VALUE_LINKS,
  WORK_PREPOSITIONS,
  WORK_VERBS,
  type Cmp,
  type Mention,
  type NegKind,
  type PlaceValue,
  type SortDirection,
} from './lexicon.js';

export type Slot = string;

/** Token positions covered by an item: [start, end). */
interface Span {
  start: number;
  end: number;
}

export type Item = Span &
  (
    | { type: 'condition'; node: SegmentNode; slot: Slot; field: string; guess?: string }
    | { type: 'lifecycle'; stage: LifecycleStage; generic: boolean; hubspot?: LifecycleValue[] }
    | { type: 'value'; comparison: Cmp | 'between'; amount: number; highAmount?: number; money: boolean }
    | ({ type: 'date' } & DateItemValue)
    | { type: 'mention'; mention: Mention; negation?: NegKind; withHave?: boolean; bound?: Item[] }
    | { type: 'negation'; negation: NegKind }
    | { type: 'or' }
    | { type: 'and' }
    | { type: 'comma' }
    | { type: 'boundary' }
    | { type: 'sort'; field?: SortField; direction: SortDirection; limit?: number; superlative: boolean }
    | { type: 'sortBy'; field: SortField; direction?: SortDirection }
    | { type: 'limit'; count: number }
    | { type: 'unknown' }
  );

export interface GrammarContext extends DateContext {
  /** The CRM's own company values, when the caller has them (known-companies.ts). */
  knownCompanies?: KnownCompanies;
}

/** What a recogniser consumed: `length` tokens, read as `items`. */
interface Match {
  length: number;
  items: Item[];
}

type Recogniser = (ctx: GrammarContext, at: number) => Match | undefined;

function condition(start: number, end: number, node: Condition | SegmentNode, slot: Slot, field: string, guess?: string): Item {
  return { type: 'condition', start, end, node, slot, field, guess };
}

/** A match of one condition over tokens [at, end). */
function conditionMatch(at: number, end: number, node: Condition, slot: Slot, field: string = slot, guess?: string): Match {
  return { length: end - at, items: [condition(at, end, node, slot, field, guess)] };
}

/** Whether the words from `at` are `phrase`. */
function phraseAt(ctx: GrammarContext, at: number, phrase: readonly string[]): boolean {
  return phrase.every((word, offset) => ctx.texts[at + offset] === word);
}

/** A capitalised word that is not part of the parser's vocabulary (a name). */
function isProperName(ctx: GrammarContext, at: number): boolean {
  const token = ctx.tokens[at];
  return !!token && token.kind === 'word' && token.cap && !isVocabulary(token.text) && !FILLERS.has(token.text);
}

function isPlainUnknownWord(ctx: GrammarContext, at: number): boolean {
  const token = ctx.tokens[at];
  return !!token && token.kind === 'word' && !isVocabulary(token.text) && !FILLERS.has(token.text) && token.text.length > 1;
}

/** Number of consecutive proper-name words from `at` (at most `max`; legal suffixes may follow a name). */
function properNameRun(ctx: GrammarContext, at: number, max = 4): number {
  let end = at;
  while (
    end < ctx.tokens.length &&
    end - at < max &&
    (isProperName(ctx, end) || (end > at && ctx.tokens[end].kind === 'word' && ctx.tokens[end].cap && LEGAL_SUFFIXES.has(ctx.texts[end])))
  ) end++;
  return end - at;
}

/** Consecutive capitalised words from `at` that may form a name (not function words, stages or numbers). */
function capitalisedRun(ctx: GrammarContext, at: number, max = 5): number {
  let end = at;
  while (end < ctx.tokens.length && end - at < max) {
    const t = ctx.tokens[end];
    if (t.kind !== 'word' || !t.cap || FUNCTION_WORDS.has(t.text) || BOUNDARIES.has(t.text) || STAGES.match(ctx.texts, end)) break;
    if (t.upper && t.raw.length <= 3 && end === at) break; // "from the US", "at UK" : codes, not names
    end++;
  }
  return end - at;
}

/** The question's own text of tokens [start, end). */
function sourceText(ctx: GrammarContext, start: number, end: number): string {
  return ctx.source.slice(ctx.tokens[start].start, ctx.tokens[end - 1].end);
}

// ---------------------------------------------------------------------------------------------------
// Sorting and limits

/** A small positive integer written as digits ("top 10"), not an amount or an ordinal. */
function smallCount(ctx: GrammarContext, at: number): number | undefined {
  const token = ctx.tokens[at];
  if (
    token?.kind === 'number' && !token.scaled && !token.plus && !token.ordinal && Number.isInteger(token.num) &&
    (token.num as number) >= 1 && (token.num as number) <= 10_000 && !/[,.]/.test(token.raw)
  ) return token.num;
  return undefined;
}

function sortFieldAt(ctx: GrammarContext, at: number): { field: SortField; length: number } | undefined {
  const match = MENTIONS.match(ctx.texts, at);
  if (!match) return undefined;
  const field = match.value.sort ?? match.value.money ?? (match.value.date as SortField | undefined);
  return field ? { field, length: match.len } : undefined;
}

const isSuperlativeAt = (ctx: GrammarContext, at: number) => SUPERLATIVES.some((s) => phraseAt(ctx, at, s.phrase));

const recogniseSort: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  // "sorted by X", "order by X", "by X"
  let pos = at;
  if (SORT_VERBS.has(words[pos]) && words[pos + 1] === 'by') pos += 2;
  else if (words[pos] === 'by') pos += 1;
  if (pos > at) {
    const sortField = sortFieldAt(ctx, pos);
    if (sortField) {
      let end = pos + sortField.length;
      if (words[end] === 'date' && (sortField.field === 'lastPurchaseDate' || sortField.field === 'createdAt')) end++;
      let direction: SortDirection | undefined;
      let directionAt = end;
      if (words[directionAt] === 'in') directionAt++;
      for (const d of SORT_DIRECTIONS) {
        if (phraseAt(ctx, directionAt, d.phrase)) {
          direction = d.direction;
          end = directionAt + d.phrase.length;
          if (words[end] === 'order') end++;
          break;
        }
      }
      return { length: end - at, items: [{ type: 'sortBy', start: at, end, field: sortField.field, direction }] };
    }
    if (pos - at === 2) return undefined;
  }
  if (words[at] === 'alphabetically' || phraseAt(ctx, at, ['in', 'alphabetical', 'order'])) {
    const length = words[at] === 'alphabetically' ? 1 : 3;
    return { length, items: [{ type: 'sortBy', start: at, end: at + length, field: 'lastName', direction: 'asc' }] };
  }
  // "top 10", "bottom 5", "top" ("top spenders" etc. are superlatives, below)
  if ((words[at] === 'top' || words[at] === 'bottom') && !(smallCount(ctx, at + 1) === undefined && isSuperlativeAt(ctx, at))) {
    const count = smallCount(ctx, at + 1);
    const length = count !== undefined ? 2 : 1;
    const direction = words[at] === 'top' ? 'desc' : 'asc';
    return { length, items: [{ type: 'sort', start: at, end: at + length, direction, limit: count, superlative: count === undefined }] };
  }
  // "first 20", "limit 20", "limit to 20"
  if (words[at] === 'first' || words[at] === 'limit') {
    const offset = words[at + 1] === 'to' ? 2 : 1;
    const count = smallCount(ctx, at + offset);
    if (count !== undefined) return { length: offset + 1, items: [{ type: 'limit', start: at, end: at + offset + 1, count }] };
  }
  for (const s of SUPERLATIVES) {
    if (phraseAt(ctx, at, s.phrase)) {
      const length = s.keepsNoun ? s.phrase.length - 1 : s.phrase.length;
      return { length, items: [{ type: 'sort', start: at, end: at + length, field: s.field, direction: s.direction, superlative: true }] };
    }
  }
  // "most recent buyers", "latest purchases" / "latest leads"
  const recentLength = phraseAt(ctx, at, ['most', 'recent']) ? 2 : words[at] === 'latest' ? 1 : 0;
  if (recentLength > 0) {
    const noun = words[at + recentLength];
    const isMention = (MENTIONS.match(words, at)?.len ?? 0) > recentLength; // "most recent purchase was over $300"
    if (noun && !isMention && (PURCHASE_NOUNS.has(noun) || SUBJECT_NOUNS.has(noun) || STAGES.match(words, at + recentLength))) {
      const byPurchase = PURCHASE_NOUNS.has(noun) || (recentLength === 2 && (noun === 'customers' || noun === 'clients'));
      const field: SortField = byPurchase ? 'lastPurchaseDate' : 'createdAt';
      return { length: recentLength, items: [{ type: 'sort', start: at, end: at + recentLength, field, direction: 'desc', superlative: true }] };
    }
  }
  // "25 leads", "the 50 most valuable customers": a count before a noun or a superlative
  const count = smallCount(ctx, at);
  if (count !== undefined) {
    const next = words[at + 1];
    const nextIsNoun = next !== undefined && (SUBJECT_NOUNS.has(next) || STAGES.match(words, at + 1) !== undefined);
    const nextIsSuperlative = isSuperlativeAt(ctx, at + 1) || phraseAt(ctx, at + 1, ['most', 'recent']) || next === 'latest';
    const qualified = next !== undefined && CUSTOMER_QUALIFIERS.has(next);
    if ((nextIsNoun || nextIsSuperlative || qualified) && !UNITS.match(words, at + 1)) {
      return { length: 1, items: [{ type: 'limit', start: at, end: at + 1, count }] };
    }
  }
  return undefined;
};

// ---------------------------------------------------------------------------------------------------
// Names, e-mail, companies

/** Value after a name trigger: a quoted string, 1-2 proper names, or one unknown word. */
function nameValue(ctx: GrammarContext, at: number): { value: string; length: number } | undefined {
  const token = ctx.tokens[at];
  if (!token) return undefined;
  if (token.kind === 'quoted') return { value: token.text, length: 1 };
  const run = properNameRun(ctx, at, 2);
  if (run > 0) return { value: sourceText(ctx, at, at + run), length: run };
  if (token.kind === 'word' && token.cap && !FILLERS.has(token.text)) return { value: token.raw, length: 1 };
  if (isPlainUnknownWord(ctx, at)) return { value: token.raw, length: 1 };
  return undefined;
}

const recogniseName: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  let pos = at;
  let field: 'name' | 'firstName' | 'lastName' | undefined;
  let op: 'eq' | 'contains' = 'eq';
  if (words[pos] === 'named' || words[pos] === 'called') {
    field = 'name';
    pos++;
  } else {
    const mention = MENTIONS.match(words, pos);
    if (mention && (mention.value.presence === 'firstName' || mention.value.presence === 'lastName')) {
      field = words[pos] === 'name' || words[pos] === 'names' ? 'name' : mention.value.presence;
      pos += mention.len;
      if (VALUE_LINKS.has(words[pos])) pos++;
      else if (CONTAINS_WORDS.has(words[pos])) {
        op = 'contains';
        pos++;
      }
      if (field !== 'name' && op === 'contains') return undefined;
    }
  }
  if (!field) return undefined;
  const value = nameValue(ctx, pos);
  if (!value) return undefined;
  const end = pos + value.length;
  const node: Condition =
    field === 'name' ? { field: 'name', op, value: value.value.replace(/\*/g, '') } : { field, op: 'eq', value: value.value };
  return conditionMatch(at, end, node, 'name', field);
};

const recogniseEmail: Recogniser = (ctx, at) => {
  const token = ctx.tokens[at];
  if (token.kind === 'email') return conditionMatch(at, at + 1, { field: 'email', op: 'eq', value: token.text }, 'email');
  if (token.kind === 'domain') return conditionMatch(at, at + 1, { field: 'emailDomain', op: 'eq', value: token.text }, 'emailDomain');
  const provider = EMAIL_PROVIDERS.get(token.text);
  if (provider && token.kind === 'word') {
    let end = at + 1;
    while (end < ctx.tokens.length && EMAIL_NOUNS.has(ctx.texts[end]) && end - at < 3) end++;
    return conditionMatch(at, end, { field: 'emailDomain', op: 'eq', value: provider }, 'emailDomain');
  }
  // "email contains sales"
  const next = ctx.texts[at + 1];
  if ((token.text === 'email' || token.text === 'emails') && (CONTAINS_WORDS.has(next) || next === 'including')) {
    const valueToken = ctx.tokens[at + 2];
    if (valueToken && (valueToken.kind === 'quoted' || valueToken.kind === 'word' || valueToken.kind === 'domain')) {
      const value = (valueToken.kind === 'quoted' ? valueToken.text : valueToken.raw).replace(/\*/g, '');
      if (value) return conditionMatch(at, at + 3, { field: 'email', op: 'contains', value }, 'email');
    }
  }
  return undefined;
};

const recogniseCompany: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  let pos = at;
  // "works at X" and "company is X" surely name a company; "at X" / "employees of X" only a name-like X
  let certain = false;
  if (WORK_VERBS.has(words[pos]) && WORK_PREPOSITIONS.has(words[pos + 1])) {
    pos += 2;
    certain = true;
  } else if (STAFF_NOUNS.has(words[pos]) && STAFF_PREPOSITIONS.has(words[pos + 1])) {
    pos += 2;
  } else if (COMPANY_WORDS.has(words[pos])) {
    pos++;
    if (words[pos] === 'name') pos++;
    if (COMPANY_VALUE_LINKS.has(words[pos])) pos++;
    certain = true;
  } else if (words[pos] === 'at' || words[pos] === 'from') {
    pos++;
  } else return undefined;
  if (words[pos] === 'the' && !ctx.tokens[pos].cap) pos++;
  const token = ctx.tokens[pos];
  if (!token) return undefined;
  // one of the CRM's own companies ("from Turner Outdoor Group", "at nguyen consulting"), unless a place
  // reads at least as far ("from Georgia" stays the state, "from Georgia Pacific" is the company)
  const known = ctx.knownCompanies?.match(words, pos);
  if (known && (PLACES.match(words, pos)?.len ?? 0) < known.len) {
    return conditionMatch(at, pos + known.len, { field: 'company', op: 'contains', value: known.value }, 'company');
  }
  // "from Jordan Tech", "at Blue Harbor Logistics": a run of capitalised words is a company name unless
  // the whole run is a place ("from New York City") or a list of places ("from Paris, France")
  const capRun = capitalisedRun(ctx, pos);
  if (capRun >= 2 && PLACES.match(words, pos)?.len !== capRun) {
    let allPlaces = true;
    for (let k = pos; k < pos + capRun; ) {
      const place = PLACES.match(words, k);
      if (!place) {
        allPlaces = false;
        break;
      }
      k += place.len;
    }
    if (!allPlaces) {
      let nameEnd = pos + capRun;
      while (nameEnd > pos + 1 && LEGAL_SUFFIXES.has(words[nameEnd - 1].replace(/\.$/, ''))) nameEnd--;
      const value = sourceText(ctx, pos, nameEnd).replace(/[.,]+$/, '');
      return conditionMatch(at, pos + capRun, { field: 'company', op: 'contains', value }, 'company');
    }
  }
  if (token.kind === 'domain') return conditionMatch(at, pos + 1, { field: 'emailDomain', op: 'eq', value: token.text }, 'emailDomain');
  let value: string | undefined;
  let end = pos;
  if (token.kind === 'quoted') {
    value = token.text;
    end = pos + 1;
  } else {
    const run = properNameRun(ctx, pos);
    if (run > 0) {
      end = pos + run;
    } else if (isPlainUnknownWord(ctx, pos) || (certain && token.kind === 'word' && !FILLERS.has(token.text) && !BOUNDARIES.has(token.text))) {
      end = pos + 1;
    } else return undefined;
    // legal suffixes are not part of the name ("Acme Corp" -> "Acme")
    while (end < ctx.tokens.length && LEGAL_SUFFIXES.has(words[end].replace(/\.$/, ''))) end++;
    let nameEnd = end;
    while (nameEnd > pos + 1 && LEGAL_SUFFIXES.has(words[nameEnd - 1])) nameEnd--;
    if (nameEnd === pos + 1 && LEGAL_SUFFIXES.has(words[pos])) return undefined;
    value = sourceText(ctx, pos, nameEnd).replace(/[.,]+$/, '');
    if (words[end] === '.') end++;
  }
  value = value?.replace(/\*/g, '').trim();
  if (!value) return undefined;
  return conditionMatch(at, end, { field: 'company', op: 'contains', value }, 'company');
};

// ---------------------------------------------------------------------------------------------------
// Mentions, inactivity, money, dates

/** "with a valid email", "has a company": a presence test rather than a value. */
function followsHave(ctx: GrammarContext, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && HAVE_DETERMINERS.has(ctx.texts[before])) before--;
  return before >= 0 && HAVE_WORDS.has(ctx.texts[before]);
}

/** Field mentions; `multiWordOnly` lets longer phrases win before other recognisers see their words. */
function mentionRecogniser(multiWordOnly: boolean): Recogniser {
  return (ctx, at) => {
    const match = MENTIONS.match(ctx.texts, at);
    if (!match || (multiWordOnly && match.len < 2)) return undefined;
    return { length: match.len, items: [{ type: 'mention', start: at, end: at + match.len, mention: match.value, withHave: followsHave(ctx, at) }] };
  };
}

const recogniseInactivity: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  let pos = at;
  if (words[pos] === 'not' && words[pos + 1] === 'active') pos += 2;
  else if (INACTIVITY_WORDS.has(words[pos])) pos++;
  else return undefined;
  const afterWord = pos;
  const lastPurchaseBefore = (end: number, value: DateExpr) =>
    conditionMatch(at, end, { field: 'lastPurchaseDate', op: 'lt', value }, 'lastPurchaseDate');
  // "inactive since January": no purchase since then
  const since = recogniseDate(ctx, pos);
  if (since && since.value.op === 'gte' && words[pos] !== 'for' && words[pos] !== 'in' && words[pos] !== 'over') {
    return lastPurchaseBefore(pos + since.len, since.value.value as DateExpr);
  }
  if (DURATION_PREPOSITIONS.has(words[pos])) pos++;
  if (words[pos] === 'the' && ['last', 'past'].includes(words[pos + 1])) pos += 2;
  if (words[pos] === 'over' || words[pos] === 'more') pos += words[pos] === 'more' && words[pos + 1] === 'than' ? 2 : 1;
  else if (words[pos] === 'at' && words[pos + 1] === 'least') pos += 2;
  let count: number | undefined;
  const token = ctx.tokens[pos];
  if (token?.kind === 'number' && Number.isInteger(token.num)) {
    count = token.num;
    pos++;
  } else if (words[pos] === 'a' || words[pos] === 'an') {
    count = 1;
    pos++;
  }
  if (words[pos] === '+') pos++;
  const unit = UNITS.match(words, pos);
  if (!unit) return lastPurchaseBefore(afterWord, { kind: 'relative', amount: 90, unit: 'day', direction: 'past' });
  pos += unit.len;
  if (words[pos] === '+') pos++;
  return lastPurchaseBefore(pos, { kind: 'relative', amount: count ?? 1, unit: unit.value, direction: 'past' });
};

interface Amount {
  value: number;
  money: boolean;
  scaled: boolean;
  /** the scale written with the number (1,000 for "5k") */
  multiplier: number;
  length: number;
}

function amountAt(ctx: GrammarContext, at: number): Amount | undefined {
  let pos = at;
  let money = false;
  if (CURRENCY_WORDS.has(ctx.texts[pos]) && ctx.tokens[pos + 1]?.kind === 'number') {
    money = true;
    pos++;
  }
  const token = ctx.tokens[pos];
  if (!token || (token.kind !== 'money' && token.kind !== 'number') || token.num === undefined) return undefined;
  if (token.ordinal) return undefined;
  money = money || token.kind === 'money';
  const digits = Number(token.raw.replace(/[^\d.]/g, '')) || token.num;
  const multiplier = token.scaled ? token.num / digits : 1;
  pos++;
  if (CURRENCY_WORDS.has(ctx.texts[pos])) {
    money = true;
    pos++;
  } else if (ctx.texts[pos] === 'us' && ctx.texts[pos + 1] === 'dollars') {
    money = true;
    pos += 2;
  }
  return { value: token.num, money, scaled: !!token.scaled, multiplier, length: pos - at };
}

/** A time unit or a count noun right after an amount means it is not money. */
function notMoneyAfter(ctx: GrammarContext, at: number, amount: Amount): 'unit' | 'count' | undefined {
  if (UNITS.match(ctx.texts, at) || ctx.texts[at] === 'ago') return 'unit';
  if (!amount.money && !amount.scaled && COUNT_NOUNS.has(ctx.texts[at])) return 'count';
  return undefined;
}

/** "between 5 and 25k": an unscaled low bound takes the high bound's scale when that keeps it lower. */
function lowBound(low: Amount, high: Amount): number {
  return !low.scaled && high.scaled && low.value * high.multiplier <= high.value ? low.value * high.multiplier : low.value;
}

const recogniseValue: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  const unknown = (end: number): Match => ({ length: end - at, items: [{ type: 'unknown', start: at, end }] });
  const range = (end: number, low: number, high: number, money: boolean): Match => ({
    length: end - at,
    items: [{ type: 'value', start: at, end, comparison: 'between', amount: Math.min(low, high), highAmount: Math.max(low, high), money }],
  });
  // between A and B / from A to B
  if (words[at] === 'between' || words[at] === 'from') {
    const low = amountAt(ctx, at + 1);
    if (!low) return undefined;
    const separator = at + 1 + low.length;
    const separated = words[at] === 'between' ? words[separator] === 'and' : RANGE_SEPARATORS.has(words[separator]);
    if (!separated) return undefined;
    const high = amountAt(ctx, separator + 1);
    if (!high) return undefined;
    const end = separator + 1 + high.length;
    const after = notMoneyAfter(ctx, end, { ...high, money: low.money || high.money });
    if (after === 'unit') return undefined;
    if (after === 'count') return unknown(end + 1);
    return range(end, lowBound(low, high), high.value, low.money || high.money);
  }
  // comparator before
  let pos = at;
  let comparison: Cmp | undefined;
  const before = COMPARATORS_BEFORE.match(words, pos);
  if (before) {
    comparison = before.value;
    pos += before.len;
    if (words[pos] === 'of' || words[pos] === 'a' || words[pos] === 'the') pos++;
  }
  const amount = amountAt(ctx, pos);
  if (!amount) return undefined;
  let end = pos + amount.length;
  // A - B / A to B
  if (!comparison && (words[end] === '-' || words[end] === 'to')) {
    const high = amountAt(ctx, end + 1);
    if (high && (amount.money || high.money || amount.scaled || high.scaled)) {
      const rangeEnd = end + 1 + high.length;
      if (!notMoneyAfter(ctx, rangeEnd, high)) return range(rangeEnd, lowBound(amount, high), high.value, true);
    }
  }
  // comparator after: "5000+", "$10k or more"
  if (ctx.tokens[pos].plus) comparison = comparison ?? 'gte';
  const after = COMPARATORS_AFTER.match(words, end);
  // "1k and under" is a comparator; "over 1k and under 5k" is two conditions
  if (after && !(after.value === 'gte' && ['minimum', 'min'].includes(words[end]) && comparison) && !amountAt(ctx, end + after.len)) {
    comparison = after.value;
    end += after.len;
  }
  const notMoney = notMoneyAfter(ctx, end, amount);
  if (notMoney === 'unit') return undefined;
  if (notMoney === 'count') {
    // "at least one purchase", "more than 0 orders": has purchased
    const hasPurchased = PURCHASE_COUNT_NOUNS.has(words[end]) && ((comparison === 'gte' && amount.value === 1) || (comparison === 'gt' && amount.value === 0));
    if (hasPurchased) return conditionMatch(at, end + 1, { field: 'hasPurchased', op: 'eq', value: true }, 'hasPurchased');
    return comparison ? unknown(end + 1) : undefined;
  }
  if (!comparison) {
    if (!amount.money) return undefined;
    comparison = 'eq';
  }
  return { length: end - at, items: [{ type: 'value', start: at, end, comparison, amount: amount.value, money: amount.money }] };
};

const recogniseDateItem: Recogniser = (ctx, at) => {
  const date = recogniseDate(ctx, at);
  if (!date) return undefined;
  return { length: date.len, items: [{ type: 'date', start: at, end: at + date.len, ...date.value }] };
};

// ---------------------------------------------------------------------------------------------------
// Places and lifecycle stages

function placeCondition(place: PlaceValue): { node: Condition; field: string } {
  switch (place.field) {
    case 'region':
      return place.values.length === 1
        ? { node: { field: 'region', op: 'eq', value: place.values[0] }, field: 'region' }
        : { node: { field: 'region', op: 'in', values: [...place.values] }, field: 'region' };
    case 'countries':
      return { node: { field: 'country', op: 'in', values: [...place.values] }, field: 'country' };
    default:
      return { node: { field: place.field, op: 'eq', value: place.value }, field: place.field };
  }
}

const recognisePlace: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  let pos = at;
  let preposition: string | undefined;
  for (const phrase of PLACE_PREPOSITIONS) {
    if (phraseAt(ctx, pos, phrase)) {
      preposition = phrase.join(' ');
      pos += phrase.length;
      break;
    }
  }
  if (words[pos] === 'the') pos++;
  let forcedField: 'country' | 'state' | 'city' | 'region' | undefined;
  const fieldWord = PLACE_FIELD_WORDS.get(words[pos]);
  if (fieldWord) {
    const valueAt = VALUE_LINKS.has(words[pos + 1]) ? pos + 2 : pos + 1;
    const next = ctx.tokens[valueAt];
    if (next && (PLACES.match(words, valueAt) || isProperName(ctx, valueAt) || next.kind === 'quoted' || (STATE_CODES.has(words[valueAt]) && next.upper))) {
      forcedField = fieldWord;
      pos = valueAt;
    }
  }
  const place = PLACES.match(words, pos);
  if (place) {
    const first = ctx.tokens[pos];
    // lower-case "us" is the pronoun ("show us", "bought from us") unless it reads as a place ("in the us")
    if (words[pos] === 'us' && place.len === 1 && !first.upper && words[pos - 1] !== 'the' && (!preposition || preposition === 'from')) return undefined;
    if ('ambiguous' in place.value && place.value.ambiguous && !first.cap && !first.upper) return undefined;
    const end = pos + place.len;
    let { node, field } = placeCondition(place.value);
    if (forcedField && forcedField !== field && 'value' in place.value && forcedField !== 'region') {
      // "country Georgia", "city of Washington": the field said explicitly wins
      const said = words.slice(pos, end).join(' ');
      const value = forcedField === 'country' ? COUNTRIES.find((x) => x.toLowerCase() === said) ?? sourceText(ctx, pos, end) : place.value.value;
      node = { field: forcedField, op: 'eq', value };
      field = forcedField;
    }
    return conditionMatch(at, end, node, 'location', field);
  }
  // US state codes: "CA", "in TX"
  const code = words[pos];
  const token = ctx.tokens[pos];
  if (token && token.kind === 'word' && code && code.length === 2 && STATE_CODES.has(code)) {
    const upperCaseCode = token.upper && (!AMBIGUOUS_STATE_CODES.has(code) || preposition !== undefined);
    const lowerCaseCode = !token.upper && preposition !== undefined && !AMBIGUOUS_STATE_CODES.has(code);
    if (upperCaseCode || lowerCaseCode) {
      return conditionMatch(at, pos + 1, { field: 'state', op: 'eq', value: STATE_CODES.get(code) as string }, 'location', 'state');
    }
  }
  // an unknown capitalised place after "in": read as a city
  if ((preposition && CITY_GUESS_PREPOSITIONS.has(preposition)) || forcedField) {
    const quoted = ctx.tokens[pos]?.kind === 'quoted';
    let run = quoted ? 1 : properNameRun(ctx, pos, 3);
    // an English word ("the Enterprise tier") is not guessed to be a city
    if (!quoted && run > 0 && ctx.tokens.slice(pos, pos + run).every((t) => isEnglishWord(t.text))) run = 0;
    if (run > 0) {
      const value = quoted ? ctx.tokens[pos].text : sourceText(ctx, pos, pos + run);
      const field = forcedField && forcedField !== 'region' ? forcedField : 'city';
      return conditionMatch(at, pos + run, { field, op: 'eq', value }, 'location', field, `"${value}" is a ${field}`);
    }
  }
  return undefined;
};

const recogniseLifecycle: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  let pos = at;
  let explicit = false;
  // "lifecycle stage is lead", "stage = customer", "in the customer stage"
  const stageWords = phraseAt(ctx, pos, ['lifecycle', 'stage']) ? 2 : words[pos] === 'stage' || words[pos] === 'lifecycle' ? 1 : 0;
  if (stageWords && VALUE_LINKS.has(words[pos + stageWords])) {
    pos += stageWords + 1;
    explicit = true;
  } else if (stageWords && (STAGES.match(words, pos + stageWords) || EXPLICIT_STAGE_VALUES.match(words, pos + stageWords))) {
    pos += stageWords;
    explicit = true;
  }
  let qualified = explicit;
  while (CUSTOMER_QUALIFIERS.has(words[pos]) && STAGES.match(words, pos + 1)) {
    qualified = true;
    pos++;
  }
  if (phraseAt(ctx, pos, ['closed', 'won'])) {
    qualified = true;
    pos += 2;
  }
  const stage = STAGES.match(words, pos) ?? (explicit ? EXPLICIT_STAGE_VALUES.match(words, pos) : undefined);
  if (!stage) return undefined;
  let end = pos + stage.len;
  if (words[end] === 'only') {
    qualified = true;
    end++;
  }
  if (words[end] === 'stage' || words[end] === 'lifecycle') end++;
  const previous = words[at - 1];
  if (previous && (PREDICATE_WORDS.has(previous) || previous === 'only')) qualified = true;
  const generic = stage.value.generic === true && !qualified;
  return { length: end - at, items: [{ type: 'lifecycle', start: at, end, stage: stage.value.stage, generic, hubspot: stage.value.hubspot }] };
};

// ---------------------------------------------------------------------------------------------------
// Structure words

const recogniseNegation: Recogniser = (ctx, at) => {
  const match = NEGATORS.match(ctx.texts, at);
  if (!match) return undefined;
  return { length: match.len, items: [{ type: 'negation', start: at, end: at + match.len, negation: match.value }] };
};

const recogniseConnector: Recogniser = (ctx, at) => {
  const word = ctx.texts[at];
  if (word === 'or' || word === '/' || word === 'and/or') return { length: 1, items: [{ type: 'or', start: at, end: at + 1 }] };
  if (word === 'either' && ctx.texts[at + 1]) return { length: 1, items: [] };
  if (word === 'and' || word === '&' || phraseAt(ctx, at, ['as', 'well', 'as']) || word === 'plus') {
    const length = word === 'as' ? 3 : 1;
    return { length, items: [{ type: 'and', start: at, end: at + length }] };
  }
  if (word === ',') return { length: 1, items: [{ type: 'comma', start: at, end: at + 1 }] };
  if (BOUNDARIES.has(word)) return { length: 1, items: [{ type: 'boundary', start: at, end: at + 1 }] };
  return undefined;
};

const recogniseFiller: Recogniser = (ctx, at) => {
  for (const phrase of MULTI_WORD_FILLERS) if (phraseAt(ctx, at, phrase)) return { length: phrase.length, items: [] };
  if (FILLERS.has(ctx.texts[at])) return { length: 1, items: [] };
  return undefined;
};

/** The order in which recognisers are tried at each position. */
export const RECOGNISERS: Recogniser[] = [
  recogniseSort,
  recogniseName,
  recogniseEmail,
  recogniseCompany,
  // "with lifecycle stage evangelist": the stage named, before "lifecycle stage" is read as a mention
  (ctx, at) => (ctx.texts[at] === 'lifecycle' || ctx.texts[at] === 'stage' ? recogniseLifecycle(ctx, at) : undefined),
  mentionRecogniser(true),
  recogniseInactivity,
  recogniseValue,
  recogniseDateItem,
  recognisePlace,
  recogniseLifecycle,
  mentionRecogniser(false),
  recogniseNegation,
  recogniseConnector,
  recogniseFiller,
];

export function scan(ctx: GrammarContext): Item[] {
  const items: Item[] = [];
  let at = 0;
  while (at < ctx.tokens.length) {
    let matched = false;
    for (const recognise of RECOGNISERS) {
      const match = recognise(ctx, at);
      if (match && match.length > 0) {
        items.push(...match.items);
        at += match.length;
        matched = true;
        break;
      }
    }
    if (!matched) {
      items.push({ type: 'unknown', start: at, end: at + 1 });
      at++;
    }
  }
  return items;
}

export type { Region };
