/**
 * Whether a parsed question may run as it is, or must be asked about first (issue 23: never a confident
 * wrong answer). A reading is not whole when
 * - words of the question were left unused (`ParseResult.unrecognized`),
 * - the parser had to choose between readings or read a number as a count of something we do not have
 *   (`ParseResult.issues`),
 * - the segment contradicts itself: a city or state outside the named country, two lifecycle stages at
 *   once ("leads" and stage customer), never-bought with a purchase amount, date or lifetime value, an
 *   empty range.
 * Any of those makes the answer a clarification: nothing runs and no quota is used until the user picks
 * one of the choices (each a whole segment) or "search with what you understood". Pure: used by the
 * query service, the evaluation scorer and the tests alike.
 */
import { isAnd, isCondition, isNot, isOr, type Condition, type Segment, type SegmentNode } from './ast.js';
import { explainSegment, type ExplainOptions } from './explain.js';
import { normalizeSegment } from './normalize.js';
import type { ParseChoice, ParseIssue, ParseResult } from './parser/index.js';
import { countriesOfPlace } from './regions.js';
import { resolveContext, resolveDateExpr } from './resolve.js';
import { productLifecycleStage } from '../crm/hubspot/model/index.js';

export type ClarificationIssueKind = ParseIssue['kind'] | 'not-understood' | 'contradiction';

export interface ClarificationIssue {
  kind: ClarificationIssueKind;
  /** the words of the question concerned, when there are some */
  phrase?: string;
  message: string;
}

export interface ClarificationChoice extends ParseChoice {
  /** "Search with what I understood": the understood segment as it is */
  asUnderstood: boolean;
  /** the choice's segment in words */
  explanation: string;
}

export interface Clarification {
  /** the assistant's reply: what was understood, what was not, what to pick */
  message: string;
  /** what was understood (the segment of "search with what I understood") */
  understood: Segment;
  explanation: string;
  notUnderstood: string[];
  issues: ClarificationIssue[];
  /** one-click completions, best first; the last is "search with what I understood" when there is something */
  choices: ClarificationChoice[];
}

const nothing = (s: Segment) => !s.where && !s.sort && s.limit === undefined;

// ---------------------------------------------------------------------------------------------------
// Contradictions

/** The conjuncts of a node (a top-level AND, or the node itself). */
const conjuncts = (n: SegmentNode): SegmentNode[] => (isAnd(n) ? n.and : [n]);

/** The countries a positive place condition allows (undefined: no constraint we know). */
const countriesOf = (c: Condition) => countriesOfPlace(c as Parameters<typeof countriesOfPlace>[0]);

/** The display stages a positive lifecycle condition allows. */
function stagesOf(c: Condition): Set<string> | undefined {
  if (c.op !== 'eq' && c.op !== 'in') return undefined;
  if (c.field === 'lifecycleStage') return new Set('values' in c ? c.values : [c.value]);
  if (c.field === 'hubspotStage') return new Set(('values' in c ? c.values : [c.value]).map((v) => productLifecycleStage(v)));
  return undefined;
}

type Bound = { lo?: number; loStrict?: boolean; hi?: number; hiStrict?: boolean };

/** The numeric range a positive comparison allows (dates resolved to instants). */
function boundOf(c: Condition, opts: ExplainOptions): Bound | undefined {
  if (!['lifetimeValue', 'lastPurchaseAmount', 'lastPurchaseDate', 'createdAt'].includes(c.field)) return undefined;
  const ctx = resolveContext(opts);
  const num = (v: unknown) => (typeof v === 'number' ? v : resolveDateExpr(v as never, ctx));
  switch (c.op) {
    case 'gt': return { lo: num(c.value), loStrict: true };
    case 'gte': return { lo: num(c.value) };
    case 'lt': return { hi: num(c.value), hiStrict: true };
    case 'lte': return { hi: num(c.value) };
    case 'eq': return typeof c.value === 'number' ? { lo: c.value, hi: c.value } : undefined;
    case 'between': {
      const dated = typeof c.from !== 'number';
      return { lo: num(c.from), hi: num(c.to), hiStrict: dated };
    }
    default: return undefined;
  }
}

function emptyRange(a: Bound, b: Bound): boolean {
  const lo = Math.max(a.lo ?? -Infinity, b.lo ?? -Infinity);
  const hi = Math.min(a.hi ?? Infinity, b.hi ?? Infinity);
  if (lo > hi) return true;
  if (lo === hi) {
    const loStrict = (a.lo === lo && a.loStrict) || (b.lo === lo && b.loStrict);
    const hiStrict = (a.hi === hi && a.hiStrict) || (b.hi === hi && b.hiStrict);
    return Boolean(loStrict || hiStrict);
  }
  return false;
}

const neverBought = (n: SegmentNode) =>
  (isCondition(n) && n.field === 'hasPurchased' && n.value === false) ||
  (isNot(n) && isCondition(n.not) && n.not.field === 'hasPurchased' && n.not.value === true);

/** A condition that only a contact who bought can meet (a purchase date or amount, a lifetime value above 0). */
function needsPurchase(n: SegmentNode): boolean {
  if (!isCondition(n)) return false;
  if (n.field === 'lastPurchaseDate' || n.field === 'lastPurchaseAmount') return !['is_not_set'].includes(n.op);
  if (n.field === 'lifetimeValue') {
    if (n.op === 'gt') return n.value >= 0;
    if (n.op === 'gte' || n.op === 'eq') return n.value > 0;
    if (n.op === 'between') return n.from > 0;
  }
  return false;
}

interface Contradiction {
  a: SegmentNode;
  b: SegmentNode;
  message: string;
}

/** Pairs of ANDed conditions that cannot both hold, within one conjunction. */
function contradictionsIn(parts: SegmentNode[], opts: ExplainOptions): Contradiction[] {
  const out: Contradiction[] = [];
  const text = (n: SegmentNode) => explainSegment({ version: 1, where: n }, opts).split(' · ').slice(1).join(' · ') || explainSegment({ version: 1, where: n }, opts);
  for (let i = 0; i < parts.length; i++) {
    for (let j = i + 1; j < parts.length; j++) {
      const a = parts[i];
      const b = parts[j];
      if (neverBought(a) && needsPurchase(b)) out.push({ a, b, message: `"never bought" and "${text(b)}" cannot both hold` });
      else if (neverBought(b) && needsPurchase(a)) out.push({ a, b, message: `"never bought" and "${text(a)}" cannot both hold` });
      if (!isCondition(a) || !isCondition(b)) continue;
      const ca = countriesOf(a);
      const cb = countriesOf(b);
      if (ca && cb && ![...ca].some((c) => cb.has(c))) {
        out.push({ a, b, message: `${text(a).replace(/^in /, '')} is not in ${text(b).replace(/^in /, '')}` });
        continue;
      }
      // a contact has one city, one state and one address: "in Texas" and "in Georgia", "gmail" and "yahoo" cannot
      // both hold (a domain suffix, ".de", is not one address: "gmx.de" is in it)
      if (a.field === b.field && (a.field === 'city' || a.field === 'state' || a.field === 'emailDomain') && (a.op === 'eq' || a.op === 'in') && (b.op === 'eq' || b.op === 'in')) {
        const va = new Set(('values' in a ? a.values : [a.value as string]).map((v) => v.toLowerCase()));
        const vb = ('values' in b ? b.values : [b.value as string]).map((v) => v.toLowerCase());
        const suffix = [...va, ...vb].some((v) => v.startsWith('.'));
        if (!suffix && !vb.some((v) => va.has(v))) {
          out.push({ a, b, message: `a contact has one ${a.field === 'emailDomain' ? 'e-mail address' : a.field}, so "${text(a)}" and "${text(b)}" cannot both hold` });
          continue;
        }
      }
      const sa = stagesOf(a);
      const sb = stagesOf(b);
      if (sa && sb && ![...sa].some((s) => sb.has(s))) {
        out.push({ a, b, message: `a contact has one lifecycle stage, so "${text(a)}" and "${text(b)}" cannot both hold` });
        continue;
      }
      if (a.field === b.field) {
        const ba = boundOf(a, opts);
        const bb = boundOf(b, opts);
        if (ba && bb && emptyRange(ba, bb)) out.push({ a, b, message: `"${text(a)}" and "${text(b)}" cannot both hold` });
      }
    }
  }
  return out;
}

/** Every self-contradiction of a segment: in its top-level conjunction and in each branch of an OR. */
export function findContradictions(segment: Segment, opts: ExplainOptions = {}): Contradiction[] {
  if (!segment.where) return [];
  const out: Contradiction[] = [];
  const visit = (n: SegmentNode) => {
    const parts = conjuncts(n);
    out.push(...contradictionsIn(parts, opts));
    for (const p of parts) if (isOr(p)) p.or.forEach(visit);
  };
  visit(segment.where);
  return out;
}

/** The segment with `a AND b` replaced (inside the conjunction that holds them). */
function replacePair(segment: Segment, c: Contradiction, by: SegmentNode[]): Segment {
  const swap = (n: SegmentNode): SegmentNode => {
    if (isAnd(n) && n.and.includes(c.a) && n.and.includes(c.b)) {
      const rest = n.and.filter((x) => x !== c.a && x !== c.b);
      const all = [...rest, ...by];
      return all.length === 1 ? all[0] : { and: all };
    }
    if (isAnd(n)) return { and: n.and.map(swap) };
    if (isOr(n)) return { or: n.or.map(swap) };
    return n;
  };
  const where = swap(segment.where as SegmentNode);
  return { ...segment, where: isAnd(where) && where.and.length === 0 ? undefined : where };
}

/** "a or b"; two tests of one field's values are one list ("subscribers or customers": stage in [...]). */
function eitherOf(a: SegmentNode, b: SegmentNode): SegmentNode {
  if (isCondition(a) && isCondition(b) && a.field === b.field && (a.op === 'eq' || a.op === 'in') && (b.op === 'eq' || b.op === 'in')) {
    const values = [...new Set([...('values' in a ? a.values : [a.value]), ...('values' in b ? b.values : [b.value])] as string[])];
    return { field: a.field, op: 'in', values } as SegmentNode;
  }
  return { or: [a, b] };
}

function contradictionChoices(segment: Segment, c: Contradiction, opts: ExplainOptions): ParseChoice[] {
  const label = (s: Segment) => explainSegment(s, opts);
  const keepA = replacePair(segment, c, [c.a]);
  const keepB = replacePair(segment, c, [c.b]);
  const either = replacePair(segment, c, [eitherOf(c.a, c.b)]);
  return [
    { label: `Either: ${label(either)}`, segment: either },
    { label: label(keepA), segment: keepA },
    { label: label(keepB), segment: keepB },
  ];
}

// ---------------------------------------------------------------------------------------------------
// The decision

const quote = (s: string) => `"${s}"`;

/**
 * The clarification a parsed question needs before it may run, or undefined when it may run at once
 * (fully understood, consistent, no reading chosen between).
 */
export function clarificationFor(result: ParseResult, opts: ExplainOptions = {}): Clarification | undefined {
  const { segment } = result;
  const parserIssues = result.issues ?? [];
  const covered = new Set(parserIssues.map((i) => i.phrase).filter(Boolean));
  const issues: ClarificationIssue[] = [];
  const choices: ParseChoice[] = [];
  for (const phrase of result.unrecognized) {
    if (!covered.has(phrase)) issues.push({ kind: 'not-understood', phrase, message: `I didn't understand ${quote(phrase)}.` });
  }
  for (const issue of parserIssues) {
    issues.push({ kind: issue.kind, phrase: issue.phrase, message: issue.message });
    choices.push(...(issue.choices ?? []));
  }
  for (const c of findContradictions(segment, opts)) {
    issues.push({ kind: 'contradiction', message: `${c.message[0].toUpperCase()}${c.message.slice(1)}.` });
    choices.push(...contradictionChoices(segment, c, opts));
  }
  if (issues.length === 0) return undefined;

  const explanation = nothing(segment) ? '' : explainSegment(segment, opts);
  const all: ClarificationChoice[] = [];
  const seen = new Set<string>();
  const add = (choice: ParseChoice, asUnderstood: boolean) => {
    if (nothing(choice.segment)) return;
    const key = JSON.stringify(normalizeSegment(choice.segment, opts));
    if (seen.has(key)) return;
    seen.add(key);
    all.push({ ...choice, asUnderstood, explanation: explainSegment(choice.segment, opts) });
  };
  for (const choice of choices) add(choice, false);
  add({ label: 'Search with what I understood', segment }, true);

  const parts: string[] = [];
  parts.push(explanation ? `I understood: ${explanation}.` : "I couldn't find a condition I understood.");
  for (const issue of issues) parts.push(issue.message);
  parts.push(all.length ? 'Nothing was run and no query was used: pick one of the choices, or rephrase the question.' : 'Nothing was run and no query was used: please rephrase the question.');
  return { message: parts.join(' '), understood: segment, explanation, notUnderstood: [...result.unrecognized], issues, choices: all };
}

