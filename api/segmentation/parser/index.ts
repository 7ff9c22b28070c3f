/**
 * The deterministic, offline parser: question text -> { segment, unrecognized, confidence, notes }.
 * Pipeline: tokenize (lexer.ts) -> typo correction (fuzzy.ts, fuse.js) -> recognisers (grammar.ts,
 * dates.ts with chrono-node) -> binding and tree building (assemble.ts). Rules: parser/README.md.
 */
import { isAnd, isCondition, type Segment, type SegmentNode } from '../ast.js';
import { countriesOfPlace } from '../regions.js';
import { PLACES, UNCORRECTED_PLACE_WORDS } from './lexicon.js';
import { localParts, resolveContext, type ResolveOptions } from '../resolve.js';
import { assemble, type Group } from './assemble.js';
import { correctTokens } from './fuzzy.js';
import { scan, type GrammarContext } from './grammar.js';
import type { KnownCompanies } from './known-companies.js';
import { tokenize, type Token } from './lexer.js';
import { readMixedIn } from './mixed-in.js';
import type { CrmVocabulary } from './vocabulary.js';

export interface ParseOptions extends ResolveOptions {
  /**
   * The CRM's own company values (`KnownCompanies.from(names)`), when the caller has a CRM connection:
   * a phrase after from / at / works at that is one of them is read as that company and never
   * spelling-corrected. Without it, company names are recognised from their capitalisation.
   */
  knownCompanies?: KnownCompanies;
  /**
   * The values the user's CRM holds (`CrmVocabulary.from(values)`): companies (superseding
   * `knownCompanies`), cities, states, countries and e-mail domains, matched case- and accent-insensitively
   * and searched in the CRM's spelling.
   */
  vocabulary?: CrmVocabulary;
}

/** Words after which a company name may follow (see recogniseCompany in grammar.ts). */
const COMPANY_LEAD_WORDS = new Set(['at', 'from', 'of', 'the', 'is', 'named', 'called', ':', '=', 'for']);

/** Token positions inside one of the CRM's companies named after a company word: never corrected. */
function knownCompanyTokens(tokens: Token[], known: KnownCompanies | undefined): Set<number> | undefined {
  if (!known) return undefined;
  const texts = tokens.map((t) => t.text);
  const keep = new Set<number>();
  for (let i = 0; i < texts.length; i++) {
    // after a company word, or anywhere for a name of two words or more ("brunet robotics ppl")
    const m = known.match(texts, i);
    if (m && !(i > 0 && COMPANY_LEAD_WORDS.has(texts[i - 1])) && m.len < 2) continue;
    if (!m) continue;
    for (let k = i; k < i + m.len; k++) keep.add(k);
    i += m.len - 1;
  }
  return keep;
}

/** A one-click completion of a question that was not understood whole: a whole segment to run. */
export interface ParseChoice {
  /** what the choice means, in the user's terms ("company Initech LLC") */
  label: string;
  segment: Segment;
}

/**
 * Why a reading is not whole beyond words left unused (those are `unrecognized`): the parser had to
 * choose between readings ("ambiguous"), a number counts something there is no field for ("count"), or a
 * value is not one the CRM holds ("unknown-value"). Any issue makes the query service ask first.
 */
export interface ParseIssue {
  kind: 'ambiguous' | 'count' | 'unknown-value';
  /** the words of the question concerned (also in `unrecognized` when they were not applied) */
  phrase?: string;
  message: string;
  /** the readings to offer, each a whole segment */
  choices?: ParseChoice[];
}

export interface ParseResult {
  segment: Segment;
  /** Phrases of the question that were not understood (and therefore not applied). */
  unrecognized: string[];
  /** 0..1: how much of the question was understood, lowered by typo corrections and guesses. */
  confidence: number;
  /** Plain-English remarks: typo corrections, assumptions, fallbacks. */
  notes: string[];
  /** What keeps the reading from being whole besides `unrecognized` (clarify.ts decides what to ask). */
  issues?: ParseIssue[];
}

const MAX_INPUT = 2000;

/** The countries a top-level place condition allows (undefined: no constraint we can check). */
const placeCountries = (n: SegmentNode) => (isCondition(n) ? countriesOfPlace(n as Parameters<typeof countriesOfPlace>[0]) : undefined);

/** Whether the segment ANDs places that cannot all hold ("Texas" and "Germany"). */
function impossiblePlaces(segment: Segment): boolean {
  const parts = segment.where ? (isAnd(segment.where) ? segment.where.and : [segment.where]) : [];
  let allowed: Set<string> | undefined;
  for (const part of parts) {
    const countries = placeCountries(part);
    if (!countries) continue;
    allowed = allowed ? new Set([...allowed].filter((c) => countries.has(c))) : countries;
    if (allowed.size === 0) return true;
  }
  return false;
}

/** Words that introduce a person's name: what follows is a name and never spelling-corrected ("named garcia"). */
const NAME_LEAD_WORDS = new Set(['named', 'called', 'surname', 'firstname', 'lastname']);

/** Token positions of names after "named", "last name is …" (and a list of them: "garcia or rodriguez"). */
function nameTokens(tokens: Token[], keep: Set<number>): Set<number> {
  const texts = tokens.map((t) => t.text);
  for (let i = 0; i < texts.length; i++) {
    let at = -1;
    if (NAME_LEAD_WORDS.has(texts[i])) at = i + 1;
    else if (texts[i] === 'name' && ['first', 'last', 'family'].includes(texts[i - 1] ?? '')) at = i + 1;
    if (at < 0) continue;
    if (['is', '=', ':', 'of'].includes(texts[at])) at++;
    for (let k = at; k < Math.min(texts.length, at + 2); k++) if (tokens[k].kind === 'word') keep.add(k);
    // "garcia or rodriguez", "smith, jones"
    for (let k = at + 1; k + 1 < texts.length && (texts[k] === 'or' || texts[k] === ','); k += 2) keep.add(k + 1);
  }
  return keep;
}

/** Token positions of the CRM's own places ("malmo", "lausanne"): never spelling-corrected into another word. */
function crmPlaceTokens(tokens: Token[], vocabulary: CrmVocabulary | undefined, keep: Set<number>): Set<number> {
  const texts = tokens.map((t) => t.text);
  // (and a place as typed whose words are no typo's target, "estados unidos", "japón": never corrected either)
  for (let i = 0; i < texts.length; i++) {
    const m = PLACES.match(texts, i);
    if (!m || (m.len < 2 && !UNCORRECTED_PLACE_WORDS.has(texts[i]))) continue;
    for (let k = i; k < i + m.len; k++) keep.add(k);
    i += m.len - 1;
  }
  if (!vocabulary) return keep;
  for (let i = 0; i < texts.length; i++) {
    const m = vocabulary.matchPlace(texts, i);
    if (!m) continue;
    for (let k = i; k < i + m.len; k++) keep.add(k);
    i += m.len - 1;
  }
  return keep;
}

/** Balanced pairs of parentheses, by token position (an unbalanced one is ignored). */
function parenthesised(tokens: Token[]): Group[] {
  const open: number[] = [];
  const groups: Group[] = [];
  tokens.forEach((t, k) => {
    if (t.text === '(') open.push(k);
    else if (t.text === ')' && open.length > 0) groups.push({ start: open.pop()!, end: k });
  });
  return groups;
}

function run(source: string, ctxTime: ReturnType<typeof resolveContext>, opts: ParseOptions, skip?: ReadonlySet<number>) {
  const knownCompanies = opts.vocabulary?.companies ?? opts.knownCompanies;
  const tokens = readMixedIn(tokenize(source), knownCompanies);
  const keep = nameTokens(tokens, crmPlaceTokens(tokens, opts.vocabulary, knownCompanyTokens(tokens, knownCompanies) ?? new Set()));
  const corrections = correctTokens(tokens, skip, keep);
  const p = localParts(ctxTime.nowMs, ctxTime.timeZone);
  const ctx: GrammarContext = {
    tokens,
    texts: tokens.map((t) => t.text),
    source,
    today: { year: p.year, month: p.month, day: p.day },
    knownCompanies,
    vocabulary: opts.vocabulary,
  };
  const assembled = assemble(scan(ctx), parenthesised(tokens));
  return { tokens, corrections, ...assembled };
}

export function parseSegment(text: string, opts: ParseOptions = {}): ParseResult {
  const ctxTime = resolveContext(opts);
  const source = text.slice(0, MAX_INPUT);
  let parsed = run(source, ctxTime, opts);
  // a correction that makes the segment impossible (a state or country outside the named country) loses
  // to the reading without it: the word stays as typed
  if (impossiblePlaces(parsed.segment)) {
    for (const c of parsed.corrections) {
      if (!PLACES.words.has(c.to.toLowerCase())) continue;
      const retry = run(source, ctxTime, opts, new Set([c.at]));
      if (!impossiblePlaces(retry.segment)) {
        parsed = retry;
        break;
      }
    }
  }
  const { tokens, corrections, segment, unknown, guesses, asides, counts, flagged } = parsed;

  // unknown token spans -> phrases (adjacent spans merge)
  const spans = [...unknown].sort((a, b) => a.start - b.start);
  const merged: Array<{ start: number; end: number }> = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  const phrases = merged
    .map((span) => ({ span, text: source.slice(tokens[span.start].start, tokens[span.end - 1].end).replace(/^[\s,.;:!?-]+|[\s,.;:!?-]+$/g, '') }))
    .filter((p) => p.text.length > 0 && /[\p{L}\p{N}]/u.test(p.text));
  const unrecognized = phrases.map((p) => p.text);
  const issues: ParseIssue[] = [];
  // a number that counts something there is no field for ("more than 10 support tickets"): never money
  for (const p of phrases) {
    if (counts.some((c) => c.start >= p.span.start && c.end <= p.span.end)) {
      // ("within 50 miles of austin": a distance, which needs coordinates the contacts do not have)
      const distance = /\d\s*(?:miles?|mi|kms?|kilomet(?:er|re)s?)\b/i.test(p.text);
      const message = distance ? `"${p.text}" is a distance, and your contacts have no coordinates to measure it, so it was not applied.` : `"${p.text}" counts something your contacts have no field for, so it was not applied.`;
      issues.push({ kind: 'count', phrase: p.text, message });
    }
  }
  for (const f of flagged) issues.push(...flaggedIssues(f, segment, source, tokens, opts));
  // a spelling correction into a place none of the CRM's contacts is in ("garcia" -> Gambia) is asked about
  const v = opts.vocabulary;
  if (v?.hasField('country')) {
    for (const c of corrections) {
      const place = PLACES.match([c.to.toLowerCase()], 0)?.value;
      if (!place || !('value' in place)) continue;
      if (v.spellingsOf(place.field, place.value)) continue;
      issues.push({ kind: 'ambiguous', phrase: c.from, message: `I read "${c.from}" as "${c.to}", but none of your contacts is there.` });
    }
  }

  const notes: string[] = [];
  // a corrected word that still was not understood is reported as typed, never as both
  const ignored = (at: number) => merged.some((span) => at >= span.start && at < span.end);
  for (const c of corrections) if (!ignored(c.at)) notes.push(`Read "${c.from}" as "${c.to}".`);
  for (const g of guesses) notes.push(`Assumed ${g}.`);
  for (const a of asides) {
    if (a.endsWith(':')) notes.push(`Read "${a}" as a title.`);
    else if (a.endsWith('=')) notes.push(`Read "${a.slice(0, -1)}" as described by the rest of your question.`);
    else notes.push(`Left out "${a}": it says what the list is for, not who is in it.`);
  }

  const contentTokens = tokens.filter((t) => t.kind !== 'punct').length || 1;
  const unknownTokens = merged.reduce((n, span) => n + (span.end - span.start), 0);
  let confidence = 1 - unknownTokens / contentTokens;
  confidence -= 0.03 * corrections.filter((c) => !ignored(c.at)).length + 0.1 * guesses.length;
  if (!segment.where && !segment.sort && unknownTokens > 0) confidence = Math.min(confidence, 0.2);
  confidence = Math.round(Math.max(0, Math.min(1, confidence)) * 100) / 100;

  return { segment, unrecognized, confidence, notes, issues };
}

/** A text condition with another value (same field and operator). */
function withValue(node: SegmentNode, value: string): SegmentNode {
  return 'value' in node && typeof node.value === 'string' ? ({ ...node, value } as SegmentNode) : node;
}

/** The segment with one condition replaced by another (the first JSON-equal node), or undefined. */
function replaceNode(segment: Segment, from: SegmentNode, to: SegmentNode): Segment | undefined {
  const key = JSON.stringify(from);
  let done = false;
  const visit = (n: SegmentNode): SegmentNode => {
    if (done) return n;
    if (JSON.stringify(n) === key) {
      done = true;
      return to;
    }
    if ('and' in n) return { and: n.and.map(visit) };
    if ('or' in n) return { or: n.or.map(visit) };
    if ('not' in n) return { not: visit(n.not) };
    return n;
  };
  const where = segment.where ? visit(segment.where) : undefined;
  return done ? { ...segment, where } : undefined;
}

/** Issues of a condition with other readings ("Victoria") or a value the CRM does not hold ("Oldenburg"). */
function flaggedIssues(
  f: { start: number; end: number; node: SegmentNode; alternatives?: Array<{ label: string; node: SegmentNode }>; unverified?: string; field: string; issue?: string },
  segment: Segment,
  source: string,
  tokens: Token[],
  opts: ParseOptions,
): ParseIssue[] {
  const withCrmValues = opts.vocabulary !== undefined || opts.knownCompanies !== undefined;
  const phrase = source.slice(tokens[f.start].start, tokens[f.end - 1].end);
  const out: ParseIssue[] = [];
  if (f.alternatives?.length) {
    const choices = f.alternatives
      .map((a) => ({ label: a.label, segment: replaceNode(segment, f.node, a.node) }))
      .filter((c): c is { label: string; segment: Segment } => c.segment !== undefined);
    const message = f.issue ?? `"${phrase}" is more than one place in your CRM (${[f.field, ...f.alternatives.map((a) => a.label.split(' ')[0])].join(', ')}): I read it as the ${f.field}.`;
    out.push({ kind: 'ambiguous', phrase, message, choices });
  }
  if (f.unverified) {
    const what = f.field === 'company' ? `company "${f.unverified}"` : `${f.field} "${f.unverified}"`;
    const message = !withCrmValues
      ? `I read "${f.unverified}" as a ${f.field === 'company' ? 'company name' : f.field}.`
      : f.field === 'company'
        ? `No company name in your CRM contains "${f.unverified}" (as far as I know your CRM).`
        : `None of your contacts has the ${what} (as far as I know your CRM).`;
    // the CRM's closest values (a typo of one of them): "Turner Oudtoor Group" -> Turner Outdoor Group
    const field = f.field as 'company' | 'city' | 'state' | 'country' | 'emailDomain';
    const closest = opts.vocabulary?.closest(field, f.unverified) ?? (field === 'company' ? opts.knownCompanies?.closest(f.unverified) : undefined) ?? [];
    const suggestions = closest
      .map((v) => ({ label: `${f.field === 'emailDomain' ? 'email domain' : f.field} ${v}`, segment: replaceNode(segment, f.node, withValue(f.node, v)) }))
      .filter((c): c is { label: string; segment: Segment } => c.segment !== undefined);
    out.push({ kind: 'unknown-value', phrase, message, choices: [...suggestions, { label: `Search for ${what} anyway`, segment }] });
  }
  return out;
}
