/**
 * First pass of the parser: the token stream becomes a list of items (conditions, unbound values and
 * dates, field mentions, stage words, negations, connectors, sort/limit requests, unknown words).
 * Each recogniser looks at the tokens from a position and consumes what it understands; recognisers are
 * tried in a fixed order (see RECOGNISERS). The second pass (assemble.ts) binds values to fields and
 * builds the boolean tree. Word lists live in lexicon.ts.
 */
import type { Condition, DateExpr, LifecycleStage, LifecycleValue, Region, SegmentNode, SortField } from '../ast.js';
import { isCondition } from '../ast.js';
import nlp from 'compromise';
import { CANADIAN_PROVINCES, COUNTRIES, countriesOfPlace } from '../regions.js';
import { LIFECYCLE_HUBSPOT_VALUES, LIFECYCLE_VALUES } from '../../crm/hubspot/model/lifecycle.js';
import { recogniseDate, type DateContext, type DateItemValue } from './dates.js';
import { DISCOURSE_ADVERBS, isSmallTalk, requestFrameWords } from './discourse.js';
import type { KnownCompanies } from './known-companies.js';
import type { CrmVocabulary } from './vocabulary.js';
import { COUNTRY_CODES, codeReadings } from './place-codes.js';
import { getPublicSuffix } from 'tldts';
import { tokenize } from './lexer.js';
import { FREE_MAIL_DOMAINS, MAJOR_FREE_MAIL, PERSONAL_MAIL_WORDS, WORK_MAIL_WORDS } from './free-mail.js';
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
  ISO_CURRENCIES,
  CUSTOMER_QUALIFIERS,
  DURATION_PREPOSITIONS,
  EMAIL_NOUNS,
  EMAIL_PROVIDERS,
  FILLERS,
  HAVE_DETERMINERS,
  HAVE_WORDS,
  INACTIVITY_WORDS,
  INCLUDING_WORDS,
  NEW_SUBJECT_WORDS,
  QUIT_OBJECTS,
  QUIT_VERBS,
  VAGUE_PERIODS,
  LEGAL_SUFFIXES,
  MENTIONS,
  MULTI_WORD_FILLERS,
  NEGATORS,
  PLACE_FIELD_WORDS,
  PLACE_PREPOSITIONS,
  PLACES,
  MONTHS,
  PURPOSE_NOUNS,
  PURPOSE_OPENERS,
  PRESENCE_STATES,
  NAME_OPERATOR_WORDS,
  COUNT_ADVERBS,
  VALUE_DESCRIPTORS,
  GENERIC_NOUNS,
  INTENSIFIERS,
  CLAUSE_ENDS,
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
  type DescriptorKind,
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
    | {
        type: 'condition';
        node: SegmentNode;
        slot: Slot;
        field: string;
        guess?: string;
        /** the inactivity default (90 days): yields to a period the question gives ("inactive, no orders in 6 months") */
        byDefault?: boolean;
        /** a value not in the CRM's vocabulary, read from the structure ("recipients in oldenburg") */
        unverified?: string;
        /** other readings of the same words ("Victoria": the state or the city), offered when it asks */
        alternatives?: Array<{ label: string; node: SegmentNode }>;
        /** what to say about the alternatives */
        issue?: string;
        /** a place typed with no word before it ("bogota medellin leads"): a list when another follows */
        bare?: boolean;
        /** "work emails", "personal addresses": the largest free providers, unless the question names its own */
        mailKind?: boolean;
      }
    | { type: 'lifecycle'; stage: LifecycleStage; generic: boolean; hubspot?: LifecycleValue[]; joined?: boolean }
    /** `bare`: an amount with no comparison word ("customers with ltv $5k"): exactly that, or at least? asked */
    | { type: 'value'; comparison: Cmp | 'between'; amount: number; highAmount?: number; money: boolean; bare?: boolean; /** an upper bound not included ("5-figure") */ below?: number }
    | ({ type: 'date' } & DateItemValue)
    | { type: 'mention'; mention: Mention; negation?: NegKind; withHave?: boolean; bound?: Item[] }
    /** `scope: 'clause'`: "everyone except customers who bought this month" negates the whole relative clause */
    | { type: 'negation'; negation: NegKind; scope?: 'clause' }
    /** `clause`: a new subject follows ("…, or anyone with …"): the OR is between whole clauses */
    | { type: 'or'; clause?: 'subject' | 'conditions' }
    | { type: 'and' }
    | { type: 'comma' }
    | { type: 'boundary'; word: string }
    /** what the list is for, or a title before a colon: no condition, said in a note */
    | { type: 'aside'; text: string }
    /** "vip", "high-value": described by the amount the question gives, otherwise not understood */
    | { type: 'descriptor'; text: string; kind: DescriptorKind }
    | { type: 'sort'; field?: SortField; direction: SortDirection; limit?: number; superlative: boolean; soft?: boolean; /** the noun ranked is singular ("the newest lead", "top spender"): one */ one?: boolean }
    | { type: 'sortBy'; field: SortField; direction?: SortDirection }
    | { type: 'limit'; count: number }
    /** `count`: a number counting something there is no field for ("10+ support tickets") */
    | { type: 'unknown'; count?: boolean; adverb?: boolean; /** a condition the product has no field for ("my accounts", an age): never a name or an aside */ unanswerable?: boolean }
  );

export interface GrammarContext extends DateContext {
  /** The CRM's own company values, when the caller has them (known-companies.ts). */
  knownCompanies?: KnownCompanies;
  /** The CRM's own values (vocabulary.ts), when the caller has them. */
  vocabulary?: CrmVocabulary;
  /** the item read last (scan keeps it): a list continues what came before ("at Acme or Initech") */
  previous?: Item;
  /** the items read so far */
  items?: Item[];
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
  return ctx.source.slice(ctx.tokens[start].start, ctx.tokens[end - 1].end).replace(/\s+/g, ' ');
}

// ---------------------------------------------------------------------------------------------------
// Sorting and limits

/** A small positive integer written as digits ("top 10"), not an amount or an ordinal. */
function smallCount(ctx: GrammarContext, at: number): number | undefined {
  const token = ctx.tokens[at];
  if (
    token?.kind === 'number' && !token.spokenYear && !token.scaled && !token.plus && !token.ordinal && Number.isInteger(token.num) &&
    (token.num as number) >= 1 && (token.num as number) <= 10_000 && !/[,.]/.test(token.raw) && ctx.texts[at + 1] !== '%'
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

/** Nouns whose singular after a superlative asks for one contact ("the newest lead", "their top spender"). */
const SINGULAR_HEADS = new Set(['lead', 'customer', 'contact', 'buyer', 'spender', 'client', 'account', 'subscriber', 'person', 'purchaser', 'evangelist', 'opportunity', 'opp', 'prospect', 'signup', 'user', 'member', 'one', 'acct', 'mql', 'sql']);
const singularAt = (ctx: GrammarContext, k: number) => SINGULAR_HEADS.has(ctx.texts[k] ?? '');

/** "newest first", "oldest first": an order by the creation date. */
const FIRST_ORDER: Record<string, SortDirection> = { newest: 'desc', latest: 'desc', oldest: 'asc', earliest: 'asc' };

const recogniseSort: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  // ("sorted newest first", "ordered by oldest first": the verb says the same as "newest first")
  const verb = SORT_VERBS.has(words[at]) ? (words[at + 1] === 'by' ? 2 : 1) : 0;
  if (verb > 0 && FIRST_ORDER[words[at + verb]] && words[at + verb + 1] === 'first') {
    return { length: verb + 2, items: [{ type: 'sortBy', start: at, end: at + verb + 2, field: 'createdAt', direction: FIRST_ORDER[words[at + verb]] }] };
  }
  // "sorted by X", "order by X", "by X"
  let pos = at;
  if (SORT_VERBS.has(words[pos]) && words[pos + 1] === 'by') pos += 2;
  else if (words[pos] === 'by') pos += 1;
  // ("top 5 clients as per lifetime value", "according to ltv": by, as non-native speakers and reports say it)
  else if ((words[pos] === 'as' && words[pos + 1] === 'per') || (words[pos] === 'according' && words[pos + 1] === 'to')) pos += 2;
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
  // ", newest first" / ", highest first" after a sort: its direction
  const previous = ctx.items?.filter((x) => x.type !== 'comma').at(-1);
  if (previous?.type === 'sortBy') {
    for (const d of SORT_DIRECTIONS) {
      if (phraseAt(ctx, at, d.phrase)) return { length: d.phrase.length, items: [{ type: 'sortBy', start: at, end: at + d.phrase.length, field: previous.field, direction: d.direction }] };
    }
  }
  // "newest first", "oldest first": an order with no limit; "newest purchase first", "latest order first": by
  // the last purchase
  if (FIRST_ORDER[words[at]] && words[at + 1] === 'first') {
    return { length: 2, items: [{ type: 'sortBy', start: at, end: at + 2, field: 'createdAt', direction: FIRST_ORDER[words[at]] }] };
  }
  const firstOrder = FIRST_ORDER;
  const recentOrder = firstOrder[words[at]] ?? (phraseAt(ctx, at, ['most', 'recent']) ? 'desc' : undefined);
  const orderNounAt = at + (words[at] === 'most' ? 2 : 1);
  if (recentOrder && ['purchase', 'purchases', 'order', 'orders', 'buy', 'sale'].includes(words[orderNounAt]) && words[orderNounAt + 1] === 'first') {
    return { length: orderNounAt + 2 - at, items: [{ type: 'sortBy', start: at, end: orderNounAt + 2, field: 'lastPurchaseDate', direction: recentOrder }] };
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
    // "top 50 ltv emea", "top 10 aov": the field ranked follows the count
    const ranked = count !== undefined && !PURCHASE_NOUNS.has(words[at + 2]) && !SUBJECT_NOUNS.has(words[at + 2]) ? sortFieldAt(ctx, at + 2) : undefined;
    if (ranked && !COMPARATORS_BEFORE.match(words, at + 2 + ranked.length) && amountAt(ctx, at + 2 + ranked.length) === undefined) {
      return { length: 2 + ranked.length, items: [{ type: 'sort', start: at, end: at + 2 + ranked.length, field: ranked.field, direction, limit: count, superlative: false }] };
    }
    return { length, items: [{ type: 'sort', start: at, end: at + length, direction, limit: count, superlative: count === undefined, one: count === undefined && singularAt(ctx, at + 1) }] };
  }
  // "first 20", "limit 20", "limit to 20"
  if (words[at] === 'first' || words[at] === 'limit') {
    const offset = words[at + 1] === 'to' ? 2 : 1;
    const count = smallCount(ctx, at + offset);
    if (count !== undefined) return { length: offset + 1, items: [{ type: 'limit', start: at, end: at + offset + 1, count }] };
  }
  // "the highest dollar amount of sales", "lowest total spend": a superlative before any amount field ranks by it
  const rank: Record<string, SortDirection> = { highest: 'desc', biggest: 'desc', largest: 'desc', greatest: 'desc', lowest: 'asc', smallest: 'asc' };
  const ranked = rank[words[at]] ? sortFieldAt(ctx, at + 1) : undefined;
  if (ranked && (ranked.field === 'lifetimeValue' || ranked.field === 'lastPurchaseAmount') && !SUPERLATIVES.some((s) => phraseAt(ctx, at, s.phrase) && s.phrase.length > ranked.length + 1)) {
    // "highest ltv first", "largest order first": an order, with no limit
    if (words[at + 1 + ranked.length] === 'first') return { length: 2 + ranked.length, items: [{ type: 'sortBy', start: at, end: at + 2 + ranked.length, field: ranked.field, direction: rank[words[at]] }] };
    return { length: 1 + ranked.length, items: [{ type: 'sort', start: at, end: at + 1 + ranked.length, field: ranked.field, direction: rank[words[at]], superlative: true }] };
  }
  for (const s of SUPERLATIVES) {
    if (phraseAt(ctx, at, s.phrase)) {
      const length = s.keepsNoun ? s.phrase.length - 1 : s.phrase.length;
      // "oldest 15 leads", "biggest 5 spenders": the count between the superlative and its noun
      const n = s.keepsNoun ? undefined : smallCount(ctx, at + length);
      const noun = words[at + length + 1];
      // ("…, newest 20": the count closes the clause)
      const closes = noun === undefined || noun === ',' || noun === '.' || noun === ';' || (BOUNDARIES.has(noun) && !UNITS.match(words, at + length + 1));
      if (n !== undefined && (closes || SUBJECT_NOUNS.has(noun) || STAGES.match(words, at + length + 1) !== undefined)) {
        return { length: length + 1, items: [{ type: 'sort', start: at, end: at + length + 1, field: s.field, direction: s.direction, limit: n, superlative: true, soft: s.soft }] };
      }
      // "biggest spenders first", "newest leads first" (the noun kept): an order, with no limit
      if (words[at + length] === 'first' && !s.keepsNoun) return { length: length + 1, items: [{ type: 'sortBy', start: at, end: at + length + 1, field: s.field, direction: s.direction }] };
      return { length, items: [{ type: 'sort', start: at, end: at + length, field: s.field, direction: s.direction, superlative: true, soft: s.soft, one: singularAt(ctx, at + length) }] };
    }
  }
  // "most recent buyers", "latest purchases" / "latest leads"
  const recentLength = phraseAt(ctx, at, ['most', 'recent']) ? 2 : words[at] === 'latest' ? 1 : 0;
  if (recentLength > 0) {
    // "most recent 15 buyers": the count between the superlative and its noun
    const n = smallCount(ctx, at + recentLength);
    const nounAt = at + recentLength + (n !== undefined ? 1 : 0);
    const noun = words[nounAt];
    if (n !== undefined && noun && (PURCHASE_NOUNS.has(noun) || SUBJECT_NOUNS.has(noun) || STAGES.match(words, nounAt))) {
      const byPurchase = PURCHASE_NOUNS.has(noun) || noun === 'customers' || noun === 'clients';
      const field: SortField = byPurchase ? 'lastPurchaseDate' : 'createdAt';
      return { length: recentLength + 1, items: [{ type: 'sort', start: at, end: at + recentLength + 1, field, direction: 'desc', limit: n, superlative: true }] };
    }
    const isMention = (MENTIONS.match(words, at)?.len ?? 0) > recentLength; // "most recent purchase was over $300"
    if (noun && !isMention && (PURCHASE_NOUNS.has(noun) || SUBJECT_NOUNS.has(noun) || STAGES.match(words, at + recentLength))) {
      const byPurchase = PURCHASE_NOUNS.has(noun) || (recentLength === 2 && (noun === 'customers' || noun === 'clients'));
      const field: SortField = byPurchase ? 'lastPurchaseDate' : 'createdAt';
      return { length: recentLength, items: [{ type: 'sort', start: at, end: at + recentLength, field, direction: 'desc', superlative: true, one: singularAt(ctx, at + recentLength) }] };
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
  // "first name starts with a": an operator there is no field for, not a name
  if (NAME_OPERATOR_WORDS.has(ctx.texts[at])) return undefined;
  if (token.kind === 'quoted') return { value: token.text, length: 1 };
  const run = properNameRun(ctx, at, 2);
  if (run > 0) return { value: sourceText(ctx, at, at + run), length: run };
  if (token.kind === 'word' && token.cap && !FILLERS.has(token.text)) return { value: token.raw, length: 1 };
  // "named john paul": a second word that is no keyword belongs to the name
  if (isPlainUnknownWord(ctx, at)) return { value: isPlainUnknownWord(ctx, at + 1) && !BOUNDARIES.has(ctx.texts[at + 1]) ? sourceText(ctx, at, at + 2) : token.raw, length: isPlainUnknownWord(ctx, at + 1) && !BOUNDARIES.has(ctx.texts[at + 1]) ? 2 : 1 };
  return undefined;
}

const recogniseName: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  // "last name is garcia or rodriguez": a list of names continues
  const prev = ctx.previous;
  if (prev?.type === 'condition' && prev.slot === 'name' && prev.end === at && (words[at] === 'or' || words[at] === ',') && ctx.tokens[at + 1]) {
    const more = nameValue(ctx, at + 1);
    const cond = 'field' in prev.node ? prev.node : undefined;
    if (more && cond && cond.op === 'eq' && !PLACES.match(words, at + 1)) {
      const node = { ...cond, value: more.value } as Condition;
      const joiner: Item = words[at] === 'or' ? { type: 'or', start: at, end: at + 1 } : { type: 'comma', start: at, end: at + 1 };
      return { length: 1 + more.length, items: [joiner, condition(at + 1, at + 1 + more.length, node, 'name', prev.field)] };
    }
  }
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

const MAIL_WORDS = new Set(['email', 'emails', 'mail', 'mails', 'mailbox', 'mailboxes', 'webmail', 'inbox', 'inboxes']);
const MAIL_AFTER = new Set(['address', 'addresses', 'account', 'accounts', 'provider', 'providers', 'domain', 'domains', 'service', 'services']);
/** Words of examples after a personal-mail phrase: "(gmail, hotmail etc)", "like gmail or yahoo". */
const EXAMPLE_WORDS = new Set([',', 'etc', '.', 'and', 'or', '/', 'eg', 'e.g', 'e.g.', 'e', 'g', 'like', 'such', 'as', 'so', 'on', 'the', 'other', 'others', 'similar', '&']);

/**
 * "personal emails", "private email addresses", "free mail providers": the domains of free mail providers
 * (free-mail.ts) — the CRM's own ones when its values are known, else the largest providers. Examples that
 * follow in brackets ("(gmail, hotmail etc)") are part of the phrase.
 */
function personalMail(ctx: GrammarContext, at: number): Match | undefined {
  const work = WORK_MAIL_WORDS.has(ctx.texts[at]);
  if (!PERSONAL_MAIL_WORDS.has(ctx.texts[at]) && !work) return undefined;
  let end = at + 1;
  if (ctx.texts[end] === 'e' && ctx.texts[end + 1] === '-' && ctx.texts[end + 2] === 'mail') end += 2;
  if (!MAIL_WORDS.has(ctx.texts[end])) return undefined;
  end++;
  if (MAIL_AFTER.has(ctx.texts[end])) end++;
  end = examplesAfter(ctx, end);
  if (ctx.texts[end] === '(') {
    let k = end + 1;
    const named: string[] = [];
    let hedged = false;
    while (k < ctx.tokens.length && ctx.texts[k] !== ')' && (EXAMPLE_WORDS.has(ctx.texts[k]) || EMAIL_PROVIDERS.has(ctx.texts[k]) || (ctx.tokens[k].kind === 'domain' && FREE_MAIL_DOMAINS.has(ctx.texts[k])))) {
      const domain = EMAIL_PROVIDERS.has(ctx.texts[k]) ? providerDomain(ctx, ctx.texts[k]) : ctx.tokens[k].kind === 'domain' ? ctx.texts[k] : undefined;
      if (domain) named.push(domain);
      else if (HEDGE_WORDS.has(ctx.texts[k])) hedged = true;
      k++;
    }
    if (ctx.texts[k] === ')') {
      // "(gmail.com, yahoo.com or outlook.com)": a list with no "etc" or "like" is the definition, not examples
      if (named.length > 0 && !hedged && !work) {
        const values = [...new Set(named)];
        return conditionMatch(at, k + 1, values.length === 1 ? { field: 'emailDomain', op: 'eq', value: values[0] } : { field: 'emailDomain', op: 'in', values }, 'emailDomain');
      }
      end = k + 1;
    }
  }
  return mailKindMatch(ctx, at, end, work);
}
/**
 * Where examples of providers after a personal-mail phrase end ("not a personal one like gmail", "personal emails such
 * as yahoo or aol"): they illustrate the kind, they do not narrow it. `end` when none follow.
 */
function examplesAfter(ctx: GrammarContext, end: number): number {
  const t = ctx.texts;
  const lead = t[end] === 'like' || t[end] === 'including' ? 1 : t[end] === 'such' && t[end + 1] === 'as' ? 2 : t[end] === 'eg' ? 1 : 0;
  if (lead === 0) return end;
  let k = end + lead;
  if (!freeProviderAt(ctx, k)) return end;
  k++;
  while ([',', 'or', 'and', '/', '&'].includes(t[k] ?? '') && freeProviderAt(ctx, k + 1)) k += 2;
  if (t[k] === 'etc' || (t[k] === 'and' && t[k + 1] === 'so' && t[k + 2] === 'on')) k += t[k] === 'etc' ? 1 : 3;
  return k;
}

/** The domain of a free provider named at token `k` ("gmail" → gmail.com, "gmx.de"), or undefined. */
function freeProviderAt(ctx: GrammarContext, k: number): string | undefined {
  const token = ctx.tokens[k];
  if (token?.kind === 'word') return EMAIL_PROVIDERS.get(token.text);
  return token?.kind === 'domain' && FREE_MAIL_DOMAINS.has(token.text) ? token.text : undefined;
}

/** A provider's domain as the CRM holds it ("proton" → proton.me when the CRM has it, else protonmail.com). */
function providerDomain(ctx: GrammarContext, provider: string): string | undefined {
  const own = ctx.vocabulary?.hasDomains() ? ctx.vocabulary.personalDomains() : [];
  const standard = EMAIL_PROVIDERS.get(provider);
  if (standard && own.includes(standard)) return standard;
  return own.find((d) => d.split('.')[0] === provider || d.split('.')[0] === standard?.split('.')[0]) ?? standard;
}
/** Words that make a list of providers examples ("gmail, hotmail etc", "e.g. gmail", "like yahoo"). */
const HEDGE_WORDS = new Set(['etc', 'eg', 'e.g', 'e.g.', 'g', 'like', 'such', 'similar', 'other', 'others', 'so', 'on']);

/**
 * The free providers' domains (the CRM's own ones when its values are known, else the largest providers) as a
 * condition over tokens [start, end): any of them ("personal emails"), or none of them for `work` ("work emails").
 */
function mailKindMatch(ctx: GrammarContext, start: number, end: number, work: boolean): Match {
  const own = ctx.vocabulary?.hasDomains() ? ctx.vocabulary.personalDomains() : [];
  const values = own.length > 0 ? own : MAJOR_FREE_MAIL;
  // "work emails", "business addresses": any domain but a free provider's
  const match = work
    ? conditionMatch(start, end, { field: 'emailDomain', op: 'not_in', values: [...values] }, 'emailDomain')
    : conditionMatch(start, end, values.length === 1 ? { field: 'emailDomain', op: 'eq', value: values[0] } : { field: 'emailDomain', op: 'in', values: [...values] }, 'emailDomain');
  (match.items[0] as Extract<Item, { type: 'condition' }>).mailKind = true;
  return match;
}

/**
 * "work emails only - everyone in germany not on gmail/gmx/outlook": providers the question names define its
 * "work" or "personal" e-mail; the general reading becomes an aside.
 */
function namedProviders(ctx: GrammarContext, items: Item[]): Item[] {
  // (a domain said after a negation excludes it: "company emails, not acme.com" keeps the company emails)
  const domainsNamed = (free: boolean) => items.some((x, k) => x.type === 'condition' && (free || (items[k - 1]?.type !== 'negation' && isCondition(x.node) && x.node.op !== 'not_in' && x.node.op !== 'neq')) && !x.mailKind && x.field === 'emailDomain' && isCondition(x.node) && x.node.field === 'emailDomain' && conditionValues(x.node).every((d) => FREE_MAIL_DOMAINS.has(String(d)) === free && !String(d).startsWith('.')));
  const named = domainsNamed(true);
  // "company emails at hiebltelecom.de": a company's own domain says more than "a company email" (which it is)
  const work = domainsNamed(false);
  if (!named && !work) return items;
  return items.map((x) => (x.type === 'condition' && x.mailKind && (named || (work && isCondition(x.node) && x.node.op === 'not_in')) ? { type: 'aside', start: x.start, end: x.end, text: sourceText(ctx, x.start, x.end) } : x));
}

const conditionValues = (n: Condition): unknown[] => ('values' in n ? n.values : 'value' in n ? [n.value] : []);

const recogniseEmail: Recogniser = (ctx, at) => {
  const token = ctx.tokens[at];
  if (token.kind === 'email') return conditionMatch(at, at + 1, { field: 'email', op: 'eq', value: token.text }, 'email');
  // ("a proton.me mail", "gmx.de address": the noun after the domain is part of it)
  if (token.kind === 'domain') return domainMatch(ctx, at, at + (['mail', 'email', 'emails', 'address', 'addresses', 'account', 'accounts', 'domain'].includes(ctx.texts[at + 1]) ? 2 : 1), token.text);
  const personal = personalMail(ctx, at);
  if (personal) return personal;
  // ("a personal gmail, yahoo or hotmail address": the kind said before the providers named)
  const kindFirst = (token.text === 'personal' || token.text === 'private') && EMAIL_PROVIDERS.has(ctx.texts[at + 1] ?? '') ? 1 : 0;
  const provider = EMAIL_PROVIDERS.get(ctx.texts[at + kindFirst]);
  if (provider && ctx.tokens[at + kindFirst].kind === 'word') {
    let end = at + kindFirst + 1;
    // "gmail/gmx/outlook", "gmail, yahoo or hotmail", "gmail yahoo hotmail": providers (or their domains) in a list
    // are one list (a contact has one address, so they are never all required)
    const domains = [provider];
    for (;;) {
      const sep = ctx.texts[end] === ',' && ['or', 'and'].includes(ctx.texts[end + 1]) ? 2 : ['/', ',', 'or', 'and', '&'].includes(ctx.texts[end]) ? 1 : 0;
      const domain = freeProviderAt(ctx, end + sep);
      if (!domain) break;
      domains.push(domain);
      end += sep + 1;
    }
    if (domains.length > 1) {
      while (end < ctx.tokens.length && EMAIL_NOUNS.has(ctx.texts[end]) && end - at < domains.length * 3 + 2) end++;
      return conditionMatch(at, end, { field: 'emailDomain', op: 'in', values: [...new Set(domains)] }, 'emailDomain');
    }
    while (end < ctx.tokens.length && EMAIL_NOUNS.has(ctx.texts[end]) && end - at < 3) end++;
    return conditionMatch(at, end, { field: 'emailDomain', op: 'eq', value: provider }, 'emailDomain');
  }
  // "an acme email", "initech addresses": the CRM's domain of that name (asked when it has several)
  const nounAfter = ctx.texts[at + 1];
  if (token.kind === 'word' && ctx.vocabulary && (nounAfter === 'email' || nounAfter === 'emails' || nounAfter === 'address' || nounAfter === 'addresses' || nounAfter === 'domain') && !isVocabulary(token.text)) {
    const domains = ctx.vocabulary.domainsNamed(token.text);
    if (domains.length === 1) return conditionMatch(at, at + 2, { field: 'emailDomain', op: 'eq', value: domains[0] }, 'emailDomain');
    if (domains.length > 1) return conditionMatch(at, at + 2, { field: 'emailDomain', op: 'in', values: domains }, 'emailDomain');
  }
  // "email contains sales"
  const next = ctx.texts[at + 1];
  if ((token.text === 'email' || token.text === 'emails') && (CONTAINS_WORDS.has(next) || next === 'including')) {
    const valueToken = ctx.tokens[at + 2];
    if (valueToken && (valueToken.kind === 'quoted' || valueToken.kind === 'word' || valueToken.kind === 'domain')) {
      // ("email like '%@gmail.com'": SQL's wildcards are "*"'s; an address's end from its "@" is its domain)
      const value = (valueToken.kind === 'quoted' ? valueToken.text : valueToken.raw).replace(/[*%]/g, '');
      const domain = /^@([a-z0-9-]+(?:\.[a-z0-9-]+)+)$/i.exec(value)?.[1];
      if (domain) return domainMatch(ctx, at, at + 3, domain.toLowerCase());
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
  // ("people that work in Brightpath": "in" before one of the CRM's companies that is no place)
  const workIn = words[pos + 1] === 'in' && (ctx.knownCompanies?.match(words, pos + 2)?.len ?? 0) > (PLACES.match(words, pos + 2)?.len ?? 0);
  if (WORK_VERBS.has(words[pos]) && (WORK_PREPOSITIONS.has(words[pos + 1]) || workIn)) {
    pos += 2;
    certain = true;
    // "working at a company called Trueleaf"
    const called = [['a', 'company', 'called'], ['a', 'company', 'named'], ['the', 'company'], ['a', 'company']].find((p) => phraseAt(ctx, pos, p));
    if (called) pos += called.length;
  } else if (STAFF_NOUNS.has(words[pos]) && STAFF_PREPOSITIONS.has(words[pos + 1])) {
    pos += 2;
  } else if (COMPANY_WORDS.has(words[pos])) {
    pos++;
    if (words[pos] === 'name') pos++;
    if (COMPANY_VALUE_LINKS.has(words[pos])) pos++;
    // "company industry is healthcare": a word after "company" that is no name is an attribute of it
    else if (!(ctx.tokens[pos]?.kind === 'quoted' || ctx.tokens[pos]?.cap || ctx.knownCompanies?.match(words, pos))) return undefined;
    certain = true;
  } else if (words[pos] === 'at' || words[pos] === 'from') {
    // "signups from q1", "from last month": a date, not a company
    if (recogniseDate(ctx, at)) return undefined;
    pos++;
  } else return undefined;
  if (words[pos] === 'the' && !ctx.tokens[pos].cap) pos++;
  const token = ctx.tokens[pos];
  if (!token) return undefined;
  let guessed = false;
  // one of the CRM's own companies ("from Turner Outdoor Group", "at nguyen consulting"), unless a place
  // reads at least as far ("from Georgia" stays the state, "from Georgia Pacific" is the company)
  const known = ctx.knownCompanies?.match(words, pos, { singleWord: modifierWord });
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
      return companyMatch(ctx, at, pos + capRun, value, false);
    }
  }
  if (token.kind === 'domain') return domainMatch(ctx, at, pos + 1, token.text);
  // "leads from CH", "from DE": a country's or a state's code in capitals after "from" is the place (recognisePlace),
  // not a company named "CH" (which a company name holding those letters would silently find)
  if (!certain && token.upper && token.raw.length === 2 && (COUNTRY_CODES.has(words[pos]) || STATE_CODES.has(words[pos])) && !TEAM_ABBREVIATIONS.has(words[pos])) return undefined;
  let value: string | undefined;
  let end = pos;
  if (token.kind === 'quoted') {
    value = token.text;
    end = pos + 1;
  } else {
    const run = properNameRun(ctx, pos);
    if (run > 0) {
      end = pos + run;
    } else if (certain && token.kind === 'word' && !FILLERS.has(token.text) && !BOUNDARIES.has(token.text)) {
      end = pos + 1;
    } else if (isPlainUnknownWord(ctx, pos) && ctx.knownCompanies && ctx.knownCompanies.size > 0 && !isEnglishWord(words[pos]) && ctx.knownCompanies.containing(words[pos])) {
      // "leads at orbitpeak": a word of one of the CRM's company names ("Orbitpeak Foods")
      end = pos + 1;
    } else if (isPlainUnknownWord(ctx, pos) && !ctx.knownCompanies && !isEnglishWord(words[pos])) {
      // "from initech" without the CRM's names: a guess, asked about ("from the webinar", "from linkedin" are
      // not companies unless the CRM has them)
      end = pos + 1;
      guessed = true;
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
  return companyMatch(ctx, at, end, value, guessed);
};

/** An e-mail domain; one none of the CRM's addresses has ("harbrocraft.com.au") is asked about. */
function domainMatch(ctx: GrammarContext, at: number, end: number, domain: string): Match {
  // "co.uk emails", "com.au addresses": a public suffix on its own is every domain under it (".co.uk")
  if (!domain.startsWith('.') && getPublicSuffix(domain) === domain) domain = `.${domain}`;
  const match = conditionMatch(at, end, { field: 'emailDomain', op: 'eq', value: domain }, 'emailDomain');
  const v = ctx.vocabulary;
  if (!domain.startsWith('.') && v?.hasDomains() && !v.hasDomain(domain)) (match.items[0] as Extract<Item, { type: 'condition' }>).unverified = domain;
  return match;
}

/** What is said before a person looked up by name ("find sarah chen", "is there a yuki tanaka in here"). */
const LOOKUP_LEADS: readonly (readonly string[])[] = [['find'], ['look', 'up'], ['lookup'], ['search', 'for'], ['is', 'there', 'a'], ['is', 'there', 'an'], ['do', 'we', 'have', 'a'], ['do', 'we', 'have', 'an'], ['who', 'is'], ['whos'], ["who's"], ['pull', 'up']];
const LOOKUP_ENDS = new Set(['in', '?', '.', '!', 'on', 'at', 'from']);

/**
 * "find sarah chen", "look up john smith": two (or three) words after a look-up phrase that are not the
 * product's words, a place, a stage or a company the CRM holds are a person's full name.
 */
const recogniseLookupName: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  // ("look up john smith": the "up" of the phrase is part of the match)
  const from = words[at] === 'up' && (words[at - 1] === 'look' || words[at - 1] === 'pull') ? at + 1 : at;
  const lead = LOOKUP_LEADS.find((l) => from - l.length >= 0 && l.every((w, k) => words[from - l.length + k] === w) && from - l.length <= 2);
  if (!lead) return undefined;
  const nameWord = (k: number) => {
    const t = ctx.tokens[k];
    return t !== undefined && t.kind === 'word' && t.text.length > 1 && !FUNCTION_WORDS.has(t.text) && !BOUNDARIES.has(t.text) && !isVocabulary(t.text) && !STAGES.match(words, k) && !SUBJECT_NOUNS.has(t.text) && !PLACES.match(words, k) && !ctx.vocabulary?.matchPlace(words, k) && !MENTIONS.match(words, k) && !ctx.knownCompanies?.match(words, k) && !ctx.vocabulary?.companies.match(words, k);
  };
  let end = from;
  while (end < words.length && end - from < 3 && nameWord(end)) end++;
  if (end - from < 2 || (end < words.length && !LOOKUP_ENDS.has(words[end]))) return undefined;
  const name = ctx.tokens.slice(from, end).map((t) => t.raw.charAt(0).toUpperCase() + t.raw.slice(1)).join(' ');
  return conditionMatch(at, end, { field: 'name', op: 'eq', value: name }, 'name');
};

/** Legal suffixes that only end company names (not "co", "sa", "ag", "spa", "ab", "nv": words or places too). */
const STRONG_LEGAL_SUFFIXES = new Set(['gmbh', 'inc', 'llc', 'ltd', 'corp', 'corporation', 'plc', 'bv', 'srl', 'sarl', 'pty', 'pte', 'llp', 'limited', 'incorporated', 'kk', 'gbr', 'ltda', 'sro', 'oyj', 'aps', 'bhd']);

/**
 * "harborbridge motors gmbh - who's their top spender", "acme ltd contacts": words ending with a legal suffix are
 * a company's name, typed in lower case and with no "at" before it (the suffix is dropped, as elsewhere; a name
 * the CRM does not hold is asked about with its closest names).
 */
const recogniseSuffixedCompany: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  if (at > 0 && COMPANY_LEAD_WORDS_BEFORE.has(words[at - 1])) return undefined; // read by recogniseCompany
  let end = at;
  while (end < words.length && end - at < 3 && ctx.tokens[end].kind === 'word' && !STRONG_LEGAL_SUFFIXES.has(words[end]) && !FUNCTION_WORDS.has(words[end]) && !BOUNDARIES.has(words[end]) && !STAGES.match(words, end) && !SUBJECT_NOUNS.has(words[end]) && !PLACES.match(words, end) && !MENTIONS.match(words, end) && !ctx.vocabulary?.matchPlace(words, end)) end++;
  if (end === at || !STRONG_LEGAL_SUFFIXES.has(words[end])) return undefined;
  // the longest run of name words right before the suffix
  const name = ctx.tokens.slice(at, end).map((t) => t.raw.charAt(0).toUpperCase() + t.raw.slice(1)).join(' ');
  let stop = end + 1;
  if (words[stop] === '.') stop++;
  return companyMatch(ctx, at, stop, name, false);
};
const COMPANY_LEAD_WORDS_BEFORE = new Set(['at', 'from', 'for', 'with']);

/** "an edu email", "gov addresses": a top-level domain typed as a word before an e-mail noun. */
const TLD_WORDS = new Set(['edu', 'gov', 'org', 'mil', 'ac', 'int']);
const recogniseTldWord: Recogniser = (ctx, at) => {
  const w = ctx.texts[at];
  if (!TLD_WORDS.has(w) || ctx.tokens[at].kind !== 'word') return undefined;
  if (!EMAIL_NOUNS.has(ctx.texts[at + 1]) || ['users', 'user', 'accounts', 'account', 'contacts', 'people'].includes(ctx.texts[at + 1])) return undefined;
  return domainMatch(ctx, at, at + 2, `.${w}`);
};

/**
 * A company condition. A guess (a lower-case word without the CRM's names) is asked about, and so is a name
 * no company of the CRM contains (a typo, "Turner Oudtoor Group", or not a company there at all), with the
 * CRM's closest names offered.
 */
function companyMatch(ctx: GrammarContext, at: number, end: number, typed: string, guessed: boolean): Match {
  const known = ctx.knownCompanies;
  // the CRM's own spelling of the words typed ("Wikstrom Lindstrom" -> "Wikström Lindström")
  const value = (known && known.size > 0 && known.spelling(typed)) || typed;
  const match = conditionMatch(at, end, { field: 'company', op: 'contains', value }, 'company');
  if (guessed || (known && known.size > 0 && !known.containing(value))) (match.items[0] as Extract<Item, { type: 'condition' }>).unverified = value;
  return match;
}

// ---------------------------------------------------------------------------------------------------
// Mentions, inactivity, money, dates

/** "with a valid email", "has a company": a presence test rather than a value. */
function followsHave(ctx: GrammarContext, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && HAVE_DETERMINERS.has(ctx.texts[before])) before--;
  return before >= 0 && HAVE_WORDS.has(ctx.texts[before]);
}

/** Things a business opens or ships, which "new" may describe instead of the contacts. */
const THING_NOUNS = new Set([
  'location', 'locations', 'store', 'stores', 'shop', 'shops', 'office', 'offices', 'branch', 'branches', 'product', 'products',
  'feature', 'features', 'plan', 'plans', 'pricing', 'website', 'site', 'app', 'release', 'version', 'collection', 'line', 'range',
  'service', 'services', 'menu', 'catalog', 'catalogue', 'program', 'programme', 'restaurant', 'warehouse', 'showroom', 'studio',
]);

/** Field mentions; `multiWordOnly` lets longer phrases win before other recognisers see their words. */
function mentionRecogniser(multiWordOnly: boolean): Recogniser {
  return (ctx, at) => {
    const match = MENTIONS.match(ctx.texts, at);
    if (!match || (multiWordOnly && match.len < 2)) return undefined;
    // ("signed up for the newsletter": a stage said with a field's words reads further as the stage)
    if ((STAGES.match(ctx.texts, at)?.len ?? 0) > match.len) return undefined;
    // "near the new location", "our new store": "new" describes a thing there, not the contacts
    if (match.value.fresh && match.len === 1 && THING_NOUNS.has(ctx.texts[at + 1])) return undefined;
    return { length: match.len, items: [{ type: 'mention', start: at, end: at + match.len, mention: match.value, withHave: followsHave(ctx, at) }] };
  };
}

/**
 * "a deal over 10k", "deals of $5k or more": a deal with an amount is the last purchase's amount (the brief's
 * "order/purchase/deal of $X"); a deal without one ("open deals", "deals won") is not a purchase we can tell.
 */
const recogniseDealAmount: Recogniser = (ctx, at) => {
  if (ctx.texts[at] !== 'deal' && ctx.texts[at] !== 'deals') return undefined;
  const next = at + 1 + (ctx.texts[at + 1] === 'worth' || ctx.texts[at + 1] === 'of' || ctx.texts[at + 1] === 'valued' ? 1 : 0);
  if (!COMPARATORS_BEFORE.match(ctx.texts, next) && amountAt(ctx, next) === undefined && !(ctx.texts[next] === 'at' && ctx.texts[next + 1] === 'least')) return undefined;
  const length = ctx.texts[at + 1] === 'worth' || ctx.texts[at + 1] === 'valued' ? 2 : 1;
  return { length, items: [{ type: 'mention', start: at, end: at + length, mention: { money: 'lastPurchaseAmount' } }] };
};

/** "deals over 10k closed in the past 6 months", "… won last quarter": after a deal, its close is the purchase date. */
const recogniseDealClosed: Recogniser = (ctx, at) => {
  const w = ctx.texts;
  const len = phraseAt(ctx, at, ['closed', 'won']) || phraseAt(ctx, at, ['were', 'closed']) || phraseAt(ctx, at, ['were', 'won']) ? 2 : w[at] === 'closed' || w[at] === 'won' ? 1 : 0;
  if (!len || !(ctx.items ?? []).some((x) => x.type === 'mention' && x.mention.money === 'lastPurchaseAmount' && (w[x.start] === 'deal' || w[x.start] === 'deals'))) return undefined;
  return { length: len, items: [{ type: 'mention', start: at, end: at + len, mention: { date: 'lastPurchaseDate', purchase: true, verb: true } }] };
};

/** "companies with 'Robotics' in the name", "at compnies with robotics in their name": the company contains a word. */
const recogniseCompanyNameWord: Recogniser = (ctx, at) => {
  const w = ctx.texts;
  if (!['company', 'companies', 'compnies', 'companys', 'firms', 'firm', 'orgs', 'organizations', 'organisations', 'businesses'].includes(w[at])) return undefined;
  let pos = at + 1;
  if (w[pos] === 'with' || w[pos] === 'having') pos++;
  else if ((w[pos] === 'that' || w[pos] === 'which') && (w[pos + 1] === 'have' || w[pos + 1] === 'has')) pos += 2;
  else return undefined;
  if (w[pos] === 'the' && w[pos + 1] === 'word') pos += 2;
  const value = ctx.tokens[pos];
  if (!value || (value.kind !== 'quoted' && value.kind !== 'word')) return undefined;
  let end = pos + 1;
  if (w[end] !== 'in') return undefined;
  end++;
  if (['the', 'their', 'its', 'it', 'a'].includes(w[end])) end++;
  if (w[end] !== 'name' && w[end] !== 'names') return undefined;
  end++;
  const text = value.kind === 'quoted' ? value.text : value.raw.charAt(0).toUpperCase() + value.raw.slice(1);
  return conditionMatch(at, end, { field: 'company', op: 'contains', value: text }, 'company');
};

/** What an account that stopped buying "went" ("went quiet", "gone dark"; a lead "gone cold" stopped answering, #96). */
const QUIET_WORDS = new Set(['quiet', 'dark', 'silent']);

/** Verbs of buying after "no longer" ("no longer order", "no longer buys"). */
const LAPSE_VERBS = new Set(['order', 'orders', 'ordering', 'buy', 'buys', 'buying', 'purchase', 'purchases', 'purchasing', 'shop', 'shops', 'shopping', 'spend', 'spends', 'transact']);

const recogniseInactivity: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  let pos = at;
  // "that's gone dormant", "who went quiet": the verb is a copula
  const copula = ['gone', 'went', 'become', 'became', 'turned', 'gotten', 'grown', 'going', 'go', 'goes'].includes(words[pos]);
  if (copula && INACTIVITY_WORDS.has(words[pos + 1])) pos++;
  // "accounts that went quiet", "gone dark": only after the verb (a "quiet" lead is something else)
  if (copula && QUIET_WORDS.has(words[pos + 1])) pos += 2;
  else if (words[pos] === 'not' && words[pos + 1] === 'active') pos += 2;
  else if (INACTIVITY_WORDS.has(words[pos])) pos++;
  else if (QUIT_VERBS.has(words[pos]) && QUIT_OBJECTS.has(words[pos + 1])) pos += 2;
  // "people who used to buy but stopped": the verb alone, after a purchase just said
  else if (QUIT_VERBS.has(words[pos]) && ['but', 'and', 'then'].includes(words[pos - 1]) && (ctx.items ?? []).some((x) => x.type === 'mention' && x.mention.purchase)) pos++;
  // "no longer order from us", "don't buy anymore": they used to
  else if ((phraseAt(ctx, pos, ['no', 'longer']) || phraseAt(ctx, pos, ['not', 'anymore'])) && LAPSE_VERBS.has(words[pos + 2])) pos += 3;
  else return undefined;
  const afterWord = pos;
  const lastPurchaseBefore = (end: number, value: DateExpr, byDefault = false): Match => ({
    length: end - at,
    items: [{ type: 'condition', start: at, end, node: { field: 'lastPurchaseDate', op: 'lt', value }, slot: 'lastPurchaseDate', field: 'lastPurchaseDate', byDefault }],
  });
  const vague = VAGUE_PERIODS.find((p) => phraseAt(ctx, pos, p));
  if (vague) return lastPurchaseBefore(pos + vague.length, { kind: 'relative', amount: 90, unit: 'day', direction: 'past' }, true);
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
  if (!unit) return lastPurchaseBefore(afterWord, { kind: 'relative', amount: 90, unit: 'day', direction: 'past' }, true);
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
  if (isCurrencyAt(ctx, pos) && ctx.tokens[pos + 1]?.kind === 'number') {
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
  if (isCurrencyAt(ctx, pos)) {
    money = true;
    pos++;
  } else if (ctx.texts[pos] === 'us' && ctx.texts[pos + 1] === 'dollars') {
    money = true;
    pos += 2;
  }
  return { value: token.num, money, scaled: !!token.scaled, multiplier, length: pos - at };
}

/**
 * A currency beside an amount: a currency word, or an ISO code typed in capitals or that is no English word
 * ("500 CHF", "2.000 sek"; not "top", "all", "try", which are codes too).
 */
function isCurrencyAt(ctx: GrammarContext, pos: number): boolean {
  const w = ctx.texts[pos];
  if (w === undefined) return false;
  if (CURRENCY_WORDS.has(w)) return true;
  return ISO_CURRENCIES.has(w) && (ctx.tokens[pos].upper || !isEnglishWord(w)) && !isVocabulary(w);
}

/** "10%", "top 10 percent": a share there is no field for */
const PERCENT = new Set(['%', 'percent', 'pct']);

/**
 * A time unit right after an amount means it is not money; so does a count noun or a word that was not
 * understood ("10+ support tickets", "200 seats", "5k employees"): a bare number that counts something is
 * never money.
 */
function notMoneyAfter(ctx: GrammarContext, at: number, amount: Amount): 'unit' | 'count' | undefined {
  if (UNITS.match(ctx.texts, at) || ctx.texts[at] === 'ago') return 'unit';
  if (PERCENT.has(ctx.texts[at])) return 'count';
  if (amount.money) return undefined;
  const next = ctx.texts[at];
  // "ltv >= 50k order by ltv desc": "order by" starts a sort, it counts no orders
  if (['order', 'sort', 'sorted', 'ordered'].includes(next) && ctx.texts[at + 1] === 'by') return undefined;
  // "ltv over 5k customers": a scaled amount before the subject noun is still money
  if (COUNT_NOUNS.has(next) && !(amount.scaled && SUBJECT_NOUNS.has(next))) return 'count';
  // "aov =< 500 fr leads": a place code before the contacts follows the amount; "5k+ q1": a date
  if (recognisePlaceCodes(ctx, at) || /^[qh][1-4]$/.test(next ?? '')) return undefined;
  if (isPlainUnknownWord(ctx, at) && !isCurrencyAt(ctx, at)) return 'count';
  // ">5 open tix", "3+ active seats": one describing word, then the thing counted
  const after = ctx.texts[at + 1];
  if (!amount.scaled && ctx.tokens[at]?.kind === 'word' && !BOUNDARIES.has(next) && !FUNCTION_WORDS.has(next) && !CURRENCY_WORDS.has(next) && !UNITS.match(ctx.texts, at + 1)) {
    if (after !== undefined && ((COUNT_NOUNS.has(after) && !SUBJECT_NOUNS.has(after)) || (isPlainUnknownWord(ctx, at + 1) && !CURRENCY_WORDS.has(after)))) return 'count';
  }
  return undefined;
}

/** "between 5 and 25k": an unscaled low bound takes the high bound's scale when that keeps it lower. */
function lowBound(low: Amount, high: Amount): number {
  return !low.scaled && high.scaled && low.value * high.multiplier <= high.value ? low.value * high.multiplier : low.value;
}

/** Words before an amount that make it approximate. */
const APPROX_WORDS = new Set(['~', '≈', 'around', 'about', 'approximately', 'approx', 'roughly', 'circa', 'ca', 'abt']);

const recogniseValue: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  const unknown = (end: number): Match => ({ length: end - at, items: [{ type: 'unknown', start: at, end, count: true }] });
  const range = (end: number, low: number, high: number, money: boolean): Match => ({
    length: end - at,
    items: [{ type: 'value', start: at, end, comparison: 'between', amount: Math.min(low, high), highAmount: Math.max(low, high), money }],
  });
  // "5-figure ltv", "six figure deals": an amount of that many digits, from 10^(n-1) up to (not including) 10^n
  const digits = ctx.tokens[at]?.kind === 'number' ? Number(words[at]) : NaN;
  const figureAt = at + 1 + (words[at + 1] === '-' ? 1 : 0);
  if (Number.isInteger(digits) && digits >= 2 && digits <= 12 && (words[figureAt] === 'figure' || words[figureAt] === 'figures')) {
    return { length: figureAt + 1 - at, items: [{ type: 'value', start: at, end: figureAt + 1, comparison: 'gte', amount: 10 ** (digits - 1), below: 10 ** digits, money: true }] };
  }
  // between A and B / from A to B
  if (words[at] === 'between' || words[at] === 'from') {
    const low = amountAt(ctx, at + 1);
    if (!low) return undefined;
    // ("from 10k up to 50k": "up to" is "to")
    const separator = at + 1 + low.length + (words[at] === 'from' && words[at + 1 + low.length] === 'up' && words[at + 2 + low.length] === 'to' ? 1 : 0);
    // ("between 1k & 2.5k": an ampersand is "and")
    const separated = words[at] === 'between' ? words[separator] === 'and' || words[separator] === '&' || words[separator] === '-' : RANGE_SEPARATORS.has(words[separator]);
    if (!separated) return undefined;
    const high = amountAt(ctx, separator + 1);
    if (!high) return undefined;
    const end = separator + 1 + high.length;
    const after = notMoneyAfter(ctx, end, { ...high, money: low.money || high.money });
    if (after === 'unit') return undefined;
    if (after === 'count') return unknown(end + 1);
    return range(end, lowBound(low, high), high.value, low.money || high.money);
  }
  // "ltv ~10k", "around $5,000": within 10 % either side
  if (APPROX_WORDS.has(words[at])) {
    const approx = amountAt(ctx, at + 1);
    if (approx && (approx.money || approx.scaled || ctx.previous?.type === 'mention') && !notMoneyAfter(ctx, at + 1 + approx.length, approx)) {
      return range(at + 1 + approx.length, Math.round(approx.value * 0.9 * 100) / 100, Math.round(approx.value * 1.1 * 100) / 100, true);
    }
  }
  // "at least twice", "bought once": a count of purchases
  const adverbCmp = COMPARATORS_BEFORE.match(words, at);
  const countAdverbAt = adverbCmp ? at + adverbCmp.len : at;
  if (COUNT_ADVERBS.has(words[countAdverbAt])) {
    // "(purchased) at least once": has purchased
    if (adverbCmp?.value === 'gte' && words[countAdverbAt] === 'once') return conditionMatch(at, countAdverbAt + 1, { field: 'hasPurchased', op: 'eq', value: true }, 'hasPurchased');
    return { length: countAdverbAt + 1 - at, items: [{ type: 'unknown', start: at, end: countAdverbAt + 1, count: true }] };
  }
  // comparator before
  let pos = at;
  let comparison: Cmp | undefined;
  const before = COMPARATORS_BEFORE.match(words, pos);
  // "lifetime value is 0": right after a money field, "is" compares
  const bareIs = !before && (words[pos] === 'is' || words[pos] === 'was' || words[pos] === 'of') && ctx.previous?.type === 'mention' && ctx.previous.mention.money !== undefined && ctx.previous.end === at;
  const isAmount = bareIs ? amountAt(ctx, pos + 1) : undefined;
  const afterIs = isAmount ? words[pos + 1 + isAmount.length] : undefined;
  if (isAmount && !['-', 'to', 'and', 'or', 'ago'].includes(afterIs ?? '') && !UNITS.match(words, pos + 1 + isAmount.length)) {
    comparison = 'eq';
    pos++;
  } else if (before) {
    comparison = before.value;
    pos += before.len;
    if (words[pos] === 'of' || words[pos] === 'a' || words[pos] === 'the') pos++;
  }
  const amount = amountAt(ctx, pos);
  if (!amount) return undefined;
  let end = pos + amount.length;
  // "created <= 2024", "created < 03/2025": a year or a month/year after a date field is a date, not an amount
  const afterDateField = ctx.previous?.type === 'mention' && ctx.previous.mention.date !== undefined && ctx.previous.mention.money === undefined;
  // ("last purchase >= 1 jan 2025": a day before a month is a date too)
  if (comparison && !amount.money && !amount.scaled && (words[end] === '/' || MONTHS.match(words, end) !== undefined || (afterDateField && Number.isInteger(amount.value) && amount.value >= 1900 && amount.value <= 2100))) return undefined;
  // "nps < 6 customers": a comparison right after a word that was not understood measures that word, not the
  // contacts after it
  // (a word read as part of something, "in q4 over 10k", is not one)
  const readBefore = ctx.previous !== undefined && ctx.previous.type !== 'unknown' && ctx.previous.end === at;
  if (!amount.money && before && !readBefore && isPlainUnknownWord(ctx, at - 1) && !MENTIONS.match(words, at - 1) && !STAGES.match(words, at - 1)) {
    return { length: end - at, items: [{ type: 'unknown', start: at, end, count: true }] };
  }
  // "score is above 50", "rating of 4": a plain number after a word that was not understood (and a link) is its
  if (!amount.money && VALUE_LINKS.has(words[at - 1]) && isPlainUnknownWord(ctx, at - 2) && !MENTIONS.match(words, at - 2)) {
    return { length: end - at, items: [{ type: 'unknown', start: at, end }] };
  }
  // A - B / A to B ("last order 500-1000": a plain range right after a money field)
  if (!comparison && (words[end] === '-' || words[end] === 'to')) {
    const high = amountAt(ctx, end + 1);
    const afterMoneyField = ctx.previous?.type === 'mention' && ctx.previous.mention.money !== undefined && ctx.previous.end === at;
    if (high && (amount.money || high.money || amount.scaled || high.scaled || afterMoneyField)) {
      const rangeEnd = end + 1 + high.length;
      if (!notMoneyAfter(ctx, rangeEnd, high)) return range(rangeEnd, lowBound(amount, high), high.value, true);
    }
  }
  // comparator after: "5000+", "$10k or more" ("total spend of 25k+": the plus wins over the "of")
  if (ctx.tokens[pos].plus) comparison = comparison === undefined || (bareIs && comparison === 'eq') ? 'gte' : comparison;
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
    // "at least one order over $500": only the last order's amount is stored, so the amount is read on it
    if (hasPurchased && (COMPARATORS_BEFORE.match(words, end + 1) || amountAt(ctx, end + 1)?.money)) {
      return { length: end + 1 - at, items: [{ type: 'mention', start: at, end: end + 1, mention: { money: 'lastPurchaseAmount', date: 'lastPurchaseDate', purchase: true } }] };
    }
    if (hasPurchased) return conditionMatch(at, end + 1, { field: 'hasPurchased', op: 'eq', value: true }, 'hasPurchased');
    // "0 orders", "less than 1 purchase": never bought
    const none = PURCHASE_COUNT_NOUNS.has(words[end]) && ((amount.value === 0 && (comparison === undefined || comparison === 'eq' || comparison === 'lte')) || (amount.value === 1 && comparison === 'lt'));
    if (none) return conditionMatch(at, end + 1, { field: 'hasPurchased', op: 'eq', value: false }, 'hasPurchased');
    return unknown(end + 1);
  }
  let bare = false;
  if (!comparison) {
    if (!amount.money) return undefined;
    comparison = 'eq';
    bare = true;
  }
  return { length: end - at, items: [{ type: 'value', start: at, end, comparison, amount: amount.value, money: amount.money, bare }] };
};

const recogniseDateItem: Recogniser = (ctx, at) => {
  // "haven't ordered for some time": the inactivity default (90 days)
  const vague = VAGUE_PERIODS.find((p) => phraseAt(ctx, at, p));
  if (vague) {
    return { length: vague.length, items: [{ type: 'date', start: at, end: at + vague.length, op: 'gte', value: { kind: 'relative', amount: 90, unit: 'day', direction: 'past' }, since: true }] };
  }
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
    case 'states':
      return { node: { field: 'state', op: 'in', values: [...place.values] }, field: 'state' };
    default:
      return { node: { field: place.field, op: 'eq', value: place.value }, field: place.field };
  }
}

/** Canadian provinces by their postal code ("ON", "QC"), beside the US states' codes. */
const PROVINCE_CODES = new Map(Object.entries(CANADIAN_PROVINCES).map(([name, code]) => [code.toLowerCase(), name]));

/**
 * Codes after a place field's name ("country: FR, DE", "state: ON, QC"): every code of the list one of that field's
 * codes (ISO countries; US states and Canadian provinces), or undefined.
 */
function fieldCodes(ctx: GrammarContext, at: number, field: 'country' | 'state'): { values: string[]; end: number } | undefined {
  const words = ctx.texts;
  // a code as typed, or quoted as a query language quotes it ("country = 'DE'", "country IN ('FR','ES')")
  const valueOf = (k: number) => {
    const t = ctx.tokens[k];
    const code = t?.kind === 'word' && t.raw.length === 2 ? words[k] : t?.kind === 'quoted' && /^[a-z]{2}$/i.test(t.text.trim()) ? t.text.trim().toLowerCase() : undefined;
    if (!code) return undefined;
    return field === 'country' ? COUNTRY_CODES.get(code) : (STATE_CODES.get(code) ?? PROVINCE_CODES.get(code));
  };
  // "country in (DE, AT, CH)": the list in brackets, closed by its bracket
  const bracketed = words[at] === '(';
  const values: string[] = [];
  let k = bracketed ? at + 1 : at;
  for (;;) {
    const v = valueOf(k);
    if (!v) return undefined;
    values.push(v);
    k++;
    if ([',', 'or', '/', '&'].includes(words[k]) && valueOf(k + 1)) k++;
    else break;
  }
  if (bracketed) {
    if (words[k] !== ')') return undefined;
    k++;
  }
  return { values: [...new Set(values)], end: k };
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
  // "country: DE", "country: FR, DE", "state: ON, QC": codes after the field's name, in a list of their own
  // (only after a link: "country in ('Peru', …)" is no code "in")
  // ("country in (DE, AT)": "in" before a bracket is the link, as a query language writes it)
  const linked = VALUE_LINKS.has(words[pos + 1]) || (words[pos + 1] === 'in' && words[pos + 2] === '(');
  const codes = (fieldWord === 'country' || fieldWord === 'state') && linked ? fieldCodes(ctx, pos + 2, fieldWord) : undefined;
  // "country != 'DE'", "country NOT IN ('FR','ES')", "state <> TX": the codes negated
  const negFrom = words[pos + 1] === 'is' ? pos + 2 : pos + 1; // ("country is not DE")
  const negator = !codes && (fieldWord === 'country' || fieldWord === 'state') ? NEGATORS.match(words, negFrom) : undefined;
  const negatedAt = negator?.value === 'not' ? negFrom + negator.len + (words[negFrom + negator.len] === 'in' || VALUE_LINKS.has(words[negFrom + negator.len]) ? 1 : 0) : undefined;
  const negatedCodes = negatedAt !== undefined ? fieldCodes(ctx, negatedAt, fieldWord as 'country' | 'state') : undefined;
  const found = codes ?? negatedCodes;
  if (found) {
    const f = fieldWord as 'country' | 'state';
    const node: Condition = found.values.length === 1 ? { field: f, op: 'eq', value: found.values[0] } : { field: f, op: 'in', values: found.values };
    if (negatedCodes) return { length: found.end - at, items: [condition(at, found.end, { not: crmSpelling(ctx, node) }, 'location', f)] };
    return conditionMatch(at, found.end, crmSpelling(ctx, node), 'location', fieldWord as string);
  }
  if (fieldWord) {
    const valueAt = VALUE_LINKS.has(words[pos + 1]) ? pos + 2 : pos + 1;
    const next = ctx.tokens[valueAt];
    if (next && (PLACES.match(words, valueAt) || isProperName(ctx, valueAt) || next.kind === 'quoted' || (STATE_CODES.has(words[valueAt]) && next.upper))) {
      forcedField = fieldWord;
      pos = valueAt;
    }
  }
  let place = PLACES.match(words, pos);
  // a quoted place ("country in ('France','Spain')", "city = 'New York'"): the words inside the quotes
  if (!place && ctx.tokens[pos]?.kind === 'quoted') {
    const inner = tokenize(ctx.tokens[pos].text).map((t) => t.text);
    const m = PLACES.match(inner, 0);
    if (m && m.len === inner.length) place = { ...m, len: 1 };
  }
  // the CRM's own places, in its spelling ("zurich" finds "Zürich"), when they read further than the lexicon
  const crm = ctx.vocabulary?.matchPlace(words, pos);
  if (crm && crm.len > (place?.len ?? 0)) {
    const single = crm.len === 1 ? words[pos] : undefined;
    const commonWord = single !== undefined && (isEnglishWord(single) || isVocabulary(single) || FILLERS.has(single) || single.length < 3);
    if (!commonWord || preposition || forcedField || listedPlaceField(ctx, at)) {
      const fields = forcedField && forcedField !== 'region' ? crm.fields.filter((f) => f.field === forcedField) : crm.fields;
      if (fields.length > 0) {
        const ranked = [...fields].sort((a, b) => PLACE_FIELD_RANK[b.field] - PLACE_FIELD_RANK[a.field]);
        const node = (f: (typeof ranked)[number]): Condition =>
          f.values.length === 1 ? { field: f.field, op: 'eq', value: f.values[0] } : { field: f.field, op: 'in', values: f.values };
        const item = condition(at, pos + crm.len, node(ranked[0]), 'location', ranked[0].field);
        // "Victoria": a state and a city in this CRM; the broader is read, the other offered when it asks
        if (item.type === 'condition' && ranked.length > 1) item.alternatives = ranked.slice(1).map((f) => ({ label: `${f.field} ${f.values[0]}`, node: node(f) }));
        return { length: pos + crm.len - at, items: [item] };
      }
    }
  }
  if (place) {
    const first = ctx.tokens[pos];
    // lower-case "us" is the pronoun ("show us", "bought from us") unless it reads as a place ("in the us")
    // (first in the question before a noun it is the country: "us customers")
    // (listed with another country, or after an exclusion: "excluding us & canada", "canada or us")
    const LIST_JOINERS = ['and', '&', 'or', ',', '/', '+'];
    const countryAt = (k: number) => k >= 0 && k !== pos && words[k] !== 'us' && PLACES.match(words, k) !== undefined && placeCondition(PLACES.match(words, k)!.value).field === 'country';
    const listed = (LIST_JOINERS.includes(words[pos + 1]) && countryAt(pos + 2)) || (LIST_JOINERS.includes(words[pos - 1]) && countryAt(pos - 2));
    const excluded = ['excluding', 'exclude', 'excl', 'except', 'outside', 'ex'].includes(words[pos - 1]);
    // ("country != us", "country = us", "country is us": the value of the country field)
    const valueOfField = words.slice(Math.max(0, pos - 3), pos).includes('country') && ['=', '==', '!=', ':', 'is', 'not', '<>', '>'].includes(words[pos - 1]);
    // ("the top 50 us accounts", "all us customers": after a number or a determiner, before the noun, not the pronoun)
    const modifier = (ctx.tokens[pos - 1]?.kind === 'number' || ['the', 'all', 'our', 'top', 'any', 'every', 'only'].includes(words[pos - 1] ?? '')) && (SUBJECT_NOUNS.has(words[pos + 1] ?? '') || STAGES.match(words, pos + 1) !== undefined);
    const leading = (pos === 0 && SUBJECT_NOUNS.has(words[1] ?? '')) || words[pos - 1] === 'non' || listed || excluded || valueOfField || modifier;
    if (words[pos] === 'us' && place.len === 1 && !first.upper && !leading && words[pos - 1] !== 'the' && (!preposition || preposition === 'from')) return undefined;
    // "nice", "la" in lower case are words; "in portland" is the city
    // ("in na", "from na": North America in sales shorthand, as NA/EMEA/APAC are; "na" alone stays a word)
    const regionShorthand = preposition !== undefined && words[pos] === 'na';
    if ('ambiguous' in place.value && place.value.ambiguous && !first.cap && !first.upper && !regionShorthand && !(preposition && !isEnglishWord(words[pos]) && place.len === 1 && words[pos].length > 3)) return undefined;
    const end = pos + place.len;
    let { node, field } = placeCondition(place.value);
    if (forcedField && forcedField !== field && 'value' in place.value && forcedField !== 'region') {
      // "country Georgia", "city of Washington": the field said explicitly wins
      const said = words.slice(pos, end).join(' ');
      const value = forcedField === 'country' ? COUNTRIES.find((x) => x.toLowerCase() === said) ?? sourceText(ctx, pos, end) : place.value.value;
      node = { field: forcedField, op: 'eq', value };
      field = forcedField;
    }
    return conditionMatch(at, end, crmSpelling(ctx, node as Condition), 'location', field);
  }
  // US state codes: "CA", "in TX"
  const code = words[pos];
  const token = ctx.tokens[pos];
  if (token && token.kind === 'word' && code && code.length === 2 && STATE_CODES.has(code)) {
    const upperCaseCode = token.upper && (!AMBIGUOUS_STATE_CODES.has(code) || preposition !== undefined);
    // ("austin, tx": a code qualifying the place before it)
    const lowerCaseCode = !token.upper && (preposition !== undefined || listedPlaceField(ctx, at) !== undefined) && !AMBIGUOUS_STATE_CODES.has(code);
    if (upperCaseCode || lowerCaseCode) {
      const state: Condition = { field: 'state', op: 'eq', value: STATE_CODES.get(code) as string };
      // "customers from DE", "leads in CO": a code that is a state and a country (Delaware or Germany) is the one
      // the CRM holds; when it holds both, the state is read and the country offered
      // (not "CA": California is what US sales teams mean by it far more often than Canada, which they call "canada")
      const country = code === 'ca' ? undefined : COUNTRY_CODES.get(code);
      const v = ctx.vocabulary;
      if (country && v?.hasField('country') && v.hasField('state')) {
        const holdsState = v.spellingsOf('state', state.value as string) !== undefined;
        const holdsCountry = v.spellingsOf('country', country) !== undefined;
        const countryNode = crmSpelling(ctx, { field: 'country', op: 'eq', value: country });
        if (holdsCountry && !holdsState) return conditionMatch(at, pos + 1, countryNode, 'location', 'country');
        if (holdsCountry && holdsState) {
          const match = conditionMatch(at, pos + 1, state, 'location', 'state');
          (match.items[0] as Extract<Item, { type: 'condition' }>).alternatives = [{ label: `country ${country}`, node: countryNode }];
          return match;
        }
      }
      return conditionMatch(at, pos + 1, state, 'location', 'state');
    }
  }
  // a country's ISO code in capitals after a preposition ("signed up since february in NL", "from CH")
  // (in lower case only when the code is no English word: "in nl", never "in it"; never a team's abbreviation:
  // "people in HR" work in human resources, not in Croatia)
  const country = token?.kind === 'word' && (token.upper || !isEnglishWord(code)) && preposition !== undefined && code?.length === 2 && !TEAM_ABBREVIATIONS.has(code) ? COUNTRY_CODES.get(code) : undefined;
  if (country) return conditionMatch(at, pos + 1, crmSpelling(ctx, { field: 'country', op: 'eq', value: country }), 'location', 'country');
  // an unknown place after "in" ("in Oldenburg", "in oldenburg"), or after a place in a list of them
  // ("lausanne or lugano"): read as a city (or the field said), unless it is an English word
  const listed = !preposition && !forcedField ? listedPlaceField(ctx, at) : undefined;
  if ((preposition && CITY_GUESS_PREPOSITIONS.has(preposition)) || forcedField || listed) {
    const quoted = ctx.tokens[pos]?.kind === 'quoted';
    let run = quoted ? 1 : properNameRun(ctx, pos, 3);
    if (!quoted && run === 0) while (run < 3 && isPlainUnknownWord(ctx, pos + run) && !ctx.tokens[pos + run].cap && !isEnglishWord(words[pos + run])) run++;
    // an English word ("the Enterprise tier") is not guessed to be a city
    if (!quoted && run > 0 && ctx.tokens.slice(pos, pos + run).every((t) => isEnglishWord(t.text))) run = 0;
    if (run > 0) {
      const typed = quoted ? ctx.tokens[pos].text : sourceText(ctx, pos, pos + run);
      const value = typed === typed.toLowerCase() ? typed.replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase()) : typed;
      const field = forcedField && forcedField !== 'region' ? forcedField : (listed ?? 'city');
      const match = conditionMatch(at, pos + run, { field, op: 'eq', value }, 'location', field, `"${value}" is a ${field}`);
      // with the CRM's values at hand, a place it does not hold is asked about (a typo, or not a place at all)
      if (ctx.vocabulary?.hasField(field)) (match.items[0] as Extract<Item, { type: 'condition' }>).unverified = value;
      return match;
    }
  }
  return undefined;
};

/** Two letters that name a team or a function in a company more often than a country ("in HR", "in PR"). */
const TEAM_ABBREVIATIONS = new Set(['hr', 'pr', 'it', 'qa', 'bd', 'ai', 'ar', 'ap', 'ad', 'pm', 'ms', 'md', 'ba', 'cs', 'cx', 'ux', 'ui', 'ops', 'gm', 'mt', 'ma', 'ps', 'tv']);

/** The place field of the list this position continues ("Lausanne or |lugano"), if it continues one. */
function listedPlaceField(ctx: GrammarContext, at: number): 'city' | 'state' | undefined {
  const items = ctx.items ?? [];
  const joiner = items[items.length - 1];
  const before = items[items.length - 2];
  // (right after the place: "leads in ohio? thanks a bunch, priya" is no list)
  if (!joiner || !before || (joiner.type !== 'or' && joiner.type !== 'and' && joiner.type !== 'comma') || joiner.end !== at || joiner.start !== before.end) return undefined;
  return before.type === 'condition' && before.slot === 'location' && (before.field === 'city' || before.field === 'state') ? before.field : undefined;
}

const PLACE_FIELD_RANK: Record<string, number> = { city: 0, state: 1, country: 2 };

/** A lexicon place in the CRM's own spelling(s) ("Krakow" -> "Kraków"), when the CRM holds it. */
function crmSpelling(ctx: GrammarContext, node: Condition): Condition {
  const v = ctx.vocabulary;
  if (!v || (node.field !== 'city' && node.field !== 'state' && node.field !== 'country') || (node.op !== 'eq' && node.op !== 'in')) return node;
  const field = node.field;
  const values = ('values' in node ? node.values : [node.value]).flatMap((x) => v.spellingsOf(field, x) ?? [x]);
  const unique = [...new Set(values)];
  return unique.length === 1 ? { field, op: 'eq', value: unique[0] } : { field, op: 'in', values: unique };
}

const PIPELINE_AMOUNTS = new Set(['value', 'values', 'amount', 'size', 'total', 'weighted', 'coverage', 'generated', 'created', 'velocity']);

const SINGULAR_STAGE_WORDS = new Set(['lead', 'customer', 'client', 'subscriber', 'prospect', 'opportunity', 'opp']);

const recogniseLifecycle: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  let pos = at;
  let explicit = false;
  // "lifecycle stage is lead", "stage = customer", "in the customer stage"
  // ("lifecyclestage = 'customer'": the field's identifier typed in lower case is one word)
  const stageWords = phraseAt(ctx, pos, ['lifecycle', 'stage']) ? 2 : words[pos] === 'stage' || words[pos] === 'lifecycle' || words[pos] === 'lifecyclestage' ? 1 : 0;
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
  // ("lifecycle stage other than customer": "other than" excludes, it names no stage)
  const stage = STAGES.match(words, pos) ?? (explicit && words[pos + 1] !== 'than' ? EXPLICIT_STAGE_VALUES.match(words, pos) : undefined);
  if (!stage) return undefined;
  // "lead score", "customer status", "subscriber source": a stage word qualifying a noun we do not know
  if (!explicit && stage.len === 1 && SINGULAR_STAGE_WORDS.has(words[pos]) && isPlainUnknownWord(ctx, pos + 1)) return undefined;
  // "pipeline" alone is the opportunities, but not a sum of deals ("last quarter's pipeline", "pipeline value",
  // "total pipeline"): there is no deal amount field
  if (stage.len === 1 && words[pos] === 'pipeline' && (words[pos - 1]?.endsWith("'s") || PIPELINE_AMOUNTS.has(words[pos + 1] ?? '') || PIPELINE_AMOUNTS.has(words[pos - 1] ?? ''))) return undefined;
  let end = pos + stage.len;
  if (words[end] === 'only') {
    qualified = true;
    end++;
  }
  // ("contacts in the customer stage": the stage named as a stage is the stage)
  if (words[end] === 'stage' || words[end] === 'lifecycle') {
    end++;
    qualified = true;
  }
  // ("who are also customers", "who are now clients": an adverb between the verb and the noun)
  // ("who's a customer", "that became a paying client": an article between them)
  let before = at - 1;
  if (words[before] === 'a' || words[before] === 'an') before--;
  const previous = ['also', 'now', 'already', 'still', 'all', 'both', 'actually', 'currently'].includes(words[before]) && PREDICATE_WORDS.has(words[before - 1]) ? words[before - 1] : words[before];
  if (previous && (PREDICATE_WORDS.has(previous) || previous === 'only')) qualified = true;
  const generic = stage.value.generic === true && !qualified;
  return { length: end - at, items: [{ type: 'lifecycle', start: at, end, stage: stage.value.stage, generic, hubspot: stage.value.hubspot, joined: stage.value.joined }] };
};

// ---------------------------------------------------------------------------------------------------
// Structure words

const recogniseNegation: Recogniser = (ctx, at) => {
  // "not only bought last quarter but also …": both, no negation
  if (ctx.texts[at] === 'not' && ctx.texts[at + 1] === 'only' && ctx.texts.slice(at + 2).includes('also')) return { length: 2, items: [] };
  // "neither leads nor subscribers": one negation of the list; its "nor" joins it
  if (ctx.texts[at] === 'neither') return { length: 1, items: [{ type: 'negation', start: at, end: at + 1, negation: 'not' }] };
  // ("neither a customer nor placed a last order over $1,000": not the one and not the other, whatever each is)
  if (ctx.texts[at] === 'nor' && ctx.texts.slice(0, at).includes('neither')) return { length: 1, items: [{ type: 'and', start: at, end: at }, { type: 'negation', start: at, end: at + 1, negation: 'not' }] };
  const match = NEGATORS.match(ctx.texts, at);
  if (!match) return undefined;
  return { length: match.len, items: [{ type: 'negation', start: at, end: at + match.len, negation: match.value }] };
};

/**
 * Whether the joiner at `at` opens a clause with its own subject: ", or customers who …", ", plus paying
 * customers in …" after a stage that already has conditions of its own ("leads in Japan or Korea, or customers
 * anywhere who spent 25k+"). Each branch keeps its own subject; a bare list of stages ("leads or customers")
 * stays a list.
 */
function opensNewSubject(ctx: GrammarContext, at: number): boolean {
  if (ctx.texts[at - 1] !== ',') return false;
  let j = at + 1;
  while (CUSTOMER_QUALIFIERS.has(ctx.texts[j]) || ctx.texts[j] === 'all' || ctx.texts[j] === 'any' || ctx.texts[j] === 'the') j++;
  if (!STAGES.match(ctx.texts, j)) return false;
  const items = ctx.items ?? [];
  const stage = items.findIndex((x) => x.type === 'lifecycle' || (x.type === 'condition' && x.slot === 'lifecycle'));
  // "people who spent over 5k, or leads in Italy": conditions with no stage, then a stage of its own
  if (stage < 0) return items.some((x) => x.type === 'condition' || x.type === 'value' || x.type === 'date');
  // the earlier stage has a condition of its own, or "anywhere" says it has none on purpose
  // ("opps who never purchased, plus customers who …": a purchase said of the earlier stage is a condition of its own)
  return items.slice(stage + 1).some((x) => x.type === 'condition' || x.type === 'value' || x.type === 'date' || (x.type === 'mention' && x.mention.purchase === true)) || ctx.texts.slice(0, at).includes('anywhere');
}

const recogniseConnector: Recogniser = (ctx, at) => {
  const word = ctx.texts[at];
  // "active only / seattle + austin": a slash with spaces around it separates criteria, as a comma does ("gmail/yahoo"
  // written together is one or the other)
  const spaced = word === '/' && at > 0 && ctx.tokens[at - 1].end < ctx.tokens[at].start && ctx.tokens[at + 1] !== undefined && ctx.tokens[at].end < ctx.tokens[at + 1].start;
  if (spaced) return { length: 1, items: [{ type: 'comma', start: at, end: at + 1 }] };
  if (word === 'or' || word === '/' || word === 'and/or') {
    // ("…, or else subscribers in Brazil": "or else" is "or")
    const orLen = word === 'or' && ctx.texts[at + 1] === 'else' ? 2 : 1;
    // "…, or anyone in Italy with …": a new subject after "or" makes it an OR between whole clauses
    const next = ctx.texts[at + orLen];
    const clause =
      next !== undefined && NEW_SUBJECT_WORDS.has(next) && !(next === 'any' && ctx.texts[at + 2] && MENTIONS.match(ctx.texts, at + 2))
        ? 'subject'
        : // "…, or with revenue over $1M", "…, or who bought last week": another clause of conditions
          ctx.texts[at - 1] === ',' && (next === 'with' || next === 'who' || next === 'whose' || next === 'that' || next === 'having')
          ? 'conditions'
          : undefined;
    return { length: orLen, items: [{ type: 'or', start: at, end: at + orLen, clause: clause ?? (opensNewSubject(ctx, at) ? 'subject' : undefined) }] };
  }
  // "evangelists anywhere, plus paying customers in Mexico": ", plus" before a stage of its own adds a group;
  // "everyone @acme.com plus anyone at Harborcraft", "leads in Spain and anybody in Italy with …": another group
  if (word === 'plus' && opensNewSubject(ctx, at)) return { length: 1, items: [{ type: 'or', start: at, end: at + 1, clause: 'subject' }] };
  // ("…, along with every evangelist in APAC", "together with any contact on gmx.de")
  const alongWith = phraseAt(ctx, at, ['along', 'with']) || phraseAt(ctx, at, ['together', 'with']);
  const adds = word === 'plus' || word === 'and' || word === '&' || word === '+' || phraseAt(ctx, at, ['as', 'well', 'as']) || alongWith;
  const addedLen = word === 'as' ? 3 : alongWith ? 2 : 1;
  const nextAt = at + addedLen + (ctx.texts[at + addedLen] === 'also' ? 1 : 0);
  const nextWord = ctx.texts[nextAt];
  // "…, as well as any MQLs in Germany", "plus every contact on gmx.de who …": a quantifier before a subject of its own
  const quantified = (nextWord === 'any' || nextWord === 'every' || nextWord === 'all') && (SUBJECT_NOUNS.has(ctx.texts[nextAt + 1] ?? '') || STAGES.match(ctx.texts, nextAt + 1) !== undefined);
  // ("exclude anybody with an unknown stage and anyone missing a last name": a second group excluded as well)
  const earlier = ctx.items ?? [];
  const lastNegation = earlier.findLastIndex((x) => x.type === 'negation');
  const excluding = lastNegation >= 0 && (earlier[lastNegation] as { negation?: string }).negation === 'except' && !earlier.slice(lastNegation).some((x) => x.type === 'or' || x.type === 'boundary' && x.word === 'but');
  if (adds && excluding && (nextWord === 'anyone' || nextWord === 'anybody' || nextWord === 'everyone' || nextWord === 'everybody') && earlier.slice(lastNegation).some((x) => x.type === 'condition' || x.type === 'lifecycle' || x.type === 'mention')) {
    return { length: addedLen, items: [{ type: 'comma', start: at, end: at + addedLen }, { type: 'negation', start: at, end: at + addedLen, negation: 'except' }] };
  }
  if (adds && (nextWord === 'anyone' || nextWord === 'anybody' || nextWord === 'everyone' || nextWord === 'everybody' || quantified) && (ctx.items ?? []).some((x) => x.type === 'condition' || x.type === 'lifecycle')) {
    return { length: addedLen, items: [{ type: 'or', start: at, end: at + addedLen, clause: 'subject' }] };
  }
  if (word === 'either' && ctx.texts[at + 1]) return { length: 1, items: [] };
  if (word === 'and' || word === '&' || word === '+' || phraseAt(ctx, at, ['as', 'well', 'as']) || word === 'plus' || INCLUDING_WORDS.has(word)) {
    // "incl." / "including" / "plus" add to a list of places or stages ("north america incl mexico")
    let length = word === 'as' ? 3 : 1;
    if (INCLUDING_WORDS.has(word) && ctx.texts[at + 1] === '.') length++;
    return { length, items: [{ type: 'and', start: at, end: at + length }] };
  }
  if (word === ',') return { length: 1, items: [{ type: 'comma', start: at, end: at + 1 }] };
  // "US only: last order over 10k OR ltv over 50k": what comes before the colon holds for every alternative after it
  if (word === ':' && at <= 4 && ctx.items?.some((x) => x.type === 'condition' || x.type === 'lifecycle')) return { length: 1, items: [{ type: 'comma', start: at, end: at + 1 }] };
  if (BOUNDARIES.has(word)) return { length: 1, items: [{ type: 'boundary', start: at, end: at + 1, word }] };
  return undefined;
};

/** "have purchased before", "bought previously": no date follows, so it only says they bought. */
const recogniseEverBefore: Recogniser = (ctx, at) => {
  const w = ctx.texts[at];
  if (w !== 'before' && w !== 'previously' && w !== 'already') return undefined;
  const prev = ctx.previous;
  if (prev?.type !== 'mention' || !prev.mention.purchase || prev.end !== at) return undefined;
  if (recogniseDate(ctx, at)) return undefined;
  return { length: 1, items: [] };
};

/** "bought in q4 but not since": nothing after their last purchase, which the date already says. */
const END_FILLERS: string[][] = [['but', 'not', 'since'], ['and', 'not', 'since'], ['but', 'nothing', 'since'], ['and', 'nothing', 'since'], ['not', 'since', 'then'], ['nothing', 'since', 'then'], ['but', 'not', 'after'], ['and', 'not', 'after'], ['and', 'not', 'after', 'that'], ['but', 'not', 'after', 'that'], [',', 'nothing', 'since'], [',', 'none', 'since'], ['none', 'since', 'then'], ['nothing', 'after', 'that'], ['and', 'nothing', 'after'],
  // "got any clients in singapore … or not?": a yes-no question's tail
  ['or', 'not']];

const recogniseEndFiller: Recogniser = (ctx, at) => {
  for (const phrase of END_FILLERS) {
    const end = at + phrase.length;
    if (phraseAt(ctx, at, phrase) && (end >= ctx.tokens.length || CLAUSE_ENDS.has(ctx.texts[end]))) return { length: phrase.length, items: [] };
  }
  return undefined;
};

/** "up in the nordics", "out in Texas", "over in Europe": a particle before a place preposition. */
const PLACE_PARTICLES = new Set(['up', 'down', 'over', 'out']);

const recogniseFiller: Recogniser = (ctx, at) => {
  if (PLACE_PARTICLES.has(ctx.texts[at]) && ['in', 'at', 'around'].includes(ctx.texts[at + 1]) && ctx.items?.length) return { length: 1, items: [] };
  // "not leads, not subscribers, just paying customers": what follows "just" after a comma is not in the list
  if ((ctx.texts[at] === 'just' || ctx.texts[at] === 'only') && ctx.texts[at - 1] === ',') return { length: 1, items: [{ type: 'boundary', start: at, end: at + 1, word: ctx.texts[at] }] };
  for (const phrase of MULTI_WORD_FILLERS) if (phraseAt(ctx, at, phrase)) return { length: phrase.length, items: [] };
  if (FILLERS.has(ctx.texts[at])) return { length: 1, items: [] };
  return undefined;
};

// ---------------------------------------------------------------------------------------------------
// Presence checks, company modifiers and lists, lists of state codes

/** "email is not blank", "company name is empty", "first name is set": a presence test. */
const recognisePresenceCheck: Recogniser = (ctx, at) => {
  const mention = MENTIONS.match(ctx.texts, at);
  const field = mention?.value.presence;
  if (!mention || !field || field === 'lifecycleStage') return undefined;
  let pos = at + mention.len;
  if (ctx.texts[pos] === 'name' && field === 'company') pos++;
  if (VALUE_LINKS.has(ctx.texts[pos]) || ctx.texts[pos] === 'are') pos++;
  let negated = false;
  if (ctx.texts[pos] === 'not' || ctx.texts[pos] === "isn't" || ctx.texts[pos] === 'isnt') {
    negated = true;
    pos++;
  }
  const state = PRESENCE_STATES.match(ctx.texts, pos);
  // ("first name missing", "email blank": with no "is", only the words that cannot be read otherwise)
  const unlinked = state && ['missing', 'blank', 'empty', 'null', 'unset', 'populated'].includes(ctx.texts[pos]) && state.len === 1;
  if (!state || (pos === at + mention.len && !unlinked)) return undefined;
  const present = state.value !== negated;
  const node: SegmentNode =
    field === 'firstName' || field === 'lastName' || field === 'email' || field === 'company' || field === 'country' || field === 'city' || field === 'state' || field === 'lifetimeValue' || field === 'lastPurchaseAmount' || field === 'lastPurchaseDate' || field === 'createdAt'
      ? { field, op: present ? 'is_set' : 'is_not_set' }
      : { field: 'email', op: 'is_set' };
  return conditionMatch(at, pos + state.len, node as Condition, `has:${field}`, field);
};

/** Whether the item just read is an exception ending at `at` ("everyone except …", "excl …"). */
const afterException = (ctx: GrammarContext, at: number) => ctx.previous?.type === 'negation' && ctx.previous.negation === 'except' && ctx.previous.end === at;

/** A word that can only be a name here: no English word, place, keyword or code ("globex", "harborcraft"). */
function nameOnlyWord(ctx: GrammarContext, k: number): boolean {
  const w = ctx.texts[k];
  return isPlainUnknownWord(ctx, k) && w.length > 2 && /^\p{L}+$/u.test(w) && !isEnglishWord(w) && !PLACES.match(ctx.texts, k) && !ctx.vocabulary?.matchPlace(ctx.texts, k) && !EMAIL_PROVIDERS.has(w);
}

/**
 * A name the words around make a company's: one or two name-only words before the noun they qualify that are part
 * of one of the CRM's names ("harborcraft ppl in seattle": "Harborcraft", its spelling), or a name-only word
 * continuing a list of companies ("from acme or globex"; one the CRM does not hold is asked about before it runs).
 */
function guessedCompanyModifier(ctx: GrammarContext, at: number): Match | undefined {
  const words = ctx.texts;
  const prev = ctx.previous;
  const company = (start: number, end: number, lead: Item[] = []): Match => {
    const typed = ctx.tokens.slice(start, end).map((t) => t.raw.charAt(0).toUpperCase() + t.raw.slice(1)).join(' ');
    const spelled = ctx.knownCompanies?.spelling(typed);
    const m = companyMatch(ctx, start, end, spelled ?? typed, spelled === undefined);
    return { length: end - at, items: [...lead, ...m.items] };
  };
  // "from acme or globex": after a company, a name-only word joined to it
  if (prev?.type === 'condition' && prev.field === 'company' && (words[at] === 'or' || words[at] === 'and' || words[at] === ',') && nameOnlyWord(ctx, at + 1) && !ctx.tokens[at + 1].cap) {
    const joiner: Item = words[at] === 'or' ? { type: 'or', start: at, end: at + 1 } : words[at] === 'and' ? { type: 'and', start: at, end: at + 1 } : { type: 'comma', start: at, end: at + 1 };
    return company(at + 1, at + 2, [joiner]);
  }
  // ("everyone except acme people": only at a word that starts the phrase)
  if (!nameOnlyWord(ctx, at) || (at > 0 && nameOnlyWord(ctx, at - 1))) return undefined;
  const run = nameOnlyWord(ctx, at + 1) ? 2 : 1;
  const known = (start: number, end: number) => ctx.knownCompanies?.spelling(ctx.tokens.slice(start, end).map((t) => t.raw).join(' ')) !== undefined;
  // "orbitpeak or sunline people": a list of names the CRM holds before the noun (the rest continue the list)
  let end = at + run;
  if (run === 1) while (['or', 'and', ','].includes(words[end]) && nameOnlyWord(ctx, end + 1) && known(end + 1, end + 2)) end += 2;
  // "everyone except acme", "anyone outside silvermark": after an exception, a name the CRM holds needs no noun
  const excepted = afterException(ctx, at);
  if (!companyHead(ctx, end) && !excepted) return undefined;
  // before a noun only a part of a name the CRM holds: "saas accounts", "fintech contacts" stay not understood
  if (!known(at, at + run)) return undefined;
  return company(at, at + run);
}

/** A single CRM company name that is also an English word, before a noun ("acme leads"): allowed if not a keyword. */
const modifierWord = (w: string) => !isVocabulary(w) && !FILLERS.has(w);

/** The nouns a company name may qualify ("initech contacts", "acme leads", "brunet robotics ppl"). */
function companyHead(ctx: GrammarContext, at: number): boolean {
  const w = ctx.texts[at];
  // ("besides the acme ones")
  return w !== undefined && (SUBJECT_NOUNS.has(w) || GENERIC_NOUNS.includes(w) || STAGES.match(ctx.texts, at) !== undefined || w === 'people' || w === 'employees' || w === 'ones');
}

/**
 * One of the CRM's companies used as a modifier ("scardino health contacts in milan", "everyone except acme
 * people"), or continuing a list of companies ("at O'Conner & Funk or Stamm & Swaniawski").
 */
const recogniseCompanyModifier: Recogniser = (ctx, at) => {
  const known = ctx.knownCompanies;
  const words = ctx.texts;
  const prev = ctx.previous;
  // "at harborcraft networks or orbitpeak foods", "at Harborbridge Motors as well as Silvermark": after a company, one
  // of the CRM's names joined to it, whole (before a guess that takes its first word only)
  const joinerLen = words[at] === 'or' || words[at] === 'and' || words[at] === ',' || words[at] === '&' ? 1 : phraseAt(ctx, at, ['as', 'well', 'as']) ? 3 : 0;
  if (known && joinerLen > 0 && prev?.type === 'condition' && prev.field === 'company' && ctx.tokens[at + joinerLen]) {
    const m = known.match(words, at + joinerLen, { singleWord: modifierWord });
    if (m && (PLACES.match(words, at + joinerLen)?.len ?? 0) < m.len) {
      const end = at + joinerLen;
      const joiner: Item = words[at] === 'or' ? { type: 'or', start: at, end } : words[at] === ',' ? { type: 'comma', start: at, end } : { type: 'and', start: at, end };
      return { length: joinerLen + m.len, items: [joiner, condition(end, end + m.len, { field: 'company', op: 'contains', value: m.value }, 'company', 'company')] };
    }
  }
  const guessed = guessedCompanyModifier(ctx, at);
  if (guessed) return guessed;
  if (!known) return undefined;
  const m = known.match(words, at, { singleWord: modifierWord });
  if (!m || (PLACES.match(words, at)?.len ?? 0) >= m.len) return undefined;
  // "acme or trueleaf contacts": a list of companies before the noun
  let end = at + m.len;
  while ((words[end] === 'or' || words[end] === 'and' || words[end] === ',') && known.match(words, end + 1, { singleWord: modifierWord })) end += 1 + (known.match(words, end + 1, { singleWord: modifierWord })?.len ?? 0);
  // ("everyone except acme", "anyone outside acme and silvermark": after an exception no noun is needed)
  const excepted = afterException(ctx, at);
  if (!companyHead(ctx, end) && !excepted && !(words[at + m.len] === "'s" || words[at + m.len] === 's')) return undefined;
  return conditionMatch(at, at + m.len, { field: 'company', op: 'contains', value: m.value }, 'company');
};

/**
 * A list of US state codes: "AK, AZ, CA, OR, WA", "in wa, or, id". Inside a list, the codes that are also
 * English words are codes ("or" between commas is Oregon); lower-case lists need "in" / "from" before them.
 */
const recogniseStateCodeList: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  let pos = at;
  let preposition = false;
  for (const phrase of PLACE_PREPOSITIONS) {
    if (phraseAt(ctx, pos, phrase)) {
      preposition = true;
      pos += phrase.length;
      break;
    }
  }
  const isCode = (k: number) => ctx.tokens[k]?.kind === 'word' && words[k].length === 2 && STATE_CODES.has(words[k]);
  if (!isCode(pos)) return undefined;
  const codes: number[] = [pos];
  let k = pos + 1;
  const afterExclusion = afterException(ctx, at);
  for (;;) {
    // ("excl ca ny": codes side by side after an exclusion)
    if (afterExclusion && isCode(k) && !AMBIGUOUS_STATE_CODES.has(words[k])) {
      codes.push(k);
      k++;
      continue;
    }
    // ", or nc": the list's last "or" (Oxford comma); ", or, " / ", or" at the end: Oregon
    if (words[k] === ',' && (words[k + 1] === 'or' || words[k + 1] === 'and') && isCode(k + 2) && words[k + 3] !== ',') {
      codes.push(k + 2);
      k += 3;
      continue;
    }
    if (words[k] === ',' && isCode(k + 1)) {
      codes.push(k + 1);
      k += 2;
      continue;
    }
    if ((words[k] === 'or' || words[k] === 'and' || words[k] === '&' || words[k] === '/') && isCode(k + 1) && words[k + 2] !== ',' ) {
      codes.push(k + 1);
      k += 2;
      continue;
    }
    if (words[k] === ',' && (words[k + 1] === 'or' || words[k + 1] === 'and') && isCode(k + 2)) {
      codes.push(k + 2);
      k += 3;
      continue;
    }
    break;
  }
  if (codes.length < 2) return undefined;
  const allUpper = codes.every((c) => ctx.tokens[c].upper);
  // ("us buyers excl ca ny": after an exclusion, as after "in")
  if (!allUpper && !preposition && !afterExclusion) return undefined;
  const values = [...new Set(codes.map((c) => STATE_CODES.get(words[c]) as string))];
  const node: Condition = values.length === 1 ? { field: 'state', op: 'eq', value: values[0] } : { field: 'state', op: 'in', values };
  return conditionMatch(at, k, node, 'location', 'state');
};

/** Two-letter words that are English before a noun ("no customers", "it leads"), never read as a code alone. */
const CODE_WORDS = new Set([
  'no', 'it', 'be', 'is', 'me', 'we', 'he', 'go', 'do', 'my', 'am', 'an', 'hi', 'ok', 'oh', 'id', 'so', 'to', 'up', 'us',
  // business abbreviations before a noun ("hr contacts", "ad leads", "tv signups"), and "sa" (South Africa? Saudi Arabia?)
  'hr', 'pr', 'tv', 'ad', 'ai', 'qa', 'ml', 'cv', 'bi', 'im', 'pm', 'ba', 'na', 'sa', 'ps', 'fm', 'dj', 'co',
]);

/**
 * Two-letter place codes in front of the contacts or in a list of their own: "tx customers", "de contacts",
 * "fr leads", "de/at/ch", "opps ca tx ny". A list takes the reading all its codes share (countries for
 * de/at/ch, states for ca tx ny); a lone code that is a country and a state ("de": Germany or Delaware) is the
 * one the CRM holds, or asked about.
 */
const recognisePlaceCodes: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  const isCode = (k: number) => ctx.tokens[k]?.kind === 'word' && words[k].length === 2 && codeReadings(words[k]).length > 0;
  if (!isCode(at)) return undefined;
  const codes = [at];
  let k = at + 1;
  let spaced = false;
  let slashed = false;
  for (;;) {
    if ((words[k] === '/' || words[k] === ',' || words[k] === '&' || words[k] === 'or' || words[k] === 'and') && isCode(k + 1)) {
      if (words[k] === '/') slashed = true;
      codes.push(k + 1);
      k += 2;
    } else if (isCode(k) && !FUNCTION_WORDS.has(words[k]) && !CODE_WORDS.has(words[k])) {
      codes.push(k);
      spaced = true;
      k++;
    } else break;
  }
  const texts = codes.map((c) => words[c]);
  const subjectAfter = SUBJECT_NOUNS.has(words[k]) || STAGES.match(words, k) !== undefined;
  if (codes.length === 1) {
    if (FUNCTION_WORDS.has(texts[0]) || CODE_WORDS.has(texts[0]) || !subjectAfter) return undefined;
  } else {
    // a list needs codes that are not English words ("in or", "de/at/ch" has de and ch)
    const plain = texts.filter((t) => !isEnglishWord(t)).length;
    if (spaced ? plain < 2 || texts.some((t) => FUNCTION_WORDS.has(t) || CODE_WORDS.has(t)) : plain < 1 && !(slashed && texts.filter((t) => !FUNCTION_WORDS.has(t) && !CODE_WORDS.has(t)).length >= Math.ceil(texts.length / 2))) return undefined;
  }
  // a lone code is read only as a place the CRM holds, when its places are known ("ad leads" are not Andorra's)
  const known = (r: { field: 'country' | 'state'; value: string }) => !ctx.vocabulary?.hasField(r.field) || ctx.vocabulary.spellingsOf(r.field, r.value) !== undefined;
  const readings = texts.map((t) => (codes.length === 1 ? codeReadings(t).filter(known) : codeReadings(t)));
  const shared = (['country', 'state'] as const).filter((f) => readings.every((r) => r.some((x) => x.field === f)));
  if (shared.length === 0) return undefined;
  const build = (field: 'country' | 'state'): Condition => {
    const values = [...new Set(readings.map((r) => r.find((x) => x.field === field)!.value))];
    return crmSpelling(ctx, values.length === 1 ? { field, op: 'eq', value: values[0] } : { field, op: 'in', values });
  };
  let field: 'country' | 'state' = shared[0];
  const held = shared.filter((f) => readings.every((r) => ctx.vocabulary?.spellingsOf(f, r.find((x) => x.field === f)!.value)));
  if (held.length === 1) field = held[0];
  const match = conditionMatch(at, k, build(field), 'location', field);
  // a lone lower-case code that is also a word or a city's initials ("la", "pa", "de"): asked before it runs
  if (codes.length === 1 && !ctx.tokens[at].upper && AMBIGUOUS_STATE_CODES.has(texts[0])) {
    const item = match.items[0] as Extract<Item, { type: 'condition' }>;
    const others = (['country', 'state'] as const).filter((f) => f !== field && shared.includes(f));
    item.alternatives = others.map((o) => ({ label: `${o} ${readings[0].find((x) => x.field === o)!.value}`, node: build(o) }));
    if (item.alternatives.length === 0) item.alternatives = [{ label: `${field} ${readings[0].find((x) => x.field === field)!.value}`, node: build(field) }];
    item.issue = `"${texts[0]}" may not be a place code: I read it as the ${field} ${readings[0].find((x) => x.field === field)!.value}.`;
    return match;
  }
  if (shared.length === 2 && held.length !== 1) {
    const other = field === 'country' ? 'state' : 'country';
    const item = match.items[0] as Extract<Item, { type: 'condition' }>;
    item.alternatives = [{ label: `${other} ${readings.map((r) => r.find((x) => x.field === other)!.value).join(', ')}`, node: build(other) }];
    item.issue = `"${texts.join('/')}" is a country code and a US state code: I read it as the ${field}.`;
  }
  return match;
};

/** The order in which recognisers are tried at each position. */
const recogniseDescriptor: Recogniser = (ctx, at) => {
  const m = VALUE_DESCRIPTORS.match(ctx.texts, at);
  if (!m) return undefined;
  // ("whales" alone ranks like "biggest spenders": a superlative, read before this)
  // ("vip = ltv 10k+ OR …": the definition that follows an equals sign is the description's)
  const len = m.len + (ctx.texts[at + m.len] === '=' ? 1 : 0);
  return { length: len, items: [{ type: 'descriptor', start: at, end: at + len, text: sourceText(ctx, at, at + m.len), kind: m.value }] };
};

/**
 * "leads that aren't MQLs yet", "leads not yet sales qualified": not yet at a sub-stage means before it, so the
 * negation covers that sub-stage and every later one of the same stage (HubSpot's order).
 */
function notYetStages(hubspot: readonly LifecycleValue[]): LifecycleValue[] {
  const at = Math.min(...hubspot.map((v) => LIFECYCLE_VALUES.indexOf(v)));
  const same = new Set(LIFECYCLE_HUBSPOT_VALUES.lead);
  if (!hubspot.every((v) => same.has(v))) return [...hubspot];
  return LIFECYCLE_VALUES.filter((v, k) => k >= at && same.has(v));
}

const recogniseNotYet: Recogniser = (ctx, at) => {
  const items = ctx.items ?? [];
  const prev = items.at(-1);
  // "not yet MQLs" (the negation read "not yet")
  if (prev?.type === 'negation' && prev.end === at && ctx.texts[at - 1] === 'yet') {
    const m = STAGES.match(ctx.texts, at);
    if (m?.value.hubspot) return { length: m.len, items: [{ type: 'lifecycle', start: at, end: at + m.len, stage: m.value.stage, generic: false, hubspot: notYetStages(m.value.hubspot) }] };
  }
  if (ctx.texts[at] !== 'yet') return undefined;
  // "aren't MQLs yet"
  if (prev?.type === 'lifecycle' && prev.hubspot && prev.end === at && items.at(-2)?.type === 'negation') {
    prev.hubspot = notYetStages(prev.hubspot);
    return { length: 1, items: [] };
  }
  // "not yet MQLs"
  if (prev?.type === 'negation' && prev.end === at) {
    const m = STAGES.match(ctx.texts, at + 1);
    if (m?.value.hubspot) return { length: 1 + m.len, items: [{ type: 'lifecycle', start: at + 1, end: at + 1 + m.len, stage: m.value.stage, generic: false, hubspot: notYetStages(m.value.hubspot) }] };
  }
  return undefined;
};

/** "canadian opps, quebec excluded", "germany not included": the condition just read is excluded. */
const recogniseExcluded: Recogniser = (ctx, at) => {
  const len = ['excluded', 'excepted', 'exempted'].includes(ctx.texts[at]) ? 1 : phraseAt(ctx, at, ['not', 'included']) || phraseAt(ctx, at, ['left', 'out']) ? 2 : 0;
  if (!len) return undefined;
  const prev = ctx.items?.at(-1);
  // ("leads in india, MQLs excluded": a stage word too)
  if ((prev?.type !== 'condition' && prev?.type !== 'lifecycle') || prev.end !== at) return undefined;
  // read as "except <condition>", so that it never joins a list before it ("europe, germany not included")
  ctx.items!.pop();
  const comma = ctx.items!.at(-1)?.type === 'comma' ? ctx.items!.pop() : undefined;
  return { length: len, items: [...(comma ? [comma] : []), { type: 'negation', start: prev.start, end: prev.start, negation: 'except' }, prev] };
};

const YEAR_WORDS = new Set(['year', 'years', 'yr', 'yrs', 'y']);
const AGE_COMPARATORS = new Set(['under', 'over', 'above', 'below', 'older', 'younger', 'than', 'at', 'least', 'most', 'less', 'more', 'aged', 'age', 'ages', 'between', 'and', 'to', '-', 'or', '<', '>', '<=', '>=', 'plus', '+']);

/**
 * "under 30 yrs old", "aged 25 or younger", "ages 18-24": a person's age, which no contact field holds. Read as one
 * phrase not understood (so the question asks), never as a date ("30 years" ago) or an amount.
 */
const recogniseAge: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  const isNumber = (k: number) => ctx.tokens[k]?.kind === 'number';
  let k = at;
  while (k < words.length && AGE_COMPARATORS.has(words[k]) && k - at < 3) k++;
  const aged = words.slice(at, k).some((w) => w === 'aged' || w === 'age' || w === 'ages');
  if (!isNumber(k)) return undefined;
  let end = k + 1;
  if ((words[end] === '-' || words[end] === 'to' || words[end] === 'and') && isNumber(end + 1)) end += 2;
  if (YEAR_WORDS.has(words[end]) && words[end + 1] === 'old') end += 2;
  else if (words[end] === 'y' && words[end + 1] === '/' && words[end + 2] === 'o') end += 3;
  else if (aged) {
    if (YEAR_WORDS.has(words[end])) end++;
  } else return undefined;
  // "aged 25 or younger", "30 years old or over"
  if (words[end] === 'or' && ['younger', 'older', 'under', 'over', 'more', 'less', 'above', 'below'].includes(words[end + 1])) end += 2;
  else if (words[end] === 'and' && ['up', 'over', 'under', 'older', 'younger', 'above', 'below'].includes(words[end + 1])) end += 2;
  else if (words[end] === '+' || words[end] === 'plus') end++;
  return { length: end - at, items: [{ type: 'unknown', start: at, end, unanswerable: true }] };
};

const DISTANCE_UNITS = new Set(['mile', 'miles', 'mi', 'km', 'kms', 'kilometer', 'kilometers', 'kilometre', 'kilometres']);

/**
 * "within 50 miles of austin", "a 25 km radius around munich": a distance from a place, which no contact field
 * holds (there are no coordinates). The whole phrase, place included, is not understood: the contacts near Austin
 * are not the contacts in Austin, so the place is not applied either.
 */
const recogniseDistance: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  let k = at;
  while (['within', 'inside', 'a', 'an', 'around', 'about', 'roughly', 'up', 'to', 'less', 'than', 'under', 'max'].includes(words[k]) && k - at < 3) k++;
  if (ctx.tokens[k]?.kind !== 'number' || !DISTANCE_UNITS.has(words[k + 1] ?? '')) return undefined;
  let end = k + 2;
  if (words[end] === 'radius') end++;
  if (!['of', 'from', 'around', 'near'].includes(words[end] ?? '')) return undefined;
  end++;
  if (words[end] === 'the') end++;
  const place = Math.max(ctx.vocabulary?.matchPlace(words, end)?.len ?? 0, PLACES.match(words, end)?.len ?? 0, properNameRun(ctx, end, 3));
  if (place === 0) return undefined;
  end += place;
  return { length: end - at, items: [{ type: 'unknown', start: at, end, count: true, unanswerable: true }] };
};

/** Words after a noun that make it a count ("order count", "orders qty"). */
const COUNT_SUFFIXES = new Set(['count', 'counts', 'cnt', 'number', 'num', 'qty', 'quantity']);

/** Words before a noun that make it a count ("number of orders", "num orders", "# of purchases"). */
const COUNT_PREFIXES: string[][] = [['number', 'of'], ['num', 'of'], ['num'], ['#', 'of'], ['#'], ['no', '.', 'of'], ['count', 'of'], ['total', 'number', 'of'], ['nr', 'of']];

/**
 * "number of orders >= 3", "orders > 3", "# of purchases at least 2": how many orders, which no contact field
 * holds (only the last order's amount is stored). Never an amount: "orders > 3" is not a last order over $3. Without
 * a word that says "number", only a small whole number with no currency is a count ("orders over 500" is an amount).
 */
const recogniseOrderCount: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  // "sorted by # of orders", "rank by order count": an order by a count no field holds
  const sortBy = ['sorted', 'sort', 'ordered', 'ranked', 'rank'].includes(words[at]) && words[at + 1] === 'by' ? 2 : 0;
  // (the lexer drops "#": "# of orders" reaches here as "of orders")
  const hashOf = words[at + sortBy] === 'of' && ctx.source.slice(0, ctx.tokens[at + sortBy].start).trimEnd().endsWith('#') ? ['of'] : undefined;
  const prefix = COUNT_PREFIXES.find((p) => phraseAt(ctx, at + sortBy, p)) ?? hashOf;
  let k = at + sortBy + (prefix?.length ?? 0);
  if (!PURCHASE_COUNT_NOUNS.has(words[k] ?? '')) return undefined;
  // ("order count > 3", "order_count >= 2": the count said after the noun)
  const postfix = COUNT_SUFFIXES.has(words[k + 1] ?? '');
  if (!prefix && !postfix && !words[k].endsWith('s')) return undefined;
  k += postfix ? 2 : 1;
  if (sortBy) return prefix || postfix ? { length: k - at, items: [{ type: 'unknown', start: at, end: k, count: true, unanswerable: true }] } : undefined;
  const explicit = prefix !== undefined || postfix;
  const cmp = COMPARATORS_BEFORE.match(words, k) ?? (words[k] === '=' || words[k] === 'is' ? { len: 1 } : undefined);
  if (!cmp) return undefined;
  k += cmp.len;
  const n = ctx.tokens[k];
  if (n?.kind !== 'number' || n.num === undefined || isCurrencyAt(ctx, k + 1)) return undefined;
  if (!explicit && (n.scaled || !Number.isInteger(n.num) || n.num > 20)) return undefined;
  const end = k + 1 + (words[k + 1] === '+' ? 1 : 0);
  return { length: end - at, items: [{ type: 'unknown', start: at, end, count: true, unanswerable: true }] };
};

const LANGUAGE_WORDS = new Set(['speaking', 'speaker', 'speakers', 'language', 'languages', 'speak']);

/**
 * "french-speaking contacts", "spanish speakers": the language people speak, which no contact field holds. The
 * nationality word is not the country here ("french-speaking contacts in belgium"), so the phrase is not understood.
 */
const recogniseLanguage: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  // "whose preferred language is German", "language: french": the language, never the country
  if ((words[at] === 'language' || words[at] === 'languages') && ['is', '=', ':', 'of'].includes(words[at + 1] ?? '') && PLACES.match(words, at + 2)?.len === 1) {
    return { length: 3, items: [{ type: 'unknown', start: at, end: at + 3, unanswerable: true }] };
  }
  const place = PLACES.match(words, at);
  if (!place || place.len !== 1) return undefined;
  const next = words[at + 1] === '-' ? at + 2 : at + 1;
  if (!LANGUAGE_WORDS.has(words[next] ?? '')) return undefined;
  return { length: next + 1 - at, items: [{ type: 'unknown', start: at, end: next + 1, unanswerable: true }] };
};

const FORECAST_WORDS = new Set(['predicted', 'projected', 'forecast', 'forecasted', 'expected', 'estimated', 'potential', 'future', 'predictive']);
const PURCHASE_EVENT_WORDS = new Set(['purchase', 'purchases', 'order', 'orders', 'buy', 'bought', 'purchased', 'ordered', 'transaction', 'sale', 'deal']);
const TIME_ZONE_CODES = new Set(['cet', 'cest', 'est', 'edt', 'pst', 'pdt', 'cst', 'cdt', 'mst', 'mdt', 'gmt', 'bst', 'ist', 'aest', 'aedt', 'jst', 'sgt', 'eet', 'wet', 'utc']);

/**
 * Things the contacts have no field for, said with a date or a name that would otherwise apply to another field:
 * "first purchase in 2025", "whose first order was last year" (only the last purchase is stored: the date is not the
 * last purchase's), "in the CET time zone", "pacific timezone" (no time zone is stored: CET is no city).
 */
const recogniseUnstored: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  if (words[at] === 'first' && PURCHASE_EVENT_WORDS.has(words[at + 1] ?? '')) {
    // (only with its date, which would otherwise be the last purchase's: "First Purchase Nudge – …" is a title)
    const from = words[at + 2] === 'was' || words[at + 2] === 'is' ? at + 3 : at + 2;
    const date = recogniseDate(ctx, from);
    if (date) return { length: from + date.len - at, items: [{ type: 'unknown', start: at, end: from + date.len, unanswerable: true }] };
  }
  // "predicted clv over 2k", "projected revenue above 10k": a forecast of an amount, which no field holds (the lifetime
  // value is what they did spend), with its comparison
  if (FORECAST_WORDS.has(words[at]) && MENTIONS.match(words, at + 1)?.value.money) {
    let end = at + 1 + MENTIONS.match(words, at + 1)!.len;
    if (VALUE_LINKS.has(words[end])) end++;
    const cmp = COMPARATORS_BEFORE.match(words, end);
    if (cmp) end += cmp.len;
    const amount = amountAt(ctx, end);
    if (amount) end += amount.length;
    return { length: end - at, items: [{ type: 'unknown', start: at, end, unanswerable: true }] };
  }
  const zoneAt = (k: number) => (phraseAt(ctx, k, ['time', 'zone']) ? 2 : words[k] === 'timezone' || words[k] === 'timezones' || words[k] === 'tz' ? 1 : 0);
  // ("in the CET time zone": read from the preposition, before "in the CET" is taken for a city)
  for (const len of [1, 2, 3]) {
    const z = zoneAt(at + len);
    if (z > 0 && ctx.tokens.slice(at, at + len).every((t) => t.kind === 'word')) return { length: len + z, items: [{ type: 'unknown', start: at, end: at + len + z, unanswerable: true }] };
  }
  if (TIME_ZONE_CODES.has(words[at]) && ctx.tokens[at].upper && ['in', 'the', 'on'].includes(words[at - 1] ?? '')) return { length: 1, items: [{ type: 'unknown', start: at, end: at + 1, unanswerable: true }] };
  return undefined;
};

/**
 * "my accounts in texas", "my leads", "my book of business": contacts owned by the user, which no contact field
 * holds (there is no owner). The "my" is not understood (so the question asks); a stage after it still applies.
 */
const recogniseOwner: Recogniser = (ctx, at) => {
  const words = ctx.texts;
  if (words[at] !== 'my' && !(words[at] === 'i' && (words[at + 1] === 'own' || words[at + 1] === 'manage'))) return undefined;
  let end = at + (words[at] === 'my' ? 1 : 2);
  if (words[at] === 'my' && words[end] === 'own') end++;
  const noun = words[end];
  if (noun === undefined) return undefined;
  const isStage = STAGES.match(words, end) !== undefined;
  if (!isStage && !SUBJECT_NOUNS.has(noun) && !['book', 'territory', 'portfolio', 'patch', 'region', 'pipeline', 'deals', 'opps', 'list', 'team'].includes(noun)) return undefined;
  if (!isStage) end += phraseAt(ctx, end, ['book', 'of', 'business']) ? 3 : 1;
  return { length: end - at, items: [{ type: 'unknown', start: at, end, unanswerable: true }] };
};

/** "hasPurchased = true", "has purchased: no": the derived field written as filter syntax. */
const recogniseHasPurchasedFlag: Recogniser = (ctx, at) => {
  const w = ctx.texts;
  if (w[at] !== 'has' || !['purchased', 'bought'].includes(w[at + 1]) || !['=', '==', ':', 'is', '!='].includes(w[at + 2])) return undefined;
  const truth = ({ true: true, yes: true, '1': true, false: false, no: false, '0': false } as Record<string, boolean>)[w[at + 3]];
  if (truth === undefined) return undefined;
  return conditionMatch(at, at + 4, { field: 'hasPurchased', op: 'eq', value: w[at + 2] === '!=' ? !truth : truth }, 'hasPurchased');
};

/** "a min ltv of 800", "maximum order value 2k": a bound said before the money field it bounds. */
const recogniseBoundedField: Recogniser = (ctx, at) => {
  const w = ctx.texts;
  const bound = ({ min: 'gte', minimum: 'gte', max: 'lte', maximum: 'lte' } as Record<string, Cmp>)[w[at]];
  if (!bound) return undefined;
  const m = MENTIONS.match(w, at + 1);
  if (!m?.value.money) return undefined;
  let pos = at + 1 + m.len;
  if (['of', 'is', '=', ':'].includes(w[pos])) pos++;
  const amount = amountAt(ctx, pos);
  if (!amount || ctx.tokens[pos].plus) return undefined;
  return {
    length: pos + amount.length - at,
    items: [
      { type: 'mention', start: at, end: at + 1 + m.len, mention: m.value },
      { type: 'value', start: pos, end: pos + amount.length, comparison: bound, amount: amount.value, money: amount.money },
    ],
  };
};

/** "a company email address": a work address (read before "with a company" is taken for a company being set). */
const recogniseCompanyMail: Recogniser = (ctx, at) => {
  const k = ctx.texts[at] === 'a' || ctx.texts[at] === 'an' ? at + 1 : at;
  if (ctx.texts[k] !== 'company') return undefined;
  const m = personalMail(ctx, k);
  return m ? { length: k - at + m.length, items: m.items } : undefined;
};

/** "(a work email,) not a personal one", "not a free address": any domain but a free provider's, said the other way. */
const recogniseNotPersonalMail: Recogniser = (ctx, at) => {
  const t = ctx.texts;
  if (t[at] !== 'not' && t[at] !== 'no') return undefined;
  let k = at + 1;
  if (t[k] === 'a' || t[k] === 'an') k++;
  if (!PERSONAL_MAIL_WORDS.has(t[k] ?? '')) return undefined;
  const noun = t[k + 1] === 'one' || t[k + 1] === '1' || t[k + 1] === 'ones' ? k + 2 : MAIL_WORDS.has(t[k + 1] ?? '') ? k + 2 + (MAIL_AFTER.has(t[k + 2] ?? '') ? 1 : 0) : -1;
  return noun < 0 ? undefined : mailKindMatch(ctx, at, examplesAfter(ctx, noun), true);
};

/** Words that group a list by a field ("per country", "broken down by state"): a breakdown the product does not make. */
const GROUPINGS: string[][] = [['per'], ['for', 'each'], ['by', 'each'], ['in', 'each'], ['grouped', 'by'], ['group', 'by'], ['broken', 'down', 'by'], ['breakdown', 'by'], ['break', 'down', 'by'], ['split', 'by']];
const GROUP_FIELDS = new Set(['country', 'countries', 'state', 'states', 'city', 'cities', 'region', 'regions', 'stage', 'stages', 'company', 'companies', 'month', 'months', 'quarter', 'quarters', 'year', 'week', 'domain', 'province', 'provinces']);

/** "how many leads per country", "customers broken down by state": a count per group, which no list answers. */
const recogniseGrouping: Recogniser = (ctx, at) => {
  const g = GROUPINGS.find((p) => phraseAt(ctx, at, p));
  if (!g) return undefined;
  const k = at + g.length;
  if (!GROUP_FIELDS.has(ctx.texts[k] ?? '')) return undefined;
  return { length: k + 1 - at, items: [{ type: 'unknown', start: at, end: k + 1, unanswerable: true }] };
};

/** "(no order in 6 mo, us)": "us" said alone after a comma, closing the list, is the country, never the pronoun. */
const recogniseUsAfterComma: Recogniser = (ctx, at) => {
  const w = ctx.texts;
  if (w[at] !== 'us' || w[at - 1] !== ',' || !(at + 1 >= w.length || [')', '.', '?', '!', ','].includes(w[at + 1]))) return undefined;
  return conditionMatch(at, at + 1, { field: 'country', op: 'eq', value: 'United States' }, 'location', 'country');
};

export const RECOGNISERS: Recogniser[] = [
  recogniseGrouping,
  recogniseUsAfterComma,
  recogniseUnstored,
  recogniseCompanyMail,
  recogniseNotPersonalMail,
  recogniseDistance,
  recogniseLanguage,
  recogniseOrderCount,
  recogniseHasPurchasedFlag,
  recogniseBoundedField,
  recogniseAge,
  recogniseOwner,
  recogniseNotYet,
  recogniseExcluded,
  recogniseTldWord,
  recogniseSort,
  recogniseDescriptor,
  recognisePresenceCheck,
  recogniseName,
  recogniseLookupName,
  recogniseEmail,
  recogniseCompanyNameWord,
  recogniseCompany,
  recogniseSuffixedCompany,
  recogniseCompanyModifier,
  // "with lifecycle stage evangelist": the stage named, before "lifecycle stage" is read as a mention
  (ctx, at) => (ctx.texts[at] === 'lifecycle' || ctx.texts[at] === 'stage' ? recogniseLifecycle(ctx, at) : undefined),
  mentionRecogniser(true),
  recogniseInactivity,
  recogniseValue,
  recogniseDateItem,
  recogniseStateCodeList,
  recognisePlace,
  recognisePlaceCodes,
  recogniseLifecycle,
  recogniseDealAmount,
  recogniseDealClosed,
  mentionRecogniser(false),
  recogniseEndFiller,
  recogniseNegation,
  recogniseConnector,
  recogniseEverBefore,
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
      // "who are really active": an adverb is not the verb of its clause
      const adverb = /ly$/.test(ctx.texts[at]) || INTENSIFIERS.has(ctx.texts[at]);
      items.push({ type: 'unknown', start: at, end: at + 1, adverb });
      at++;
    }
    ctx.previous = items[items.length - 1];
    ctx.items = items;
  }
  const marked = items.map((x) => (x.type === 'condition' && x.slot === 'location' && ctx.tokens[x.start].kind === 'word' && x.start > 0 && !PLACE_PREPOSITIONS.some((p) => p[0] === ctx.texts[x.start]) && !FUNCTION_WORDS.has(ctx.texts[x.start]) && !BOUNDARIES.has(ctx.texts[x.start]) ? { ...x, bare: true } : x));
  return asides(ctx, namedProviders(ctx, possessiveDates(ctx, withoutSmallTalk(ctx, withoutRequestFrame(ctx, selfCorrections(ctx, marked))))));
}

/** Words that correct what was just said, after a pause ("— sorry, …", "? actually scratch latam, just …"). */
const CORRECTION_MARKERS: string[][] = [
  ['actually'], ['sorry'], ['i', 'mean'], ['i', 'meant'], ['no', 'wait'], ['wait'], ['correction'], ['or', 'rather'], ['rather'],
  ['make', 'that'], ['scratch', 'that'], ['change', 'that', 'to'], ['oops'],
];
/** What a correction takes back ("scratch latam", "drop the UK", "not texas"). */
const RETRACT_WORDS = new Set(['scratch', 'drop', 'remove', 'forget', 'not', 'minus', 'skip']);

/**
 * A correction of what was just said: "leads in arizona — sorry, arizona and nevada", "customers in texas —
 * actually make that texas and oklahoma", "who in latam bought in the past 2 weeks? actually scratch latam,
 * just mexico and colombia". What follows the marker replaces what was said before of the same kind (places,
 * stages, dates, amounts); what it takes back ("scratch latam") is dropped.
 */
function selfCorrections(ctx: GrammarContext, items: Item[]): Item[] {
  const t = ctx.texts;
  let marker = -1;
  let markerLen = 0;
  for (let k = 1; k < t.length && marker < 0; k++) {
    if (!['-', ',', '.', '?', '!', ';', '('].includes(t[k - 1])) continue;
    const m = CORRECTION_MARKERS.find((p) => phraseAt(ctx, k, p));
    if (m) {
      marker = k;
      markerLen = m.length;
    }
  }
  if (marker < 0) return items;
  let from = marker + markerLen;
  const kind = (x: Item) => (x.type === 'condition' ? `c:${x.slot}` : x.type === 'lifecycle' ? 'c:lifecycle' : x.type === 'date' ? 'date' : x.type === 'value' ? 'value' : undefined);
  const before = items.filter((x) => x.end <= marker);
  let after = items.filter((x) => x.start >= from);
  // "scratch latam": what it takes back, up to the next comma
  const retracted = new Set<string>();
  if (RETRACT_WORDS.has(t[from])) {
    from++;
    for (const x of after) {
      if (x.start < from) continue;
      if (x.type === 'comma' || x.type === 'boundary') break;
      if (x.type === 'condition') retracted.add(JSON.stringify(x.node));
    }
    after = after.filter((x) => !(x.type === 'condition' && retracted.has(JSON.stringify(x.node)) && !after.some((y) => y.type === 'boundary' && y.end <= x.start)) && !(x.type === 'unknown' && x.start === from - 1));
  }
  const replaced = new Set(after.map(kind).filter((k): k is string => k !== undefined));
  const kept = before.filter((x) => {
    const k = kind(x);
    if (x.type === 'condition' && retracted.has(JSON.stringify(x.node))) return false;
    return k === undefined || !replaced.has(k);
  });
  if (kept.length === before.length && retracted.size === 0) return items;
  // ("leads in texas, actually customers": the stage said instead of another is that stage, not the generic word)
  if (before.some((x) => x.type === 'lifecycle' && !x.generic)) after = after.map((x) => (x.type === 'lifecycle' && x.generic ? { ...x, generic: false } : x));
  // the correction is read as if it were said in place of what it corrects
  return [...kept, { type: 'comma', start: marker, end: marker }, ...after.filter((x) => !(x.type === 'unknown' && x.start < from)).filter((x) => !(x.type === 'boundary' && (x.word === 'just' || x.word === 'only') && x.start <= from + 1))];
}

/**
 * "last week's buyers": a date in the possessive dates the noun after it; when that noun is not understood
 * ("last quarter's pipeline"), neither is the date.
 */
function possessiveDates(ctx: GrammarContext, items: Item[]): Item[] {
  return items.map((x, k) => {
    const next = items[k + 1];
    if (x.type !== 'date' || !ctx.texts[x.end - 1].endsWith("'s") || next?.type !== 'unknown' || next.start !== x.end) return x;
    return { type: 'unknown', start: x.start, end: x.end };
  });
}

/**
 * Unknown words that only frame the request ("hey can u pull up …", "any chance you could …", discourse.ts)
 * and adverbs that only colour the sentence ("aren't actually in the UK") carry no condition.
 */
function withoutRequestFrame(ctx: GrammarContext, items: Item[]): Item[] {
  const first = items.findIndex((x) => x.type !== 'unknown');
  const frameEnd = first < 0 ? ctx.tokens.length : items[first].start;
  // a word right before the first condition may qualify it ("repeat buyers"; discourse.ts keeps it unless it is
  // a function word: "pull up leads")
  const unknown = items
    .filter((x) => x.type === 'unknown' && x.end <= frameEnd)
    .map((x) => ({ at: x.start, start: ctx.tokens[x.start].start, end: ctx.tokens[x.end - 1].end, adjacent: x.end === frameEnd }));
  const frame = unknown.length ? requestFrameWords(ctx.source, frameEnd < ctx.tokens.length ? ctx.tokens[frameEnd].start : ctx.source.length, unknown) : new Set<number>();
  return items.filter((x) => x.type !== 'unknown' || !(frame.has(x.start) || (x.end - x.start === 1 && DISCOURSE_ADVERBS.has(ctx.texts[x.start]))));
}

/**
 * The sentences of a question and its remarks in parentheses, as token ranges [start, end): split after ".", "!" or
 * "?" followed by a space, at an emoticon (":)"), a colon or a spaced dash.
 */
function sentenceUnits(ctx: GrammarContext): Array<[number, number]> {
  const units: Array<[number, number]> = [];
  const t = ctx.tokens;
  let from = 0;
  const spaced = (k: number) => t[k + 1] === undefined || t[k + 1].start > t[k].end;
  for (let k = 0; k < t.length; k++) {
    const w = t[k].text;
    const emoticon = (w === ':' || w === ';') && [')', '(', 'd', 'p'].includes(t[k + 1]?.text ?? '') && t[k + 1].start === t[k].end;
    const end = emoticon || w === ':' || (['.', '!', '?'].includes(w) && spaced(k)) || (w === '-' && k > 0 && t[k - 1].end < t[k].start && spaced(k));
    if (!end) continue;
    if (k > from) units.push([from, k]);
    if (emoticon) k++;
    from = k + 1;
  }
  if (from < t.length) units.push([from, t.length]);
  for (let k = 0; k < t.length; k++) {
    if (t[k].text !== '(') continue;
    const close = ctx.texts.indexOf(')', k);
    if (close < 0) break;
    if (close > k + 1) units.push([k + 1, close]);
    k = close;
  }
  return units;
}

/**
 * Small talk around the request ("hi there! hope your week is going well.", "(very fancy, i'm jealous)", "thanks a
 * bunch, Marie"): a sentence or remark that holds nothing but words the parser does not know, and that discourse.ts
 * reads as a greeting, thanks or a sentence about people, carries no condition.
 */
function withoutSmallTalk(ctx: GrammarContext, items: Item[]): Item[] {
  let out = items;
  // (a description in small talk describes the talk: "we're doing a small-basket survey")
  const silent = (x: Item) => (x.type === 'unknown' && !x.count && !x.unanswerable) || x.type === 'descriptor' || (x.type === 'mention' && !x.mention.asserts) || x.type === 'and' || x.type === 'or' || x.type === 'comma' || x.type === 'boundary';
  for (const [s, e] of sentenceUnits(ctx)) {
    const inside = out.filter((x) => x.start < e && x.end > s);
    if (!inside.some((x) => x.type === 'unknown') || !inside.every((x) => silent(x) && x.start >= s && x.end <= e)) continue;
    if (!isSmallTalk(ctx.source.slice(ctx.tokens[s].start, ctx.tokens[e - 1].end))) continue;
    out = out.filter((x) => !inside.includes(x));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Asides: what the list is for, and a title before a colon

/** Who forwards or asks for a list ("from the CEO: …", "per the CFO: …"). */
const ATTRIBUTION_ROLES = new Set(['ceo', 'cfo', 'coo', 'cmo', 'cro', 'cto', 'vp', 'boss', 'team', 'manager', 'director', 'founder', 'board', 'head']);
/** What a named person says they want before the question ("Linda would like …", "Rachel needs …"). */
const ATTRIBUTION_VERBS: string[][] = [['would', 'like'], ['wants'], ['needs'], ['asked', 'for'], ['asks', 'for'], ['is', 'asking', 'for'], ['wanted'], ['requested'], ['would', 'love']];

/** The words of "(the city, not the state)" after a place. */
const PLACE_KIND_WORDS = new Set(['the', 'city', 'state', 'country', 'not', ',', '-', 'only', 'i', 'e', '.', 'ie', 'itself', 'proper']);

/** Words of a remark about the work on a list rather than who is in it ("dedupe later", "check for refunds"). */
const REMARK_WORDS = new Set(['later', 'check', 'dedupe', 'dedup', 'de', 'dupe', 'cleanup', 'clean', 'odd', 'fyi', 'note', 'todo', 'tbd', 'verify', 'confirm', 'sync', 'export', 'upload', 'csv', 'sheet', 'spreadsheet', 'refunds', 'tracking', 'track', 'wip', 'draft']);

/** Items that carry no condition of their own inside an aside (a mention with nothing bound, a description). */
const quietItem = (x: Item) =>
  (x.type === 'unknown' && !x.unanswerable && !x.count) || (x.type === 'mention' && !x.mention.asserts) || (x.type === 'sort' && x.superlative) || x.type === 'and' || (x.type === 'lifecycle' && x.generic);

/** Where the clause that starts at token `from` ends (a boundary word, punctuation, or the end). */
function clauseEnd(ctx: GrammarContext, from: number): number {
  let k = from;
  // (a colon ends one too: "VIP list for the summer launch: existing customers …")
  while (k < ctx.tokens.length && !CLAUSE_ENDS.has(ctx.texts[k]) && ctx.texts[k] !== ':' && !(k > from && BOUNDARIES.has(ctx.texts[k]))) k++;
  return k;
}

/** The span of a purpose starting at token `at` ("for the webinar invite", "we could ask for case studies"). */
/** Words that start the request after a purpose said first ("for the munich roadshow my colleague asked me to pull …"). */
const REQUEST_STARTS = new Set(['i', "i'd", "i'm", 'id', 'im', 'we', "we'd", "we're", 'my', 'our', 'you', 'can', 'could', 'would', 'please', 'pls', 'need', 'pull', 'get', 'give', 'show']);

function purposeSpan(ctx: GrammarContext, at: number): number | undefined {
  const words = ctx.texts;
  const opener = PURPOSE_OPENERS.find((p) => phraseAt(ctx, at, p));
  if (opener) return clauseEnd(ctx, at + opener.length);
  // "…, it's for the summer promo send", "this is for the webinar invite"
  const pointer = ["it's", 'its', "that's", 'this', 'these', 'they’re', "they're"].includes(words[at]) ? (words[at + 1] === 'is' || words[at + 1] === 'are' ? 2 : 1) : 0;
  if (pointer && words[at + pointer] === 'for') {
    const end = purposeSpan(ctx, at + pointer);
    return end !== undefined && end > at + pointer ? end : undefined;
  }
  if (words[at] !== 'for') return undefined;
  const end = clauseEnd(ctx, at + 1);
  // "for the referral program", "for cold outbound": a purpose noun says what the list is for, up to where the
  // request itself starts ("For the Q3 newsletter test I need the subscribers …")
  for (let k = at + 1; k < end; k++) {
    if (!PURPOSE_NOUNS.has(words[k])) continue;
    for (let j = k + 1; j < end; j++) if (REQUEST_STARTS.has(words[j])) return j;
    return end;
  }
  return undefined;
}

/**
 * Words that say what the list is for ("… for the webinar invite", "newsletter blast to …") or a title
 * before a colon ("whales: customers sorted by …") add no condition: they become an aside, said in a note.
 * Only when they hold no condition of their own ("contacts for the german campaign" keeps asking).
 */
function asides(ctx: GrammarContext, items: Item[]): Item[] {
  let out = items;
  const replace = (start: number, end: number) => {
    const inside = out.filter((x) => x.start >= start && x.end <= end);
    // ("for the summer launch", "for the christmas mailing": a date naming the purpose noun after it is its name)
    // ("for the win-back campaign": so does a description naming it)
    const namesPurpose = (x: Item) => (x.type === 'date' || x.type === 'descriptor') && x.end < end && PURPOSE_NOUNS.has(ctx.texts[x.end]);
    // ("for a winback": a description that is the purpose's own noun)
    const purposeNoun = (x: Item) => x.type === 'descriptor' && PURPOSE_NOUNS.has(ctx.texts[x.end - 1]);
    // ("são paulo and bogota contacts for the latam meetup", "edinburgh … for the Scottish programme": a place that holds
    // every place the question asks for adds nothing; "contacts for the german campaign" still asks)
    const impliedPlace = (x: Item) => {
      // (only naming a purpose noun after it, "for the latam meetup": "bc" is also "because", and BC a province)
      const naming = ctx.texts[start] === 'for' && ctx.texts.slice(x.end, end).some((w) => PURPOSE_NOUNS.has(w));
      const mine = naming && x.type === 'condition' && x.slot === 'location' && isCondition(x.node) ? countriesOfPlace(x.node) : undefined;
      if (!mine || out.some((y) => y.type === 'negation')) return false;
      const others = out.filter((y) => y.type === 'condition' && y.slot === 'location' && !(y.start >= start && y.end <= end));
      return others.length > 0 && others.every((y) => y.type === 'condition' && isCondition(y.node) && [...(countriesOfPlace(y.node) ?? [''])].every((c) => mine.has(c)));
    };
    if (inside.length === 0 || !inside.every((x) => quietItem(x) || namesPurpose(x) || purposeNoun(x) || impliedPlace(x))) return false;
    const text = sourceText(ctx, start, end);
    out = [...out.filter((x) => x.end <= start), { type: 'aside', start, end, text }, ...out.filter((x) => x.start >= end)];
    return true;
  };
  // a title: at most 4 words before a colon at the start, restated after it
  const colon = ctx.texts.indexOf(':');
  // ("country: germany", "lifecycle stage: lead" are a field and its value, not a title)
  const fieldLabel = MENTIONS.match(ctx.texts, 0)?.len === colon || (colon === 1 && PLACE_FIELD_WORDS.has(ctx.texts[0]));
  // (an item that spans the colon, "geo: emea", is a condition said with a label: no title; nor is a label among
  // labels, "industry: healthcare; country: DE")
  const spans = out.some((x) => x.start < colon && x.end > colon) || ctx.texts.some((w, k) => w === ':' && k > colon && ctx.texts.slice(colon, k).some((v) => v === ';' || v === '|'));
  // ("recent high-value orders:": a hyphen is not a word of the title)
  const titleWords = ctx.tokens.slice(0, Math.max(colon, 0)).filter((t) => t.kind !== 'punct').length;
  if (colon > 0 && titleWords <= 4 && !fieldLabel && !spans) {
    const rest = out.filter((x) => x.start > colon);
    if (rest.some((x) => x.type === 'condition' || x.type === 'lifecycle' || x.type === 'sortBy' || x.type === 'value' || x.type === 'date' || x.type === 'mention')) {
      const head = out.filter((x) => x.end <= colon + 1);
      // ("recent high-value orders: last order above $2,500 …": the title's "high-value" is defined after the colon)
      // only when the rest defines it: an amount for a value ("vips: customers in texas" still asks what a VIP is)
      const defined = (x: Extract<Item, { type: 'descriptor' }>) => rest.some((r) => (x.kind === 'value' ? r.type === 'value' : x.kind === 'new' || x.kind === 'lapsed' ? r.type === 'date' : false));
      const titleItem = (x: Item) => quietItem(x) || (x.type === 'descriptor' && defined(x)) || (x.type === 'date' && ['recent', 'recently'].includes(ctx.texts[x.start]));
      if (head.every(titleItem)) out = [{ type: 'aside', start: 0, end: colon + 1, text: `${sourceText(ctx, 0, colon)}:` }, ...out.filter((x) => x.start > colon)];
    }
  }
  // the words up to token `end` as an aside (a subject line, who a request comes from), when the question goes on to
  // say something the list could be filtered on
  // (a date alone after a subject line does not count: the subject itself may hold the date, "re: Q2 QBR - …")
  const saysAfter = (end: number, dates = true) => out.some((x) => x.start > end && (x.type === 'condition' || x.type === 'lifecycle' || x.type === 'mention' || (dates && x.type === 'date')));
  const head = (end: number, text: string) => {
    out = [{ type: 'aside', start: 0, end: end + 1, text }, ...out.filter((x) => x.start > end)];
  };
  // who the request comes from or is for, when an assistant forwards it: "from Tom: …", "From Julien (he's flying to
  // Lyon tomorrow): …", "per the CFO: …", "per Tom's note, …", "Linda would like …", "… for Rachel". Never a place or
  // one of the CRM's companies ("from germany: leads …" is the place).
  const t = ctx.texts;
  const nameAt = (k: number) => {
    const j = t[k] === 'the' ? k + 1 : k;
    return ctx.tokens[j] !== undefined && (ctx.tokens[j].cap || ATTRIBUTION_ROLES.has(t[j])) && !PLACES.match(t, j) && !ctx.vocabulary?.matchPlace(t, j) && !ctx.knownCompanies?.match(t, j);
  };
  if ((t[0] === 'from' || t[0] === 'per' || t[0] === 'via') && nameAt(1)) {
    let depth = 0;
    let end = -1;
    for (let k = 1; k < Math.min(t.length, 16) && end < 0; k++) {
      if (t[k] === '(') depth++;
      else if (t[k] === ')') depth--;
      else if (depth === 0 && (t[k] === ':' || (t[0] === 'per' && t[k] === ','))) end = k;
    }
    if (end > 0 && saysAfter(end)) head(end, sourceText(ctx, 0, end + 1));
  }
  const asks = ATTRIBUTION_VERBS.find((v) => phraseAt(ctx, 1, v));
  if (asks && ctx.tokens[0]?.cap && nameAt(0) && nlp(ctx.tokens[0].raw).has('#FirstName')) {
    const end = 1 + asks.length;
    out = [{ type: 'aside', start: 0, end, text: sourceText(ctx, 0, end) }, ...out.filter((x) => x.start >= end)];
  }
  const last = t[t.length - 1] === '.' || t[t.length - 1] === '?' ? t.length - 2 : t.length - 1;
  // (only a person's first name, by compromise's tagger: "… for Initech" names a company, "… for Christmas" a date)
  if (last > 1 && t[last - 1] === 'for' && ctx.tokens[last].cap && nameAt(last) && !FUNCTION_WORDS.has(t[last]) && nlp(ctx.tokens[last].raw).has('#FirstName')) {
    out = [...out.filter((x) => x.end <= last - 1), { type: 'aside', start: last - 1, end: last + 1, text: sourceText(ctx, last - 1, last + 1) }, ...out.filter((x) => x.start > last)];
  }
  // an e-mail's subject line pasted with the request ("re: Q2 QBR - pls pull customers w/ …"): the request follows
  // its dash; the subject names the thread, and its words ("Q2") are not conditions of the list
  if (['re', 'fw', 'fwd', 'subject', 'subj'].includes(ctx.texts[0]) && ctx.texts[1] === ':') {
    const end = ctx.texts.findIndex((w, k) => w === '-' && k > 2 && k <= 12 && ctx.tokens[k - 1].end < ctx.tokens[k].start);
    if (end > 0 && saysAfter(end, false)) head(end, sourceText(ctx, 0, end));
  }
  // an audience's name before a spaced dash, then its definition ("Lapsed VIPs – spent over $1,000 but nothing in
  // 6 months", "DACH Spring Promo – ltv over €500"): the name's words that are not conditions are its name; the
  // conditions it names stay ("DACH"). Only when the definition says enough on its own: two conditions or more, or
  // a subject ("anyone with a .edu address"), so "Cart Abandoners – last 7 days" still asks what the name means.
  // (not a bullet: "- industry: healthcare; - country: DE" is a list of criteria, each after its dash)
  const bullets = ctx.texts[0] === '-' || ctx.texts.some((w, k) => w === '-' && [';', '|', ','].includes(ctx.texts[k - 1] ?? ''));
  const dash = bullets ? -1 : ctx.texts.findIndex((w, k) => w === '-' && k > 0 && k <= 5 && ctx.tokens[k - 1].end < ctx.tokens[k].start && ctx.tokens[k + 1] !== undefined && ctx.tokens[k].end < ctx.tokens[k + 1].start);
  if (dash > 0) {
    const body = out.filter((x) => x.start > dash);
    const saying = body.filter((x) => x.type === 'condition' || x.type === 'lifecycle' || x.type === 'value' || x.type === 'date' || x.type === 'mention' || x.type === 'sortBy');
    const subject = SUBJECT_NOUNS.has(ctx.texts[dash + 1]) || ['anyone', 'everyone', 'anybody', 'everybody', 'all', 'those', 'people', 'contacts', 'customers'].includes(ctx.texts[dash + 1]);
    const head = out.filter((x) => x.end <= dash);
    if ((saying.length >= 2 || (subject && saying.length >= 1)) && head.length > 0) {
      const quiet = head.map((x) => quietItem(x) || (x.type === 'date' && PURPOSE_NOUNS.has(ctx.texts[x.end])));
      // (an "and" between two conditions joins them: "europe except dach and benelux – opps created in 2025")
      const named = head.filter((x, k) => quiet[k] && !(x.type === 'and' && k > 0 && k < head.length - 1 && !quiet[k - 1] && !quiet[k + 1]));
      if (named.length > 0) {
        const text = sourceText(ctx, 0, dash);
        out = [...head.filter((x) => !named.includes(x)), { type: 'aside', start: named[0].start, end: named[named.length - 1].end, text }, ...out.filter((x) => x.start >= dash)];
      }
    }
  }
  // "in New York (the city, not the state)": a place said again with the kind it is, in parentheses
  for (let k = 1; k < ctx.tokens.length; k++) {
    if (ctx.texts[k] !== '(') continue;
    const close = ctx.texts.indexOf(')', k);
    if (close < 0) break;
    const inner = ctx.texts.slice(k + 1, close);
    const kind = inner.find((w) => w === 'city' || w === 'state' || w === 'country') as 'city' | 'state' | 'country' | undefined;
    const place = out.find((x) => x.type === 'condition' && x.slot === 'location' && x.end === k) as Extract<Item, { type: 'condition' }> | undefined;
    if (!kind || !place || !inner.every((w) => PLACE_KIND_WORDS.has(w)) || !isCondition(place.node) || place.node.op !== 'eq' || typeof place.node.value !== 'string') continue;
    const node = crmSpelling(ctx, { field: kind, op: 'eq', value: place.node.value });
    const said: Item = { ...place, node, field: kind, end: close + 1, alternatives: undefined, issue: undefined };
    out = [...out.filter((x) => x.end <= place.start), said, ...out.filter((x) => x.start > close)];
    k = close;
  }
  // a remark in parentheses ("(dedupe later)", "(clean-up list)", "(odd ones - check for refunds)"): words about the
  // work on the list, with nothing in them the list could be filtered on
  for (let k = 0; k < ctx.tokens.length; k++) {
    if (ctx.texts[k] !== '(') continue;
    const close = ctx.texts.indexOf(')', k);
    if (close < 0) break;
    if (ctx.texts.slice(k + 1, close).some((w) => REMARK_WORDS.has(w) || PURPOSE_NOUNS.has(w))) replace(k, close + 1);
    k = close;
  }
  // "For the black friday send I need …": a purpose that opens the question ends with its purpose noun
  if (ctx.texts[0] === 'for') {
    const noun = ctx.texts.findIndex((w, k) => k > 0 && k <= 6 && PURPOSE_NOUNS.has(w));
    if (noun > 0 && !ctx.texts.slice(1, noun).some((w) => CLAUSE_ENDS.has(w))) replace(0, noun + 1 + (ctx.texts[noun + 1] === ',' ? 1 : 0));
  }
  // "newsletter blast to all but leads": a purpose named before "to" / "for" at the start
  const lead = ctx.texts.findIndex((w) => w === 'to' || w === 'for');
  if (lead > 0 && lead <= 4 && ctx.texts.slice(0, lead).some((w) => PURPOSE_NOUNS.has(w))) replace(0, lead + 1);
  // a remark after the last spaced dash ("… - candidates for deletion under our retention policy"): words about the
  // work on the list, as in parentheses
  const lastDash = ctx.texts.findLastIndex((w, k) => w === '-' && k > 2 && ctx.tokens[k - 1].end < ctx.tokens[k].start);
  if (lastDash > 0 && ctx.texts.slice(lastDash + 1).some((w) => REMARK_WORDS.has(w) || PURPOSE_NOUNS.has(w))) replace(lastDash, ctx.tokens.length);
  for (let k = 1; k < ctx.tokens.length; k++) {
    const end = purposeSpan(ctx, k);
    if (end !== undefined && end > k && replace(k, end)) k = end - 1;
  }
  // a deadline ("need the list by friday", "by eod pls"): when the list is wanted, not who is in it
  for (let k = 1; k < ctx.tokens.length; k++) {
    if (ctx.texts[k] !== 'by' && ctx.texts[k] !== 'before') continue;
    // ("before this arvo", "by this evening")
    const when = ctx.texts[k + 1] === 'this' || ctx.texts[k + 1] === 'the' ? k + 2 : k + 1;
    if (!DEADLINES.has(ctx.texts[when] ?? '')) continue;
    const end = when + 1 + (['pls', 'please', '!', '.'].includes(ctx.texts[when + 1]) ? 1 : 0);
    if (end < ctx.tokens.length && !CLAUSE_ENDS.has(ctx.texts[end])) continue;
    // ("need the list by friday": the request that the deadline is for goes with it)
    // (only then: "bought by friday" may be when they bought)
    let start = k;
    for (let j = k - 1; j >= Math.max(0, k - 4); j--) if (['need', 'needed', 'want', 'send', 'get', 'revert', 'share', 'reply'].includes(ctx.texts[j])) start = j;
    // ("can ya send me the leads in brissie before this arvo": the request opens the question; the deadline ends it)
    const requestOpens = end >= ctx.tokens.length - 1 && ctx.texts.slice(0, 4).some((w) => ['send', 'need', 'get', 'share', 'pull', 'gimme'].includes(w));
    if (start < k || requestOpens) replace(start, end);
  }
  return out;
}

/** Days and moments a list is wanted by ("by friday", "by eod"). */
const DEADLINES = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mon', 'tue', 'tues', 'wed', 'thu', 'thur', 'thurs', 'fri', 'eod', 'eow', 'cob', 'eob', 'tomorrow', 'tmrw', 'tmr', 'tonight', 'noon', 'lunch', 'lunchtime', 'morning', 'afternoon', 'arvo', 'evening', 'weekend']);

export type { Region };
