/**
 * Second pass of the parser: binds values and dates to the fields mentioned next to them, decides what
 * "customers" means, groups lists ("Germany, France or Spain"), applies negations and builds the
 * boolean tree. See parser/README.md for the rules.
 */
import type { Condition, DateField, NumberField, Segment, SegmentNode, SegmentSort } from '../ast.js';
import { SEGMENT_VERSION, isCondition, type LifecycleStage } from '../ast.js';
import type { Item } from './grammar.js';
import type { Mention } from './lexicon.js';

type CondItem = Extract<Item, { t: 'cond' }>;
type MentionItem = Extract<Item, { t: 'mention' }>;
type ValueItem = Extract<Item, { t: 'value' }>;
type DateItem = Extract<Item, { t: 'date' }>;

export interface Assembled {
  segment: Segment;
  /** token spans that were not understood */
  unknown: Array<{ s: number; e: number }>;
  guesses: string[];
}

const UNION_SLOTS = new Set(['lifecycle', 'location', 'emailDomain', 'company', 'name']);
const PLACE_RANK: Record<string, number> = { city: 0, state: 1, country: 2, region: 3 };

function valueCondition(v: ValueItem, field: NumberField): Condition {
  if (v.cmp === 'between') return { field, op: 'between', from: v.a, to: v.b as number };
  return { field, op: v.cmp, value: v.a };
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

const isCond = (x: Item | undefined): x is CondItem => x?.t === 'cond';
const isJoiner = (x: Item | undefined) => x?.t === 'or' || x?.t === 'and' || x?.t === 'comma';

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
  const unknown: Array<{ s: number; e: number }> = [];
  const guesses: string[] = [];

  // 1. a negation right before a field mention negates the mention ("haven't bought", "no email")
  for (let k = 0; k < items.length - 1; k++) {
    const a = items[k];
    const b = items[k + 1];
    if (a.t === 'neg' && b.t === 'mention') {
      b.neg = a.kind;
      items.splice(k, 1);
      k--;
    }
  }

  // 2. bind values and dates to mentions
  const strongBoundary = (x: Item) => x.t === 'boundary';
  const findBackward = (k: number, ok: (m: MentionItem) => boolean): MentionItem | undefined => {
    for (let j = k - 1; j >= 0; j--) {
      const x = items[j];
      if (strongBoundary(x)) return undefined;
      if (x.t === 'mention' && ok(x)) return x;
    }
    return undefined;
  };
  const bound = new Set<Item>();
  const absorbed = new Set<Item>();
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
    if (x.t !== 'value' && x.t !== 'date') continue;
    const ok = (m: MentionItem) => (x.t === 'value' ? m.m.money !== undefined : m.m.date !== undefined);
    const next = items[k + 1];
    const forward = next?.t === 'mention' && ok(next) && !next.bound?.length ? next : undefined;
    const backward = findBackward(k, ok);
    let target: MentionItem | undefined;
    if (x.t === 'value') {
      target = forward ?? backward;
      // "spent less than $200 in total": both name the same field; the verb keeps it, "in total" is absorbed
      if (forward && backward && forward.m.money === backward.m.money) {
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
    while (lo > 0 && items[lo - 1].t !== 'boundary') lo--;
    let hi = k;
    while (hi < items.length - 1 && items[hi + 1].t !== 'boundary') hi++;
    return items.slice(lo, hi + 1);
  };
  items.forEach((x, k) => {
    if (x.t !== 'mention' || !x.m.purchase || x.neg || x.bound?.length) return;
    if (clauseOf(k).some((y) => y !== x && y.t === 'mention' && y.bound?.length && y.m.purchase !== undefined)) absorbed.add(x);
  });

  // 3. mentions, values and dates become conditions
  const out: Item[] = [];
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
    if (bound.has(x) || absorbed.has(x)) continue;
    if (x.t === 'value') {
      // "lead score above 50": a plain number right after an unknown word belongs to that word
      const prev = items[k - 1];
      if (!x.money && prev?.t === 'unknown' && prev.e === x.s) {
        unknown.push({ s: x.s, e: x.e });
        continue;
      }
      out.push({ t: 'cond', s: x.s, e: x.e, node: valueCondition(x, 'lifetimeValue'), slot: 'lifetimeValue', field: 'lifetimeValue' });
    } else if (x.t === 'date') {
      out.push({ t: 'cond', s: x.s, e: x.e, node: dateCondition(x, 'lastPurchaseDate'), slot: 'lastPurchaseDate', field: 'lastPurchaseDate' });
    } else if (x.t === 'mention') {
      const negated = x.neg !== undefined;
      const wrap = (n: SegmentNode, slot: string): Item => ({ t: 'cond', s: x.s, e: x.e, node: negated ? { not: n } : n, slot, field: slot });
      if (x.bound?.length) {
        const nodes = x.bound.map((b) =>
          b.t === 'value' ? valueCondition(b, x.m.money as NumberField) : dateCondition(b as DateItem, x.m.date as DateField),
        );
        const slot = nodes.length === 1 && isCondition(nodes[0]) ? nodes[0].field : 'mixed';
        out.push(wrap(and(nodes), slot));
      } else if (x.m.purchase && !x.m.presence) {
        out.push({ t: 'cond', s: x.s, e: x.e, node: { field: 'hasPurchased', op: 'eq', value: !negated }, slot: 'hasPurchased', field: 'hasPurchased' });
      } else if (x.m.fresh) {
        out.push(wrap({ field: 'createdAt', op: 'gte', value: { kind: 'relative', amount: 30, unit: 'day', direction: 'past' } }, 'createdAt'));
      } else if (x.m.active) {
        out.push(wrap({ field: 'lastPurchaseDate', op: 'gte', value: { kind: 'relative', amount: 90, unit: 'day', direction: 'past' } }, 'lastPurchaseDate'));
      } else if (negated || x.withHave) {
        // "with emails ending in @stark.com": the value follows, the presence adds nothing
        const next = items[k + 1];
        if (!negated && next?.t === 'cond' && (relatedFields[x.m.presence ?? ''] ?? []).includes(next.field)) continue;
        const node = presenceCondition(x.m, negated);
        if (node) out.push({ t: 'cond', s: x.s, e: x.e, node, slot: `has:${x.m.presence}`, field: x.m.presence as string });
        else unknown.push({ s: x.s, e: x.e });
      } else if (x.m.purchase) {
        out.push({ t: 'cond', s: x.s, e: x.e, node: { field: 'hasPurchased', op: 'eq', value: true }, slot: 'hasPurchased', field: 'hasPurchased' });
      } else if (x.m.money) {
        unknown.push({ s: x.s, e: x.e }); // "lifetime value" with no value: not understood
      }
      // other bare field words ("country", "stage") carry no condition
    } else out.push(x);
  }
  items = out;

  // 4. "customers"/"clients": the lifecycle stage only when negated or listed with another stage
  const isStage = (x: Item | undefined) => x?.t === 'lifecycle' && !x.generic;
  for (let pass = 0; pass < 2; pass++) {
    items.forEach((x, k) => {
      if (x.t !== 'lifecycle' || !x.generic) return;
      const prev = items[k - 1];
      if (prev?.t === 'neg' || (isJoiner(prev) && isStage(items[k - 2])) || (isJoiner(items[k + 1]) && isStage(items[k + 2]))) x.generic = false;
    });
  }
  items = items.flatMap((x): Item[] => {
    if (x.t !== 'lifecycle') return [x];
    if (x.generic) return [];
    return [{ t: 'cond', s: x.s, e: x.e, node: { field: 'lifecycleStage', op: 'eq', value: x.stage }, slot: 'lifecycle', field: 'lifecycleStage' }];
  });

  // 5. lists of alternatives ("Germany, France or Spain", "leads and subscribers") and negations
  const res: Item[] = [];
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
    const negated = x.t === 'neg' && isCond(items[k + 1]);
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
      if (!UNION_SLOTS.has(first.slot) && joiner.t !== 'or') break;
      // "Paris, France" / "Austin, TX": a comma after a smaller place qualifies it
      if (first.slot === 'location' && joiner.t === 'comma' && PLACE_RANK[prevC.field] < PLACE_RANK[nextC.field]) break;
      if (joiner.t === 'or') anyOr = true;
      members.push(nextC);
      j += 2;
    }
    let node: SegmentNode;
    if (members.length === 1) node = first.node;
    else if (anyOr || UNION_SLOTS.has(first.slot)) node = union(members.map((m) => m.node));
    else node = and(members.map((m) => m.node));
    if (negated) node = { not: node };
    const last = members[members.length - 1];
    res.push({ t: 'cond', s: negated ? x.s : first.s, e: last.e, node, slot: first.slot, field: first.field, guess: members.map((m) => m.guess).find(Boolean) });
    k = j;
  }
  items = res;

  // 6. clause-level alternatives: "leads in Canada or subscribers in the US"
  const isSeparator = (x: Item | undefined) => x?.t === 'boundary' || x?.t === 'or' || x?.t === 'and' || x?.t === 'comma';
  for (let k = 0; k < items.length; k++) {
    const x = items[k];
    if (x.t !== 'or' && x.t !== 'and' && x.t !== 'comma') continue;
    let lo = k;
    while (lo > 0 && !isSeparator(items[lo - 1])) lo--;
    let rightStart = k + 1;
    while (items[rightStart]?.t === 'boundary') rightStart++;
    let hi = rightStart;
    while (hi < items.length && !isSeparator(items[hi])) hi++;
    const left = items.slice(lo, k).filter(isCond);
    const right = items.slice(rightStart, hi).filter(isCond);
    if (left.length === 0 || right.length === 0) continue;
    let isUnion = x.t === 'or';
    if (!isUnion) {
      // "subscribers in France and leads in Belgium": both sides name a stage and a place -> either group
      const slotsL = new Set(left.map((c) => c.slot));
      const slotsR = new Set(right.map((c) => c.slot));
      isUnion = ['lifecycle', 'location'].every((sl) => slotsL.has(sl) && slotsR.has(sl));
    }
    if (!isUnion) continue;
    const node = or([and(left.map((c) => c.node)), and(right.map((c) => c.node))]);
    const merged: Item = { t: 'cond', s: left[0].s, e: right[right.length - 1].e, node, slot: 'clause', field: 'clause' };
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
    switch (x.t) {
      case 'cond':
        nodes.push(x.node);
        if (x.guess) guesses.push(x.guess);
        break;
      case 'sort':
        sortField = sortField ?? x.field;
        sortDirection = sortDirection ?? x.direction;
        if (x.limit !== undefined) limit = x.limit;
        superlative = superlative || x.superlative || x.limit !== undefined;
        break;
      case 'by':
        byField = x.field;
        byDirection = x.direction;
        break;
      case 'limit':
        limit = x.n;
        break;
      case 'unknown':
        unknown.push({ s: x.s, e: x.e });
        break;
      case 'neg':
        unknown.push({ s: x.s, e: x.e });
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
  const segment: Segment = { version: SEGMENT_VERSION };
  if (nodes.length > 0) segment.where = and(nodes);
  if (sort) segment.sort = sort;
  if (limit !== undefined) segment.limit = limit;
  return { segment, unknown, guesses };
}
