/**
 * Second pass of the parser: binds values and dates to the fields mentioned next to them, decides what
 * "customers" means, groups lists ("Germany, France or Spain"), applies negations and builds the
 * boolean tree. See parser/README.md for the rules.
 */
import type { Condition, DateExpr, DateField, NumberField, Segment, SegmentNode, SegmentSort } from '../ast.js';
import { SEGMENT_VERSION, isCondition, type LifecycleStage } from '../ast.js';
import type { Item } from './grammar.js';
import type { DescriptorKind, Mention } from './lexicon.js';
import { CITY_COUNTRY } from '../regions.js';

type CondItem = Extract<Item, { type: 'condition' }>;
type MentionItem = Extract<Item, { type: 'mention' }>;
type ValueItem = Extract<Item, { type: 'value' }>;
type DateItem = Extract<Item, { type: 'date' }>;

export interface Assembled {
  segment: Segment;
  /** token spans that were not understood */
  unknown: Array<{ start: number; end: number }>;
  guesses: string[];
  /** asides left out: what the list is for, a title before a colon */
  asides: string[];
  /** token spans of numbers that count something there is no field for */
  counts: Array<{ start: number; end: number }>;
  /** conditions with other readings or values the CRM does not hold (they make the service ask) */
  flagged: CondItem[];
}

const RELATIVE_WORDS = new Set(['who', 'that', 'which', 'whose', 'whom']);
const isSeparatorItem = (x: Item | undefined) => x?.type === 'boundary' || x?.type === 'and' || x?.type === 'or' || x?.type === 'comma';
/** What a count or a verb that was not understood can qualify ("10 tickets in the last year", "clicked our emails recently"). */
const qualifier = (x: Item) => x.type === 'unknown' || x.type === 'date' || x.type === 'value' || x.type === 'mention' || x.type === 'negation' || (x.type === 'condition' && ['lastPurchaseDate', 'createdAt', 'lifetimeValue', 'lastPurchaseAmount', 'hasPurchased'].includes(x.field));

/**
 * Clauses not understood as a whole: one with a count of something there is no field for ("with more than 10
 * support tickets", "at least 4 orders in the last 365 days") or one whose verb was not understood ("who
 * clicked our emails recently", "but have not downloaded the app"): the dates, amounts and field words in it
 * qualify what was not understood, so none of them is applied. Places, stages and companies stay.
 */
function unknownClauses(items: Item[]): Item[] {
  const out: Item[] = [];
  let start = 0;
  let previousVerbUnknown = false;
  for (let k = 0; k <= items.length; k++) {
    if (k < items.length && !isSeparatorItem(items[k])) continue;
    const clause = items.slice(start, k);
    const opener = items[start - 1];
    const hasCount = clause.some((x) => x.type === 'unknown' && x.count);
    const first = clause.find((x) => x.type !== 'negation');
    // ("who have not opened or clicked any emails in the last six months": a second verb joined to one not
    // understood is the same kind of clause)
    const joined: boolean = (opener?.type === 'or' || opener?.type === 'and') && previousVerbUnknown;
    const verbUnknown: boolean = (opener?.type === 'boundary' && RELATIVE_WORDS.has(opener.word)) || joined ? first?.type === 'unknown' && !first.adverb : false;
    previousVerbUnknown = verbUnknown;
    for (const x of clause) out.push((hasCount || verbUnknown) && qualifier(x) ? { type: 'unknown', start: x.start, end: x.end, count: x.type === 'unknown' ? x.count : undefined } : x);
    if (k < items.length) out.push(items[k]);
    start = k + 1;
  }
  return out;
}

const UNION_SLOTS = new Set(['lifecycle', 'location', 'emailDomain', 'company', 'name']);
const PLACE_RANK: Record<string, number> = { city: 0, state: 1, country: 2, region: 3 };

function valueCondition(v: ValueItem, field: NumberField): SegmentNode {
  if (v.below !== undefined) return { and: [{ field, op: 'gte', value: v.amount }, { field, op: 'lt', value: v.below }] };
  if (v.comparison === 'between') return { field, op: 'between', from: v.amount, to: v.highAmount as number };
  return { field, op: v.comparison, value: v.amount };
}

const dollars = (n: number) => `$${n.toLocaleString('en-US')}`;

/** "ltv $5k" (no comparison word): read as exactly that amount, and asked about with "at least" offered. */
function bareAmount(v: ValueItem, field: NumberField, flagged: CondItem[]): void {
  if (!v.bare) return;
  const node = valueCondition(v, field);
  flagged.push({
    type: 'condition', start: v.start, end: v.end, node, slot: field, field,
    alternatives: [{ label: `${field === 'lifetimeValue' ? 'lifetime value' : 'last purchase amount'} of at least ${dollars(v.amount)}`, node: { field, op: 'gte', value: v.amount } }],
    issue: `Is ${dollars(v.amount)} the exact amount or a minimum? I read it as exactly ${dollars(v.amount)}.`,
  });
}

/** "on 01/03/2026": a date whose day and month can be read either way is asked about, the other order offered. */
function swappedDate(d: DateItem, node: SegmentNode, field: DateField, flagged: CondItem[]): void {
  if (!d.swapped) return;
  const other = dateCondition({ ...d, ...d.swapped.value, swapped: undefined }, field);
  flagged.push({
    type: 'condition', start: d.start, end: d.end, node, slot: field, field,
    alternatives: [{ label: d.swapped.label, node: other }],
    issue: d.swapped.read.includes(' to ') ? `Are the dates ${d.swapped.read} or ${d.swapped.label}? I read them as ${d.swapped.read}.` : `Is the date ${d.swapped.read} or ${d.swapped.label}? I read it as ${d.swapped.read}.`,
  });
}

function dateCondition(d: DateItem, field: DateField): Condition {
  if (d.op === 'between') return { field, op: 'between', from: d.from!, to: d.to! };
  return { field, op: d.op, value: d.value! };
}

function presenceCondition(m: Mention, negated: boolean): SegmentNode | undefined {
  const p = m.presence;
  if (!p) return undefined;
  if (p === 'lifecycleStage') {
    return negated ? { field: 'lifecycleStage', op: 'eq', value: 'unknown' } : { field: 'lifecycleStage', op: 'neq', value: 'unknown' };
  }
  if (p === 'lastPurchaseDate') return { field: 'hasPurchased', op: 'eq', value: !negated };
  return { field: p, op: negated ? 'is_not_set' : 'is_set' };
}

const isCond = (x: Item | undefined): x is CondItem => x?.type === 'condition';
const isJoiner = (x: Item | undefined) => x?.type === 'or' || x?.type === 'and' || x?.type === 'comma';

function and(nodes: SegmentNode[]): SegmentNode {
  const flat = nodes.flatMap((n) => ('and' in n ? n.and : [n]));
  return flat.length === 1 ? flat[0] : { and: flat };
}

function or(nodes: SegmentNode[]): SegmentNode {
  const flat = nodes.flatMap((n) => ('or' in n ? n.or : [n]));
  return flat.length === 1 ? flat[0] : { or: flat };
}

/** OR of conditions; equalities on one field become one `in`. */
function union(nodes: SegmentNode[]): SegmentNode {
  const conds = nodes.filter(isCondition);
  if (conds.length === nodes.length && conds.length > 1) {
    const field = conds[0].field;
    // (a person's name has no list: "named Müller or Mueller" stays an OR of two names)
    if (field !== 'name' && conds.every((c) => c.field === field && (c.op === 'eq' || c.op === 'in'))) {
      const values: string[] = [];
      for (const c of conds) for (const v of 'values' in c ? c.values : [(c as { value: string }).value]) if (!values.includes(v)) values.push(v);
      if (field === 'lifecycleStage') {
        const stages = values as LifecycleStage[];
        return stages.length === 1 ? { field, op: 'eq', value: stages[0] } : { field, op: 'in', values: stages };
      }
      return (values.length === 1 ? { field, op: 'eq', value: values[0] } : { field, op: 'in', values }) as Condition;
    }
  }
  return or(nodes);
}

/**
 * "unless they spent under 1k", "except anyone with ltv below 500": at least that much. Someone who never bought spent
 * nothing, which is under any amount, so the opposite of a total under X is a total of X or more (a plain NOT would
 * take in the contacts with no lifetime value). Not the other way round: "nor placed an order over $1,000" keeps
 * those who never ordered, which NOT does.
 */
function complementOfAmount(n: SegmentNode): Condition | undefined {
  if (!isCondition(n) || n.field !== 'lifetimeValue' || (n.op !== 'lt' && n.op !== 'lte')) return undefined;
  return { ...n, op: n.op === 'lt' ? 'gte' : 'gt' } as Condition;
}

const sameDate = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const dateFieldOf = (n: SegmentNode) => (isCondition(n) && (n.field === 'lastPurchaseDate' || n.field === 'createdAt') ? n.field : undefined);

/**
 * A default period (inactivity's 90 days, "new"'s 30 days) yields to the question's own period on the same
 * field: "inactive customers with no orders in the last 6 months", "new leads created this month". An
 * inactivity says they bought before, so "no orders in the last 6 months" then reads as a purchase older
 * than that (past buyers).
 */
function yieldDefaults(items: Item[]): Item[] {
  const conds = items.filter(isCond);
  const dropped = new Set<Item>();
  for (const d of conds) {
    if (!d.byDefault || !isCondition(d.node)) continue;
    const field = d.node.field;
    // ("recent purchasers who bought over 500 in the last 14 days": a period inside a condition of several parts)
    const touches = (n: SegmentNode): boolean => (isCondition(n) ? n.field === field : 'not' in n ? touches(n.not) : 'and' in n ? n.and.some(touches) : false);
    // an inactivity yields to a lapse of its own ("no orders in 6 months"), not to a recent period ("churned last
    // month" stays two conditions, which contradict each other and are asked about)
    const lapse = (n: SegmentNode) => (isCondition(n) ? n.op === 'lt' || n.op === 'lte' : 'not' in n);
    const inactivity = d.node.op === 'lt';
    const others = conds.filter((c) => c !== d && !dropped.has(c) && touches(c.node) && (!inactivity || lapse(c.node)));
    if (others.length === 0) continue;
    dropped.add(d);
    if (field !== 'lastPurchaseDate') continue;
    for (const o of others) {
      const n = o.node;
      if ('not' in n && isCondition(n.not) && n.not.field === 'lastPurchaseDate' && n.not.op === 'gte') o.node = { field: 'lastPurchaseDate', op: 'lt', value: n.not.value };
    }
  }
  return items.filter((x) => !dropped.has(x));
}

/**
 * "no purchase this year but bought last year": a period that ends where the negated one starts implies it;
 * "purchased in the last 12 months but not in the last 3": with a date of their own, "not since X" is before X.
 */
function dropImplied(given: SegmentNode[]): SegmentNode[] {
  // "last purchase was neither this month nor last month": not since X and not in [Y, X) is before Y
  let input = given;
  for (const n of given) {
    if (!('not' in n) || !isCondition(n.not) || n.not.op !== 'gte' || !dateFieldOf(n.not)) continue;
    const { field, value } = n.not;
    const before = given.find((o) => 'not' in o && isCondition(o.not) && o.not.field === field && o.not.op === 'between' && sameDate(o.not.to, value));
    if (!before) continue;
    const from = ((before as { not: Condition }).not as unknown as { from: DateExpr }).from;
    input = input.filter((o) => o !== n && o !== before).concat({ field: field as DateField, op: 'lt', value: from });
  }
  // ("bought before but nothing in the last 6 months": a purchase said outright dates the last one too, so "not in
  // the last 6 months" is a last purchase older than that — the lapsed buyers "haven't bought in 6 months" gives)
  const bought = input.some((o) => isCondition(o) && o.field === 'hasPurchased' && o.op === 'eq' && o.value === true);
  const dated = (f: string) => input.some((o) => isCondition(o) && o.field === f && o.op !== 'is_not_set') || (f === 'lastPurchaseDate' && bought);
  const nodes = input.map((n): SegmentNode => {
    if ('not' in n && isCondition(n.not) && n.not.op === 'gte' && dateFieldOf(n.not) && dated(n.not.field)) return { field: n.not.field as DateField, op: 'lt', value: n.not.value as DateExpr };
    return n;
  });
  return nodes.filter((n) => {
    if (!('not' in n) || !isCondition(n.not) || n.not.op !== 'gte' || !dateFieldOf(n.not)) return true;
    const { field, value } = n.not;
    return !nodes.some((o) => o !== n && isCondition(o) && o.field === field && ((o.op === 'between' && sameDate(o.to, value)) || (o.op === 'lt' && sameDate(o.value, value))));
  });
}

/** Whether the clause from `k` names its own subject: a stage first, or a place and then a stage ("korean opps"). */
function startsWithSubject(items: Item[], k: number): boolean {
  let j = k;
  while (items[j]?.type === 'comma' || items[j]?.type === 'boundary') j++;
  const a = items[j];
  const b = items[j + 1];
  const stage = (x: Item | undefined) => x?.type === 'condition' && x.slot === 'lifecycle';
  return stage(a) || (a?.type === 'condition' && a.slot === 'location' && stage(b));
}

function clauseAlternatives(items: Item[], flagged: CondItem[]): Item[] {
  const splits: number[] = [];
  let conditionsOnly = false;
  let from = 0;
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
    if (x.type !== 'or') continue;
    const left = items.slice(from, k).filter(isCond);
    const right = items.slice(k + 1).filter(isCond);
    if (left.length === 0 || right.length === 0) continue;
    // "…, or anyone …" always; "X who … or <stage> …" when the left clause is more than a bare stage
    if (x.clause || (startsWithSubject(items, k + 1) && left.length >= 2 && left.some((c) => c.slot === 'lifecycle' || c.field === 'hasPurchased'))) {
      splits.push(k);
      from = k + 1;
      if (x.clause === 'conditions') conditionsOnly = true;
    }
  }
  if (splits.length === 0) return items;
  const bounds = [-1, ...splits, items.length];
  const branches: SegmentNode[] = [];
  for (let b = 0; b + 1 < bounds.length; b++) {
    const conds = items.slice(bounds[b] + 1, bounds[b + 1]).filter(isCond);
    if (conds.length) branches.push(and(conds.map((c) => c.node)));
  }
  const conds = items.filter(isCond);
  const merged: CondItem = { type: 'condition', start: conds[0].start, end: conds[conds.length - 1].end, node: or(branches), slot: 'clause', field: 'clause' };
  // "leads in Spain, or with ltv over 20k": do the leads carry over to the second clause? Read as two
  // clauses, and asked about with the other reading
  const first = items.slice(0, splits[0]).filter(isCond);
  const subject = first.filter((c) => c.slot === 'lifecycle');
  if (conditionsOnly && subject.length > 0 && first.length > subject.length) {
    const rest = branches.slice(1);
    const own = and(first.filter((c) => c.slot !== 'lifecycle').map((c) => c.node));
    merged.alternatives = [{ label: 'the first subject in every clause', node: and([...subject.map((c) => c.node), or([own, ...rest])]) }];
    merged.issue = 'It is not clear whether the "or" keeps the subject of the first part: I read the two parts apart.';
    flagged.push(merged);
  }
  const rest = items.filter((x, k) => !isCond(x) && !splits.includes(k));
  const at = rest.findIndex((x) => x.start > merged.start);
  return at < 0 ? [...rest, merged] : [...rest.slice(0, at), merged, ...rest.slice(at)];
}

const RELATIVE_OR_WITH = new Set([...RELATIVE_WORDS, 'with', 'having', 'whose']);

const PURCHASE_FIELDS = new Set(['hasPurchased', 'lastPurchaseDate', 'lastPurchaseAmount', 'lifetimeValue', 'mixed']);

/**
 * "leads and recent subscribers", "recent purchasers and recent subscribers", "everyone except recent buyers and new
 * leads": "and" between two groups of people, the second a stage described before its noun, means either group (a
 * contact has one stage, and nobody asking for buyers and new leads wants the new leads who bought). The groups
 * become one alternative, so a negation before them excludes both. A stage with words after it ("leads and
 * customers in Germany") is left to the lists, where the place is shared.
 */
function describedGroups(items: Item[]): Item[] {
  for (let k = 1; k < items.length - 2; k++) {
    const x = items[k];
    if (x.type !== 'and') continue;
    let lo = k;
    while (lo > 0 && isCond(items[lo - 1])) lo--;
    let hi = k + 1;
    while (hi < items.length && isCond(items[hi])) hi++;
    const left = items.slice(lo, k) as CondItem[];
    const right = items.slice(k + 1, hi) as CondItem[];
    if (left.length === 0 || right.length < 2) continue;
    const stage = right[right.length - 1];
    if (stage.slot !== 'lifecycle' || right.slice(0, -1).some((c) => c.slot === 'lifecycle' || c.slot === 'location')) continue;
    const leftStages = left.filter((c) => c.slot === 'lifecycle');
    const otherStage = leftStages.length > 0 && leftStages.every((c) => JSON.stringify(c.node) !== JSON.stringify(stage.node));
    const buyers = leftStages.length === 0 && left.every((c) => PURCHASE_FIELDS.has(c.field));
    if (!otherStage && !buyers) continue;
    const node = or([and(left.map((c) => c.node)), and(right.map((c) => c.node))]);
    const merged: CondItem = { type: 'condition', start: left[0].start, end: stage.end, node, slot: 'clause', field: 'clause' };
    items = [...items.slice(0, lo), merged, ...items.slice(hi)];
    k = lo;
  }
  return items;
}

/** The conditions of a node, under its and / or / not. */
/** "leads older than 6 months", "contacts newer than 30 days": the age of the contacts named right before it. */
function contactAge(items: Item[], k: number): boolean {
  const x = items[k];
  const before = items[k - 1];
  if (x.type !== 'date' || x.age !== true || before?.type !== 'lifecycle' || before.end !== x.start) return false;
  // ("customers older than 30 years": a person's age, which no field holds)
  const v = x.value;
  return !(v?.kind === 'relative' && v.unit === 'year' && v.amount >= 10);
}

function leaves(n: SegmentNode): Condition[] {
  if ('and' in n) return n.and.flatMap(leaves);
  if ('or' in n) return n.or.flatMap(leaves);
  if ('not' in n) return leaves(n.not);
  return [n];
}

/** Token span of a pair of parentheses: `start` is the "(", `end` the ")". */
export interface Group {
  start: number;
  end: number;
}

const SAYS_SOMETHING = new Set<Item['type']>(['condition', 'lifecycle', 'value', 'date', 'mention']);

/**
 * "country = 'UK' AND NOT (stage = 'customer' OR ltv > 1000)": a parenthesised group with a joiner of its own is
 * read as one clause, assembled on its own, so a negation or an OR outside it applies to the group as a whole.
 * Parentheses that only add a remark ("recent purchasers (last 14 days)", "(or more)") are left as they are.
 */
function groupedClauses(items: Item[], groups: Group[], into: Omit<Assembled, 'segment'>): Item[] {
  let out = items;
  const outermost = groups.filter((g) => !groups.some((h) => h !== g && h.start < g.start && h.end > g.end));
  for (const g of outermost) {
    const inner = out.filter((x) => x.start > g.start && x.end <= g.end);
    const joined = inner.some((x) => x.type === 'or' || x.type === 'and');
    if (!joined || inner.filter((x) => SAYS_SOMETHING.has(x.type)).length < 2) continue;
    const sub = assemble(inner, groups.filter((h) => h.start > g.start && h.end < g.end));
    if (!sub.segment.where || sub.segment.sort || sub.segment.limit !== undefined) continue;
    into.unknown.push(...sub.unknown);
    into.guesses.push(...sub.guesses);
    into.asides.push(...sub.asides);
    into.counts.push(...sub.counts);
    for (const f of sub.flagged) if (!into.flagged.includes(f)) into.flagged.push(f);
    const clause: CondItem = { type: 'condition', start: g.start, end: g.end + 1, node: sub.segment.where, slot: 'clause', field: 'clause' };
    out = [...out.filter((x) => x.end <= g.start), clause, ...out.filter((x) => x.start > g.end)];
  }
  return out;
}

export function assemble(input: Item[], groups: Group[] = []): Assembled {
  let items = [...input];
  const unknown: Array<{ start: number; end: number }> = [];
  const guesses: string[] = [];
  const asides: string[] = [];
  const flagged = input.filter((x): x is CondItem => x.type === 'condition' && (x.alternatives !== undefined || x.unverified !== undefined));
  const grouped: Array<{ start: number; end: number }> = [];

  // 0. parenthesised clauses, then clauses that are not understood as a whole
  items = groupedClauses(items, groups, { unknown, guesses, asides, counts: grouped, flagged });
  items = unknownClauses(items);
  const counts = [...grouped, ...items.filter((x) => x.type === 'unknown' && x.count).map((x) => ({ start: x.start, end: x.end }))];

  // 1. a negation right before a field mention negates the mention ("haven't bought", "no email")
  for (let k = 0; k < items.length - 1; k++) {
    const a = items[k];
    const b = items[k + 1];
    if (a.type === 'negation' && b.type === 'mention') {
      b.negation = a.negation;
      items.splice(k, 1);
      k--;
    }
  }

  // "missing a first name or a last name", "missing both city and state": the negation runs over a list of fields
  // ("first name, last name or company": the commas of the list join as its last word does)
  for (let k = 2; k < items.length; k++) {
    const [a, j, b] = [items[k - 2], items[k - 1], items[k]];
    if (!(a.type === 'mention' && a.negation === 'not' && a.mention.presence && (j.type === 'or' || j.type === 'and' || j.type === 'comma') && b.type === 'mention' && b.mention.presence && !b.negation && !b.withHave)) continue;
    b.negation = 'not';
    if (j.type !== 'comma') for (let c = k - 3; c >= 1 && items[c].type === 'comma' && items[c - 1].type === 'mention' && (items[c - 1] as MentionItem).negation === 'not'; c -= 2) items[c] = { ...j, start: items[c].start, end: items[c].end };
  }

  // 2. bind values and dates to mentions
  const strongBoundary = (x: Item) => x.type === 'boundary';
  const findBackward = (k: number, ok: (m: MentionItem) => boolean): MentionItem | undefined => {
    for (let j = k - 1; j >= 0; j--) {
      const x = items[j];
      if (strongBoundary(x)) return undefined;
      if (x.type === 'mention' && ok(x)) return x;
    }
    return undefined;
  };
  const bound = new Set<Item>();
  const absorbed = new Set<Item>();
  /** values and dates bound to a mention under a negation of their own ("made a purchase, but not within 4 months") */
  const negatedBinding = new Set<Item>();
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
    if (x.type !== 'value' && x.type !== 'date') continue;
    const ok = (m: MentionItem) => (x.type === 'value' ? m.mention.money !== undefined : m.mention.date !== undefined);
    const next = items[k + 1];
    // "recent purchasers and recent subscribers": a date word opening a noun group of its own after a joiner
    // describes that group's stage (step 3), not the purchase mention of the group before
    if (x.type === 'date' && x.byDefault && next?.type === 'lifecycle' && next.start === x.end && isJoiner(items[k - 1])) continue;
    // "never-purchased leads older than 6 months": an age right after the contacts' noun is theirs (step 3)
    if (x.type === 'date' && contactAge(items, k)) continue;
    const forward = next?.type === 'mention' && ok(next) && !next.bound?.length ? next : undefined;
    const backward = findBackward(k, ok);
    let target: MentionItem | undefined;
    if (x.type === 'value') {
      // "with ltv over 5k bought last week": a field right before the value keeps it
      const adjacent = backward && backward.end === x.start && !backward.negation;
      target = adjacent ? backward : (forward ?? backward);
      // "spent less than $200 in total": both name the same field; the verb keeps it, "in total" is absorbed
      if (forward && backward && forward.mention.money === backward.mention.money) {
        target = backward;
        absorbed.add(forward);
      }
      // "spent more than 500 on their last order", "spent over 200 on their most recent purchase": the amount of that
      // purchase, not everything they spent
      const lastPurchase = forward && forward.mention.money === 'lastPurchaseAmount' && (forward.mention.presence === 'lastPurchaseDate' || forward.mention.presence === 'lastPurchaseAmount');
      if (lastPurchase && backward?.mention.money === 'lifetimeValue' && backward.mention.purchase && !backward.negation) {
        target = forward;
        absorbed.add(backward);
      }
    } else target = backward ?? forward;
    if (target) {
      (target.bound ??= []).push(x);
      bound.add(x);
      const before = items[k - 1];
      if (before?.type === 'negation' && target !== items[k + 1] && !target.negation) {
        negatedBinding.add(x);
        items.splice(k - 1, 1);
        k--;
      }
    }
  }
  const relatedFields: Record<string, string[]> = {
    email: ['email', 'emailDomain'], company: ['company'], country: ['country', 'region'], city: ['city'], state: ['state'],
    firstName: ['firstName', 'name'], lastName: ['lastName', 'name'],
  };

  // a purchase word with nothing of its own ("spent more than 500 on their last order") adds nothing
  // when another purchase field of the same clause carries the values
  const clauseOf = (k: number) => {
    let lo = k;
    while (lo > 0 && items[lo - 1].type !== 'boundary') lo--;
    let hi = k;
    while (hi < items.length - 1 && items[hi + 1].type !== 'boundary') hi++;
    return items.slice(lo, hi + 1);
  };
  items.forEach((x, k) => {
    if (x.type !== 'mention' || !x.mention.purchase || x.negation || x.bound?.length) return;
    // ("past buyers with no order in the last 3 months": a negated purchase does not say they bought; the buyers do)
    if (clauseOf(k).some((y) => y !== x && y.type === 'mention' && y.bound?.length && y.mention.purchase !== undefined && !y.negation)) absorbed.add(x);
  });

  // "evangelists; ltv top 25": a field named right before a ranking with none of its own is what it ranks by
  items = items.filter((x, k) => {
    const next = items[k + 1];
    if (x.type !== 'mention' || x.bound?.length || x.negation || !x.mention.sort || next?.type !== 'sort' || next.start !== x.end || next.field !== undefined) return true;
    next.field = x.mention.sort;
    return false;
  });

  // 3. mentions, values and dates become conditions
  const out: Item[] = [];
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
    if (bound.has(x) || absorbed.has(x)) continue;
    if (x.type === 'value') {
      // "lead score above 50": a plain number right after an unknown word belongs to that word
      const prev = items[k - 1];
      if (!x.money && prev?.type === 'unknown' && prev.end === x.start) {
        unknown.push({ start: x.start, end: x.end });
        continue;
      }
      // "female contacts over 40": a small plain number with no money word, no currency and no field is more
      // likely an age or a count than a lifetime value: asked about
      if (!x.money && x.below === undefined && x.amount < 100 && (x.highAmount ?? x.amount) < 100) {
        unknown.push({ start: x.start, end: x.end });
        continue;
      }
      bareAmount(x, 'lifetimeValue', flagged);
      out.push({ type: 'condition', start: x.start, end: x.end, node: valueCondition(x, 'lifetimeValue'), slot: 'lifetimeValue', field: 'lifetimeValue' });
    } else if (x.type === 'date') {
      // "emails we send last week": a date right after a word that was not understood belongs to that word
      const prev = items[k - 1];
      if (prev?.type === 'unknown' && prev.end === x.start) {
        unknown.push({ start: x.start, end: x.end });
        continue;
      }
      // "inactive contacts in spain for more than 6 months": how long the inactivity lasted (it yields, see yieldDefaults)
      const inactivity = items.some((y) => y.type === 'condition' && y.byDefault && isCondition(y.node) && y.node.field === 'lastPurchaseDate' && y.node.op === 'lt');
      if (x.duration && x.op === 'gte' && x.value && inactivity) {
        out.push({ type: 'condition', start: x.start, end: x.end, node: { field: 'lastPurchaseDate', op: 'lt', value: x.value }, slot: 'lastPurchaseDate', field: 'lastPurchaseDate' });
        continue;
      }
      // "for 6 months" / "older than 2 years" on its own: how long what lasted? not applied
      if ((x.duration || x.age) && !contactAge(items, k)) {
        unknown.push({ start: x.start, end: x.end });
        continue;
      }
      // "nothing since spring", "none in 6 to 9 months": a purchase that is that old (past buyers)
      const last = out[out.length - 1];
      if (last?.type === 'negation' && last.negation === 'not' && ((x.since && x.op === 'gte') || x.ages)) {
        out.pop();
        const node: Condition = x.ages ? dateCondition(x, 'lastPurchaseDate') : { field: 'lastPurchaseDate', op: 'lt', value: x.value! };
        out.push({ type: 'condition', start: last.start, end: x.end, node, slot: 'lastPurchaseDate', field: 'lastPurchaseDate' });
        continue;
      }
      // "recent subscribers", "recent leads": a stage's recent ones joined recently (recent customers bought recently)
      const next = items[k + 1];
      const before = items[k - 1];
      // ("signed up for the newsletter in may": when they joined)
      const joined = (x.byDefault && next?.type === 'lifecycle' && next.start === x.end && next.stage !== 'customer' && next.stage !== 'unknown') || (before?.type === 'lifecycle' && before.joined === true && before.end === x.start);
      const field: DateField = joined || contactAge(items, k) ? 'createdAt' : 'lastPurchaseDate';
      const node = dateCondition(x, field);
      swappedDate(x, node, field, flagged);
      out.push({ type: 'condition', start: x.start, end: x.end, node, slot: field, field, byDefault: x.byDefault });
    } else if (x.type === 'mention') {
      const negated = x.negation !== undefined;
      const wrap = (n: SegmentNode, slot: string): CondItem => ({ type: 'condition', start: x.start, end: x.end, node: negated ? (complementOfAmount(n) ?? { not: n }) : n, slot, field: slot });
      // "haven't bought in 6 months / since May": past buyers whose last purchase is older (lapsed buyers);
      // "never bought" stays "no purchase". The note says which reading was taken; the chip can be negated.
      const lapsedDate = x.bound?.length === 1 && x.bound[0].type === 'date' && x.bound[0].op === 'gte' ? x.bound[0] : undefined;
      // "no order since March", "no purchases in the last 90 days", "w/o purchase this yr": lapsed too (the brief's
      // convention, and what writers who never saw the parser read); a closed period ("no purchase in 2025") is not
      // "made a purchase, but not within the last 4 months": the purchase is said, its recency negated
      const negatedOwn = lapsedDate !== undefined && negatedBinding.has(lapsedDate) && !!x.mention.purchase && !negated;
      if ((x.negation === 'not' && (x.mention.verb || x.mention.purchase || lapsedDate?.since) && lapsedDate?.value) || (negatedOwn && lapsedDate?.value)) {
        out.push({ type: 'condition', start: x.start, end: x.end, node: { field: 'lastPurchaseDate', op: 'lt', value: lapsedDate!.value! }, slot: 'lastPurchaseDate', field: 'lastPurchaseDate' });
        if (!negatedOwn) guesses.push('past buyers whose last purchase is older (contacts who never bought are not included: negate the date condition to include them)');
        continue;
      }
      // "haven't shopped in six to nine months": their last purchase is that old
      const agesDate = x.bound?.length === 1 && x.bound[0].type === 'date' && x.bound[0].ages ? x.bound[0] : undefined;
      if (x.negation === 'not' && x.mention.purchase && agesDate) {
        out.push({ type: 'condition', start: x.start, end: x.end, node: dateCondition(agesDate, 'lastPurchaseDate'), slot: 'lastPurchaseDate', field: 'lastPurchaseDate' });
        continue;
      }
      // "recent purchasers in the last 14 days": "recent" is a default that yields to the period the mention is given
      if (x.bound && x.bound.some((b) => b.type === 'date' && !b.byDefault)) x.bound = x.bound.filter((b) => !(b.type === 'date' && b.byDefault));
      if (x.bound?.length) {
        for (const b of x.bound) if (b.type === 'value') bareAmount(b, x.mention.money as NumberField, flagged);
        const nodes = x.bound.map((b): SegmentNode => {
          // "been in the database for more than 6 months": it has lasted that long, so the date is older
          if (b.type === 'date' && b.duration && b.op === 'gte' && !negated && b.value) return { field: x.mention.date as DateField, op: 'lt', value: b.value };
          const n = b.type === 'value' ? valueCondition(b, x.mention.money as NumberField) : dateCondition(b as DateItem, x.mention.date as DateField);
          if (b.type === 'date') swappedDate(b, n, x.mention.date as DateField, flagged);
          return negatedBinding.has(b) ? (complementOfAmount(n) ?? { not: n }) : n;
        });
        const slot = nodes.length === 1 && isCondition(nodes[0]) ? nodes[0].field : 'mixed';
        // "clients who bought more than 1000 euro": one purchase or all of them? With no date to say it is one
        // purchase ("bought more than $500 last month"), both readings are offered
        const amount = x.bound.length === 1 && x.bound[0].type === 'value' && x.bound[0].money ? x.bound[0] : undefined;
        if (amount && x.mention.verb && x.mention.money === 'lastPurchaseAmount' && !negated && !input.some((y) => y.type === 'date') && isCondition(nodes[0])) {
          const total: Condition = { ...(nodes[0] as Condition), field: 'lifetimeValue' } as Condition;
          flagged.push({
            type: 'condition', start: x.start, end: x.end, node: nodes[0], slot, field: slot,
            alternatives: [{ label: 'lifetime value (everything they bought)', node: total }],
            issue: `Is ${dollars(amount.amount)} one purchase or everything they bought? I read it as their last purchase.`,
          });
        }
        // "recent purchasers (last 14 days)": "recent" alone is a default that yields to the period given
        const byDefault = !negated && x.bound.every((b) => b.type === 'date' && b.byDefault);
        out.push({ ...wrap(and(nodes), slot), byDefault });
      } else if (x.mention.purchase && !x.mention.presence && items[k + 1]?.type === 'unknown' && items[k + 1].start === x.end) {
        // "who spend wisely", "who bought Nike shoes": the verb is qualified by words that were not
        // understood; "has purchased" would silently broaden the question, so nothing is applied
        unknown.push({ start: x.start, end: x.end });
      } else if (x.mention.purchase && !x.mention.presence) {
        // "the 10 most recent buyers", "latest buyers": the order by last purchase is all that is asked (the brief's
        // convention, read so by every writer who wrote it); contacts who never bought sort last
        const prev = items[k - 1];
        if (!negated && prev?.type === 'sort' && prev.field === 'lastPurchaseDate' && prev.direction === 'desc' && prev.end === x.start) continue;
        out.push({ type: 'condition', start: x.start, end: x.end, node: { field: 'hasPurchased', op: 'eq', value: !negated }, slot: 'hasPurchased', field: 'hasPurchased' });
      } else if (x.mention.fresh) {
        // "new" alone is the last 30 days; a period of its own wins ("new leads created this month")
        out.push({ ...wrap({ field: 'createdAt', op: 'gte', value: { kind: 'relative', amount: 30, unit: 'day', direction: 'past' } }, 'createdAt'), byDefault: !negated });
      } else if (x.mention.active) {
        out.push(wrap({ field: 'lastPurchaseDate', op: 'gte', value: { kind: 'relative', amount: 90, unit: 'day', direction: 'past' } }, 'lastPurchaseDate'));
      } else if (negated || x.withHave || x.mention.asserts) {
        // "with emails ending in @stark.com": the value follows, the presence adds nothing
        const next = items[k + 1];
        if (!negated && next?.type === 'condition' && (relatedFields[x.mention.presence ?? ''] ?? []).includes(next.field)) continue;
        // "with email open rate under 10%": a field word right before words that were not understood
        // qualifies them; no condition is invented from it
        if (next?.type === 'unknown' && next.start === x.end) {
          unknown.push({ start: x.start, end: x.end });
          continue;
        }
        // "everyone in the state of New York except the city": the city of the state's name, not "no city"
        const state = [...out].reverse().find(isCond);
        if (negated && x.mention.presence === 'city' && state && isCondition(state.node) && state.node.field === 'state' && state.node.op === 'eq') {
          out.push({ type: 'condition', start: x.start, end: x.end, node: { not: { field: 'city', op: 'eq', value: state.node.value as string } }, slot: 'has:city', field: 'city' });
          continue;
        }
        const node = presenceCondition(x.mention, negated);
        if (node) out.push({ type: 'condition', start: x.start, end: x.end, node, slot: `has:${x.mention.presence}`, field: x.mention.presence as string });
        else unknown.push({ start: x.start, end: x.end });
      } else if (x.mention.purchase) {
        out.push({ type: 'condition', start: x.start, end: x.end, node: { field: 'hasPurchased', op: 'eq', value: true }, slot: 'hasPurchased', field: 'hasPurchased' });
      } else if (x.mention.money) {
        unknown.push({ start: x.start, end: x.end }); // "lifetime value" with no value: not understood
      }
      // other bare field words ("country", "stage") carry no condition
    } else out.push(x);
  }
  items = out;

  // 4. "customers"/"clients": the lifecycle stage only when negated or listed with another stage
  const isStage = (x: Item | undefined) => x?.type === 'lifecycle' && !x.generic;
  // "everyone except customers who bought this month", "all but leads who signed up in 2025": the negation
  // covers the noun with its relative clause; "customers" there is the generic word
  items.forEach((x, k) => {
    const prev = items[k - 1];
    const next = items[k + 1];
    // "all customers except those with gmail addresses": "those" is a filler, the clause follows the negation
    if (x.type === 'negation' && x.negation === 'except' && next?.type === 'boundary' && (RELATIVE_WORDS.has(next.word) || next.word === 'with' || next.word === 'having')) x.scope = 'clause';
    // "everyone except german leads": a place said before the stage belongs to the noun it describes
    if (x.type === 'negation' && (x.negation === 'except' || x.negation === 'not') && next?.type === 'condition' && next.slot === 'location' && next.bare && items[k + 2]?.type === 'lifecycle' && items[k + 2].start === next.end && !(items[k + 2] as { generic?: boolean }).generic) x.scope = 'clause';
    if (x.type === 'lifecycle' && prev?.type === 'negation' && prev.negation === 'except' && next?.type === 'boundary' && RELATIVE_WORDS.has(next.word)) {
      prev.scope = 'clause';
      if (x.generic) items[k] = { type: 'boundary', start: x.start, end: x.end, word: 'who' };
    }
  });
  // "leads from Spain and customers from Portugal": "customers" opening a clause of its own opposite a stage is the
  // stage (either group, below)
  const firstStage = items.findIndex((x) => x.type === 'lifecycle' && !x.generic);
  items.forEach((x, k) => {
    if (x.type !== 'lifecycle' || !x.generic || firstStage < 0 || firstStage >= k) return;
    const prev = items[k - 1];
    const next = items[k + 1];
    if ((prev?.type === 'and' || prev?.type === 'or' || prev?.type === 'comma') && next?.type === 'condition' && next.slot === 'location' && items.slice(firstStage + 1, k - 1).some((y) => y.type === 'condition' && y.slot === 'location')) x.generic = false;
  });
  // "leads in Japan, or customers who spent 25k+": the stage opening a clause of its own (grammar.ts opensNewSubject)
  items.forEach((x, k) => {
    const prev = items[k - 1];
    if (x.type === 'lifecycle' && x.generic && prev?.type === 'or' && prev.clause === 'subject') x.generic = false;
  });
  // "customers in Spain, or leads in France": "customers" opposite a stage in a clause of its own is the stage
  items.forEach((x, k) => {
    if (x.type !== 'lifecycle' || !x.generic) return;
    const split = items.findIndex((y, j) => j > k && y.type === 'or' && y.clause === 'subject');
    if (split > k && items.slice(split + 1).some((y) => y.type === 'lifecycle' && !y.generic) && !items.slice(0, k).some((y) => y.type === 'lifecycle')) x.generic = false;
  });
  for (let pass = 0; pass < 2; pass++) {
    items.forEach((x, k) => {
      if (x.type !== 'lifecycle' || !x.generic) return;
      const prev = items[k - 1];
      // ("leads, or customers": the comma before the joiner is part of it)
      const before = prev?.type === 'or' && items[k - 2]?.type === 'comma' ? items[k - 3] : items[k - 2];
      if (prev?.type === 'negation' || (isJoiner(prev) && isStage(before)) || (isJoiner(items[k + 1]) && isStage(items[k + 2]))) x.generic = false;
    });
  }
  items = items.flatMap((x): Item[] => {
    if (x.type !== 'lifecycle') return [x];
    if (x.generic) return [];
    if (x.hubspot) {
      const node: Condition = x.hubspot.length === 1 ? { field: 'hubspotStage', op: 'eq', value: x.hubspot[0] } : { field: 'hubspotStage', op: 'in', values: [...x.hubspot] };
      return [{ type: 'condition', start: x.start, end: x.end, node, slot: 'lifecycle', field: 'hubspotStage' }];
    }
    return [{ type: 'condition', start: x.start, end: x.end, node: { field: 'lifecycleStage', op: 'eq', value: x.stage }, slot: 'lifecycle', field: 'lifecycleStage' }];
  });

  // "all of Europe but the UK", "everyone in Canada but Quebec": "but" before a condition of the kind just
  // named excludes it
  const lastCond = (k: number) => {
    for (let j = k - 1; j >= 0; j--) if (isCond(items[j])) return items[j] as CondItem;
    return undefined;
  };
  items = items.map((x, k) => {
    const next = items[k + 1];
    if (x.type === 'boundary' && x.word === 'but' && isCond(next) && ['location', 'lifecycle', 'company', 'emailDomain'].includes(next.slot) && lastCond(k)?.slot === next.slot) {
      return { type: 'negation', start: x.start, end: x.end, negation: 'except' };
    }
    return x;
  });

  // "Texas, Florida, or Georgia": a comma before the last "or" / "and" of a list is part of that joiner
  items = items.filter((x, k) => !(x.type === 'comma' && (items[k + 1]?.type === 'or' || items[k + 1]?.type === 'and') && isCond(items[k - 1]) && isCond(items[k + 2]) && (items[k - 1] as CondItem).slot === (items[k + 2] as CondItem).slot && (items[k + 1] as { clause?: string }).clause === undefined));

  items = australianStates(items);
  items = describedGroups(items);

  // 5. lists of alternatives ("Germany, France or Spain", "leads and subscribers") and negations
  const res: Item[] = [];
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
    if (x.type === 'negation' && x.scope === 'clause') {
      // the negated noun phrase with its relative clause, up to a comma, an "or" or the end
      const conds: CondItem[] = [];
      let j = k + 1;
      while (j < items.length && (isCond(items[j]) || items[j].type === 'and' || (items[j].type === 'boundary' && (items[j] as { word: string }).word !== 'but'))) {
        if (isCond(items[j])) conds.push(items[j] as CondItem);
        j++;
      }
      if (conds.length > 0) {
        res.push({ type: 'condition', start: x.start, end: conds[conds.length - 1].end, node: complementOfAmount(and(conds.map((c) => c.node))) ?? { not: and(conds.map((c) => c.node)) }, slot: 'clause', field: 'clause' });
        k = j - 1;
        continue;
      }
    }
    const negated = x.type === 'negation' && isCond(items[k + 1]);
    const startK = negated ? k + 1 : k;
    const first = items[startK];
    if (!isCond(first)) {
      res.push(x);
      continue;
    }
    const members: CondItem[] = [first];
    let anyOr = false;
    let j = startK;
    for (;;) {
      // "bogota medellin leads": places of one field typed side by side are a list too
      const side = items[j + 1];
      const prevPlace = members[members.length - 1];
      if (isCond(side) && side.bare && first.slot === 'location' && side.slot === 'location' && side.field === prevPlace.field && side.start === prevPlace.end && ['city', 'state', 'country'].includes(side.field)) {
        members.push(side);
        anyOr = true;
        j += 1;
        continue;
      }
      // "companies: Brunet Robotics SARL; Harborbridge Motors GmbH; Silvermark PLC": values of one field, each alone
      // between semicolons, are a list too
      const semicolon = (x: Item | undefined) => x?.type === 'boundary' && x.word === ';';
      const alone = (at: number) => at >= items.length || isSeparatorItem(items[at]);
      if (semicolon(items[j + 1]) && isCond(items[j + 2]) && (items[j + 2] as CondItem).slot === first.slot && (items[j + 2] as CondItem).field === first.field && UNION_SLOTS.has(first.slot) && alone(j + 3)) {
        members.push(items[j + 2] as CondItem);
        anyOr = true;
        j += 2;
        continue;
      }
      if (!(isJoiner(items[j + 1]) && isCond(items[j + 2]))) break;
      const joiner = items[j + 1];
      // ("leads in Spain and anyone in Italy …": an OR between whole clauses is not a list)
      if (joiner.type === 'or' && joiner.clause) break;
      const nextC = items[j + 2] as CondItem;
      const prevC = members[members.length - 1];
      const sameSlot = nextC.slot === first.slot;
      if (!sameSlot) break;
      if (!UNION_SLOTS.has(first.slot) && joiner.type !== 'or') break;
      // "Paris, France" / "Austin, TX" / "city is Paris and country is France": a smaller place followed by a larger
      // one qualifies it (a list of alternatives is of one kind: "Texas and Florida")
      // ("são paulo and rio de janeiro": a larger place after "and" that is also a place of the first kind is the next
      // of the list)
      const sameKind = joiner.type === 'and' && first.slot === 'location' ? nextC.alternatives?.find((a) => isCondition(a.node) && a.node.field === prevC.field) : undefined;
      if (sameKind && PLACE_RANK[prevC.field] < PLACE_RANK[nextC.field]) {
        members.push({ ...nextC, node: sameKind.node, field: prevC.field, alternatives: undefined, issue: undefined });
        const at = flagged.indexOf(nextC);
        if (at >= 0 && !nextC.unverified) flagged.splice(at, 1);
        j += 2;
        continue;
      }
      if (first.slot === 'location' && joiner.type !== 'or' && PLACE_RANK[prevC.field] < PLACE_RANK[nextC.field]) break;
      if (joiner.type === 'or') anyOr = true;
      members.push(nextC);
      j += 2;
    }
    // "querétaro or mexico city": a place that is a state and a city in this CRM takes the kind of the rest of its list
    if (members.length > 1 && first.slot === 'location') {
      for (const m of members) {
        const others = new Set(members.filter((o) => o !== m).map((o) => o.field));
        if (others.size !== 1 || others.has(m.field)) continue;
        const kind = [...others][0];
        const alt = m.alternatives?.find((a) => isCondition(a.node) && a.node.field === kind);
        if (!alt) continue;
        members[members.indexOf(m)] = { ...m, node: alt.node, field: kind, alternatives: undefined, issue: undefined };
        const at = flagged.indexOf(m);
        if (at >= 0 && !m.unverified) flagged.splice(at, 1);
      }
    }
    let node: SegmentNode;
    if (members.length === 1) node = first.node;
    else if (anyOr || UNION_SLOTS.has(first.slot)) node = union(members.map((m) => m.node));
    else node = and(members.map((m) => m.node));
    // ("unless they spent under 1k", "except anyone with ltv over 5k": the other side of the amount, as "not over 5k")
    if (negated) node = complementOfAmount(node) ?? { not: node };
    const last = members[members.length - 1];
    const byDefault = members.length === 1 && !negated && first.byDefault;
    res.push({ type: 'condition', start: negated ? x.start : first.start, end: last.end, node, slot: first.slot, field: first.field, guess: members.map((m) => m.guess).find(Boolean), byDefault });
    k = j;
  }
  items = res;

  // 6. an OR between whole clauses, each with its own subject: "leads in Portugal, or anyone with ltv over 25k",
  // "subscribers who signed up in 2025 or opps in the UK", "mqls added last quarter, or any evangelist"
  items = clauseAlternatives(items, flagged);

  // clause-level alternatives of neighbours: "leads in Canada or subscribers in the US"
  const isSeparator = (x: Item | undefined) => x?.type === 'boundary' || x?.type === 'or' || x?.type === 'and' || x?.type === 'comma';
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
    if (x.type !== 'or' && x.type !== 'and' && x.type !== 'comma') continue;
    // ("leads in Peru, and also customers in Chile": the comma is part of the joiner)
    if (x.type === 'comma' && (items[k + 1]?.type === 'and' || items[k + 1]?.type === 'or')) continue;
    const leftEnd = items[k - 1]?.type === 'comma' ? k - 1 : k;
    let lo = leftEnd;
    while (lo > 0 && !isSeparator(items[lo - 1])) lo--;
    let rightStart = k + 1;
    while (items[rightStart]?.type === 'boundary') rightStart++;
    let hi = rightStart;
    while (hi < items.length && !isSeparator(items[hi])) hi++;
    let right = items.slice(rightStart, hi).filter(isCond);
    // "accounts in DACH with ltv 10k-50k, or in the nordics with ltv over 50k": a second part that names a place of
    // its own is an alternative to the first part with its place, so that place is not shared by both parts
    if (x.type === 'or' && right.some((c) => c.slot === 'location') && !items.slice(lo, leftEnd).some((c) => isCond(c) && c.slot === 'location')) {
      let p = lo - 1;
      while (p >= 0 && items[p].type !== 'or' && !(isCond(items[p]) && (items[p] as CondItem).slot === 'location')) p--;
      if (p >= 0 && isCond(items[p])) lo = p;
    }
    const left = items.slice(lo, leftEnd).filter(isCond);
    if (left.length === 0 || right.length === 0) continue;
    let isUnion = x.type === 'or';
    if (!isUnion) {
      // "subscribers in France and leads in Belgium": both sides name a stage and a place -> either group
      const slotsL = new Set(left.map((c) => c.slot));
      const slotsR = new Set(right.map((c) => c.slot));
      isUnion = ['lifecycle', 'location'].every((sl) => slotsL.has(sl) && slotsR.has(sl));
    }
    if (!isUnion) continue;
    // "… plus paying customers in Canada with ltv 10k+": a relative clause after the second group is that group's
    while (items[hi]?.type === 'boundary' && RELATIVE_OR_WITH.has((items[hi] as { word: string }).word) && isCond(items[hi + 1])) {
      hi++;
      while (hi < items.length && !isSeparator(items[hi])) hi++;
    }
    right = items.slice(rightStart, hi).filter(isCond);
    const node = or([and(left.map((c) => c.node)), and(right.map((c) => c.node))]);
    const merged: Item = { type: 'condition', start: left[0].start, end: right[right.length - 1].end, node, slot: 'clause', field: 'clause' };
    const keep = [...items.slice(lo, k), ...items.slice(rightStart, hi)].filter((i) => !isCond(i));
    items = [...items.slice(0, lo), ...keep, merged, ...items.slice(hi)];
    k = lo + keep.length;
  }

  // 7. everything else is ANDed; sorting and limits go to the segment
  items = yieldDefaults(items);
  // "high spenders with over $2,500 total": a description, not a ranking, when the amount is given
  const amountGiven = items.some((x) => x.type === 'condition' && (x.field === 'lifetimeValue' || x.field === 'lastPurchaseAmount' || x.field === 'mixed'));
  items = items.filter((x) => !(x.type === 'sort' && x.soft && amountGiven));
  // "vip clients who billed more than 400,000": the amount says what "vip" means; alone it is not understood
  const sortedByAmount = items.some((x) => (x.type === 'sortBy' || x.type === 'sort') && (x.field === 'lifetimeValue' || x.field === 'lastPurchaseAmount' || x.field === undefined));
  // "net-new leads created this quarter", "greenfield accts … never bought", "customers slipping away who haven't
  // bought in 3 weeks", "regular customers with ltv under $1,000": the question's conditions say what the word means
  const conditionNodes = items.flatMap((x) => (x.type === 'condition' ? leaves(x.node) : []));
  const says: Record<DescriptorKind, boolean> = {
    // ("vip = ltv 10k+ OR last order over 5k": amounts inside an OR define it too)
    value: amountGiven || sortedByAmount || conditionNodes.some((n) => n.field === 'lifetimeValue' || n.field === 'lastPurchaseAmount'),
    new: conditionNodes.some((n) => n.field === 'createdAt' || (n.field === 'hasPurchased' && n.value === false)),
    // ("at-risk segment (last order 60-120 days ago)": a window of ages in the past defines a lapse too)
    lapsed: conditionNodes.some((n) => n.field === 'lastPurchaseDate' && (n.op === 'lt' || n.op === 'lte' || (n.op === 'between' && n.to.kind === 'relative'))),
    plain: conditionNodes.length > 0 || items.some((x) => x.type === 'sort' || x.type === 'sortBy'),
    engagement: conditionNodes.some((n) => n.field === 'createdAt' || n.field === 'lastPurchaseDate' || n.field === 'hasPurchased'),
  };
  items = items.flatMap((x): Item[] => {
    if (x.type !== 'descriptor') return [x];
    if (says[x.kind]) {
      asides.push(`${x.text}=`);
      return [];
    }
    return [{ type: 'unknown', start: x.start, end: x.end }];
  });
  const nodes: SegmentNode[] = [];
  let sort: SegmentSort | undefined;
  let limit: number | undefined;
  let superlative = false;
  let one = false;
  let sortField: SegmentSort['field'] | undefined;
  let sortDirection: SegmentSort['direction'] | undefined;
  let byField: SegmentSort['field'] | undefined;
  let byDirection: SegmentSort['direction'] | undefined;
  for (const x of items) {
    switch (x.type) {
      case 'condition':
        nodes.push(x.node);
        if (x.guess) guesses.push(x.guess);
        break;
      case 'sort':
        sortField = sortField ?? x.field;
        sortDirection = sortDirection ?? x.direction;
        if (x.limit !== undefined) limit = x.limit;
        superlative = superlative || x.superlative || x.limit !== undefined;
        one = one || x.one === true;
        break;
      case 'sortBy':
        byField = x.field;
        byDirection = x.direction;
        break;
      case 'limit':
        limit = x.count;
        break;
      case 'unknown':
        unknown.push({ start: x.start, end: x.end });
        break;
      case 'negation':
        unknown.push({ start: x.start, end: x.end });
        break;
      case 'aside':
        asides.push(x.text);
        break;
      default:
        break;
    }
  }
  if (sortDirection || byField) {
    const field = byField ?? sortField ?? 'lifetimeValue';
    const textual = ['firstName', 'lastName', 'company', 'email', 'city', 'state', 'country'].includes(field);
    const direction = byDirection ?? (byField && sortField && byField !== sortField ? (textual ? 'asc' : 'desc') : sortDirection) ?? (textual ? 'asc' : 'desc');
    sort = { field, direction };
    // "the newest lead", "their top spender": one; "biggest spenders": the first 10
    if (superlative && limit === undefined) limit = one ? 1 : 10;
  }
  // "buyers who haven't bought since May": a positive last-purchase date already implies a purchase

  const flat = nodes.flatMap((n) => ('and' in n ? n.and : [n]));
  // the same condition said twice ("purchased at least once") is one condition
  const once = flat.filter((n, i) => flat.findIndex((m) => JSON.stringify(m) === JSON.stringify(n)) === i);
  const implied = dropImplied(once);
  const datesPurchase = implied.some((n) => isCondition(n) && n.field === 'lastPurchaseDate' && n.op !== 'is_not_set');
  const kept = datesPurchase ? implied.filter((n) => !(isCondition(n) && n.field === 'hasPurchased' && n.value === true)) : implied;
  const segment: Segment = { version: SEGMENT_VERSION };
  if (kept.length > 0) segment.where = and(kept);
  if (sort) segment.sort = sort;
  if (limit !== undefined) segment.limit = limit;
  return { segment, unknown, guesses, asides, counts, flagged };
}

/** Australian cities (those the product knows, and Perth, whose "WA" is Western Australia). */
const isAustralianCity = (city: string) => CITY_COUNTRY.get(city.toLowerCase()) === 'Australia' || city === 'Perth';

/**
 * "customers in perth, WA": a state code right after an Australian city is that city's state, not the US state of
 * the same code (WA is Western Australia there, never Washington).
 */
function australianStates(items: Item[]): Item[] {
  return items.map((x, k) => {
    const before = items[k - 1]?.type === 'comma' ? items[k - 2] : items[k - 1];
    if (!isCond(x) || !isCond(before) || x.end - x.start !== 1 || !isCondition(x.node) || x.node.field !== 'state' || x.node.op !== 'eq' || x.node.value !== 'Washington') return x;
    const city = (before as CondItem).node;
    if (!isCondition(city) || city.field !== 'city' || city.op !== 'eq' || !isAustralianCity(String(city.value))) return x;
    return { ...x, node: { field: 'state', op: 'eq', value: 'Western Australia' } };
  });
}
