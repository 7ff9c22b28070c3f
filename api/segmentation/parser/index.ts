/**
 * The deterministic, offline parser: question text -> { segment, unrecognized, confidence, notes }.
 * Pipeline: tokenize (lexer.ts) -> typo correction (fuzzy.ts, fuse.js) -> recognisers (grammar.ts,
 * dates.ts with chrono-node) -> binding and tree building (assemble.ts). Rules: parser/README.md.
 */
import { isAnd, isCondition, type Segment, type SegmentNode } from '../ast.js';
import { CANADIAN_PROVINCES, REGION_COUNTRIES, US_STATES } from '../regions.js';
import { PLACES } from './lexicon.js';
import { localParts, resolveContext, type ResolveOptions } from '../resolve.js';
import { assemble } from './assemble.js';
import { correctTokens } from './fuzzy.js';
import { scan, type GrammarContext } from './grammar.js';
import type { KnownCompanies } from './known-companies.js';
import { tokenize, type Token } from './lexer.js';

export interface ParseOptions extends ResolveOptions {
  /**
   * The CRM's own company values (`KnownCompanies.from(names)`), when the caller has a CRM connection:
   * a phrase after from / at / works at that is one of them is read as that company and never
   * spelling-corrected. Without it, company names are recognised from their capitalisation.
   */
  knownCompanies?: KnownCompanies;
}

/** Words after which a company name may follow (see recogniseCompany in grammar.ts). */
const COMPANY_LEAD_WORDS = new Set(['at', 'from', 'of', 'the', 'is', 'named', 'called', ':', '=', 'for']);

/** Token positions inside one of the CRM's companies named after a company word: never corrected. */
function knownCompanyTokens(tokens: Token[], known: KnownCompanies | undefined): Set<number> | undefined {
  if (!known) return undefined;
  const texts = tokens.map((t) => t.text);
  const keep = new Set<number>();
  for (let i = 1; i < texts.length; i++) {
    if (!COMPANY_LEAD_WORDS.has(texts[i - 1])) continue;
    const m = known.match(texts, i);
    if (!m) continue;
    for (let k = i; k < i + m.len; k++) keep.add(k);
    i += m.len - 1;
  }
  return keep;
}

export interface ParseResult {
  segment: Segment;
  /** Phrases of the question that were not understood (and therefore not applied). */
  unrecognized: string[];
  /** 0..1: how much of the question was understood, lowered by typo corrections and guesses. */
  confidence: number;
  /** Plain-English remarks: typo corrections, assumptions, fallbacks. */
  notes: string[];
}

const MAX_INPUT = 2000;

/** The countries a top-level place condition allows (undefined: no constraint we can check). */
function placeCountries(n: SegmentNode): Set<string> | undefined {
  if (!isCondition(n)) return undefined;
  if (n.field === 'country' && (n.op === 'eq' || n.op === 'in')) return new Set('values' in n ? n.values : [n.value]);
  if (n.field === 'region' && (n.op === 'eq' || n.op === 'in')) return new Set(('values' in n ? n.values : [n.value]).flatMap((r) => REGION_COUNTRIES[r]));
  if (n.field === 'state' && n.op === 'eq') {
    if (n.value in US_STATES) return new Set(['United States']);
    if (n.value in CANADIAN_PROVINCES) return new Set(['Canada']);
  }
  return undefined;
}

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

function run(source: string, ctxTime: ReturnType<typeof resolveContext>, knownCompanies: KnownCompanies | undefined, skip?: ReadonlySet<number>) {
  const tokens = tokenize(source);
  const corrections = correctTokens(tokens, skip, knownCompanyTokens(tokens, knownCompanies));
  const p = localParts(ctxTime.nowMs, ctxTime.timeZone);
  const ctx: GrammarContext = {
    tokens,
    texts: tokens.map((t) => t.text),
    source,
    today: { year: p.year, month: p.month, day: p.day },
    knownCompanies,
  };
  return { tokens, corrections, ...assemble(scan(ctx)) };
}

export function parseSegment(text: string, opts: ParseOptions = {}): ParseResult {
  const ctxTime = resolveContext(opts);
  const source = text.slice(0, MAX_INPUT);
  let parsed = run(source, ctxTime, opts.knownCompanies);
  // a correction that makes the segment impossible (a state or country outside the named country) loses
  // to the reading without it: the word stays as typed
  if (impossiblePlaces(parsed.segment)) {
    for (const c of parsed.corrections) {
      if (!PLACES.words.has(c.to.toLowerCase())) continue;
      const retry = run(source, ctxTime, opts.knownCompanies, new Set([c.at]));
      if (!impossiblePlaces(retry.segment)) {
        parsed = retry;
        break;
      }
    }
  }
  const { tokens, corrections, segment, unknown, guesses } = parsed;

  // unknown token spans -> phrases (adjacent spans merge)
  const spans = [...unknown].sort((a, b) => a.start - b.start);
  const merged: Array<{ start: number; end: number }> = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  const unrecognized = merged
    .map((span) => source.slice(tokens[span.start].start, tokens[span.end - 1].end).replace(/^[\s,.;:!?-]+|[\s,.;:!?-]+$/g, ''))
    .filter((s) => s.length > 0 && /[\p{L}\p{N}]/u.test(s));

  const notes: string[] = [];
  // a corrected word that still was not understood is reported as typed, never as both
  const ignored = (at: number) => merged.some((span) => at >= span.start && at < span.end);
  for (const c of corrections) if (!ignored(c.at)) notes.push(`Read "${c.from}" as "${c.to}".`);
  for (const g of guesses) notes.push(`Assumed ${g}.`);

  const contentTokens = tokens.filter((t) => t.kind !== 'punct').length || 1;
  const unknownTokens = merged.reduce((n, span) => n + (span.end - span.start), 0);
  let confidence = 1 - unknownTokens / contentTokens;
  confidence -= 0.03 * corrections.filter((c) => !ignored(c.at)).length + 0.1 * guesses.length;
  if (!segment.where && !segment.sort && unknownTokens > 0) confidence = Math.min(confidence, 0.2);
  confidence = Math.round(Math.max(0, Math.min(1, confidence)) * 100) / 100;

  return { segment, unrecognized, confidence, notes };
}
