/**
 * Second pass of the parser: binds values and dates to the fields mentioned next to them, decides what
 * "customers" means, groups lists ("Germany, France or Spain"), applies negations and builds the
 * boolean tree. See parser/README.md for the rules.
 */
import type { Condition, DateField, NumberField, Segment, SegmentNode, SegmentSort } from '../ast.js';
import { SEGMENT_VERSION, isCondition, type LifecycleStage } from '../ast.js';
import type { Item } from './grammar.js';
import type { Mention } from './lexicon.js';

type CondItem = Extract<Item, { type: 'condition' }>;
type MentionItem = Extract<Item, { type: 'mention' }>;
type ValueItem = Extract<Item, { type: 'value' }>;
type DateItem = Extract<Item, { type: 'date' }>;

export interface Assembled {
  segment: Segment;
  /** token spans that were not understood */
  unknown: Array<{ start: number; end: number }>;
  guesses: string[];
}

const UNION_SLOTS = new Set(['lifecycle', 'location', 'emailDomain', 'company', 'name']);
const PLACE_RANK: Record<string, number> = { city: 0, state: 1, country: 2, region: 3 };

function valueCondition(v: ValueItem, field: NumberField): Condition {
  if (v.comparison === 'between') return { field, op: 'between', from: v.amount, to: v.highAmount as number };
  return { field, op: v.comparison, value: v.amount };
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
    if (conds.every((c) => c.field === field && (c.op === 'eq' || c.op === 'in'))) {
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

export function assemble(input: Item[]): Assembled {
  let items = [...input];
  const unknown: Array<{ start: number; end: number }> = [];
  const guesses: string[] = [];

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
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
    if (x.type !== 'value' && x.type !== 'date') continue;
    const ok = (m: MentionItem) => (x.type === 'value' ? m.mention.money !== undefined : m.mention.date !== undefined);
    const next = items[k + 1];
    const forward = next?.type === 'mention' && ok(next) && !next.bound?.length ? next : undefined;
    const backward = findBackward(k, ok);
    let target: MentionItem | undefined;
    if (x.type === 'value') {
      target = forward ?? backward;
      // "spent less than $200 in total": both name the same field; the verb keeps it, "in total" is absorbed
      if (forward && backward && forward.mention.money === backward.mention.money) {
        target = backward;
        absorbed.add(forward);
      }
    } else target = backward ?? forward;
    if (target) {
      (target.bound ??= []).push(x);
      bound.add(x);
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
    if (clauseOf(k).some((y) => y !== x && y.type === 'mention' && y.bound?.length && y.mention.purchase !== undefined)) absorbed.add(x);
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
      out.push({ type: 'condition', start: x.start, end: x.end, node: valueCondition(x, 'lifetimeValue'), slot: 'lifetimeValue', field: 'lifetimeValue' });
    } else if (x.type === 'date') {
      // "emails we send last week": a date right after a word that was not understood belongs to that word
      const prev = items[k - 1];
      if (prev?.type === 'unknown' && prev.end === x.start) {
        unknown.push({ start: x.start, end: x.end });
        continue;
      }
      out.push({ type: 'condition', start: x.start, end: x.end, node: dateCondition(x, 'lastPurchaseDate'), slot: 'lastPurchaseDate', field: 'lastPurchaseDate' });
    } else if (x.type === 'mention') {
      const negated = x.negation !== undefined;
      const wrap = (n: SegmentNode, slot: string): Item => ({ type: 'condition', start: x.start, end: x.end, node: negated ? { not: n } : n, slot, field: slot });
      // "haven't bought in 6 months / since May": past buyers whose last purchase is older (lapsed buyers);
      // "never bought" stays "no purchase". The note says which reading was taken; the chip can be negated.
      const lapsedDate = x.bound?.length === 1 && x.bound[0].type === 'date' && x.bound[0].op === 'gte' ? x.bound[0] : undefined;
      if (x.negation === 'not' && x.mention.verb && lapsedDate?.value) {
        out.push({ type: 'condition', start: x.start, end: x.end, node: { field: 'lastPurchaseDate', op: 'lt', value: lapsedDate.value }, slot: 'lastPurchaseDate', field: 'lastPurchaseDate' });
        guesses.push('past buyers whose last purchase is older (contacts who never bought are not included: negate the date condition to include them)');
        continue;
      }
      if (x.bound?.length) {
        const nodes = x.bound.map((b) =>
          b.type === 'value' ? valueCondition(b, x.mention.money as NumberField) : dateCondition(b as DateItem, x.mention.date as DateField),
        );
        const slot = nodes.length === 1 && isCondition(nodes[0]) ? nodes[0].field : 'mixed';
        out.push(wrap(and(nodes), slot));
      } else if (x.mention.purchase && !x.mention.presence && items[k + 1]?.type === 'unknown' && items[k + 1].start === x.end) {
        // "who spend wisely", "who bought Nike shoes": the verb is qualified by words that were not
        // understood; "has purchased" would silently broaden the question, so nothing is applied
        unknown.push({ start: x.start, end: x.end });
      } else if (x.mention.purchase && !x.mention.presence) {
        out.push({ type: 'condition', start: x.start, end: x.end, node: { field: 'hasPurchased', op: 'eq', value: !negated }, slot: 'hasPurchased', field: 'hasPurchased' });
      } else if (x.mention.fresh) {
        out.push(wrap({ field: 'createdAt', op: 'gte', value: { kind: 'relative', amount: 30, unit: 'day', direction: 'past' } }, 'createdAt'));
      } else if (x.mention.active) {
        out.push(wrap({ field: 'lastPurchaseDate', op: 'gte', value: { kind: 'relative', amount: 90, unit: 'day', direction: 'past' } }, 'lastPurchaseDate'));
      } else if (negated || x.withHave) {
        // "with emails ending in @stark.com": the value follows, the presence adds nothing
        const next = items[k + 1];
        if (!negated && next?.type === 'condition' && (relatedFields[x.mention.presence ?? ''] ?? []).includes(next.field)) continue;
        // "with email open rate under 10%": a field word right before words that were not understood
        // qualifies them; no condition is invented from it
        if (next?.type === 'unknown' && next.start === x.end) {
          unknown.push({ start: x.start, end: x.end });
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
  for (let pass = 0; pass < 2; pass++) {
    items.forEach((x, k) => {
      if (x.type !== 'lifecycle' || !x.generic) return;
      const prev = items[k - 1];
      if (prev?.type === 'negation' || (isJoiner(prev) && isStage(items[k - 2])) || (isJoiner(items[k + 1]) && isStage(items[k + 2]))) x.generic = false;
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

  // 5. lists of alternatives ("Germany, France or Spain", "leads and subscribers") and negations
  const res: Item[] = [];
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
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
    while (isJoiner(items[j + 1]) && isCond(items[j + 2])) {
      const joiner = items[j + 1];
      const nextC = items[j + 2] as CondItem;
      const prevC = members[members.length - 1];
      const sameSlot = nextC.slot === first.slot;
      if (!sameSlot) break;
      if (!UNION_SLOTS.has(first.slot) && joiner.type !== 'or') break;
      // "Paris, France" / "Austin, TX": a comma after a smaller place qualifies it
      if (first.slot === 'location' && joiner.type === 'comma' && PLACE_RANK[prevC.field] < PLACE_RANK[nextC.field]) break;
      if (joiner.type === 'or') anyOr = true;
      members.push(nextC);
      j += 2;
    }
    let node: SegmentNode;
    if (members.length === 1) node = first.node;
    else if (anyOr || UNION_SLOTS.has(first.slot)) node = union(members.map((m) => m.node));
    else node = and(members.map((m) => m.node));
    if (negated) node = { not: node };
    const last = members[members.length - 1];
    res.push({ type: 'condition', start: negated ? x.start : first.start, end: last.end, node, slot: first.slot, field: first.field, guess: members.map((m) => m.guess).find(Boolean) });
    k = j;
  }
  items = res;

  // 6. clause-level alternatives: "leads in Canada or subscribers in the US"
  const isSeparator = (x: Item | undefined) => x?.type === 'boundary' || x?.type === 'or' || x?.type === 'and' || x?.type === 'comma';
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
    if (x.type !== 'or' && x.type !== 'and' && x.type !== 'comma') continue;
    let lo = k;
    while (lo > 0 && !isSeparator(items[lo - 1])) lo--;
    let rightStart = k + 1;
    while (items[rightStart]?.type === 'boundary') rightStart++;
    let hi = rightStart;
    while (hi < items.length && !isSeparator(items[hi])) hi++;
    const left = items.slice(lo, k).filter(isCond);
    const right = items.slice(rightStart, hi).filter(isCond);
    if (left.length === 0 || right.length === 0) continue;
    let isUnion = x.type === 'or';
    if (!isUnion) {
      // "subscribers in France and leads in Belgium": both sides name a stage and a place -> either group
      const slotsL = new Set(left.map((c) => c.slot));
      const slotsR = new Set(right.map((c) => c.slot));
      isUnion = ['lifecycle', 'location'].every((sl) => slotsL.has(sl) && slotsR.has(sl));
    }
    if (!isUnion) continue;
    const node = or([and(left.map((c) => c.node)), and(right.map((c) => c.node))]);
    const merged: Item = { type: 'condition', start: left[0].start, end: right[right.length - 1].end, node, slot: 'clause', field: 'clause' };
    const keep = [...items.slice(lo, k), ...items.slice(rightStart, hi)].filter((i) => !isCond(i));
    items = [...items.slice(0, lo), ...keep, merged, ...items.slice(hi)];
    k = lo + keep.length;
  }

  // 7. everything else is ANDed; sorting and limits go to the segment
  const nodes: SegmentNode[] = [];
  let sort: SegmentSort | undefined;
  let limit: number | undefined;
  let superlative = false;
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
      default:
        break;
    }
  }
  if (sortDirection || byField) {
    const field = byField ?? sortField ?? 'lifetimeValue';
    const textual = ['firstName', 'lastName', 'company', 'email', 'city', 'state', 'country'].includes(field);
    const direction = byDirection ?? (byField && sortField && byField !== sortField ? (textual ? 'asc' : 'desc') : sortDirection) ?? (textual ? 'asc' : 'desc');
    sort = { field, direction };
    if (superlative && limit === undefined) limit = 10;
  }
  // "buyers who haven't bought since May": a positive last-purchase date already implies a purchase
  const datesPurchase = nodes.some((n) => isCondition(n) && n.field === 'lastPurchaseDate' && n.op !== 'is_not_set');
  const kept = datesPurchase ? nodes.filter((n) => !(isCondition(n) && n.field === 'hasPurchased' && n.value === true)) : nodes;
  const segment: Segment = { version: SEGMENT_VERSION };
  if (kept.length > 0) segment.where = and(kept);
  if (sort) segment.sort = sort;
  if (limit !== undefined) segment.limit = limit;
  return { segment, unknown, guesses };
}
