/**
 * The plan's condition trees → SOQL text, when a query is about to be sent:
 *  - SOQL date literals where one says exactly the same thing in the org's calendar (the running
 *    user's time zone and week start, from userinfo): `CreatedDate >= THIS_MONTH`,
 *    `CreatedDate = LAST_MONTH`, `Opportunity.CloseDate >= LAST_N_DAYS:29`; explicit values otherwise;
 *  - two-step conditions with the id sets their first query found (`Id IN ('003…', …)`); a set too big
 *    to inline is left out (the query then reads a superset, which the connector filters exactly);
 *  - semi-joins and anti-joins on OpportunityContactRole for won-deal conditions.
 */
import { dateLiteralRange, dayStart, localDay, ymdString, type DateContext, type Ymd } from './model/date-literals.js';
import { soqlDateTime, soqlLike, soqlString, utcDay } from './model/soql-text.js';
import { and, or, type AmountCond, type IdStep, type Ir, type TimeBound } from './compile.js';
import type { SfObject } from './field-map.js';

/** Ids inlined per two-step condition at most: beyond, the query reads a superset (SOQL is ≤ 100,000 characters). */
export const MAX_INLINE_IDS = 3000;

export interface RenderEnv {
  /** the org's calendar now (null: no date literals) */
  dates: DateContext | null;
  /** a step's id set, or null when it is too big to inline */
  ids(step: number): readonly string[] | null;
  /** date or datetime, for custom fields the plan could not know */
  dateType(object: SfObject, path: string): 'date' | 'datetime';
}

export interface RenderedWhere {
  /** null: every record of the object; 'FALSE': none */
  soql: string | null | 'FALSE';
  /** the WHERE admits more than the segment (a two-step set was too big): filter the records exactly */
  superset: boolean;
}

const DAY = 86_400_000;

/** The day a date field must reach for its midnight UTC to be at or after `ms`. */
function ceilDay(ms: number): string {
  const d = utcDay(ms);
  return Date.parse(`${d}T00:00:00Z`) === ms ? d : utcDay(ms + DAY);
}

function parseDay(day: string): Ymd {
  const [y, m, d] = day.split('-').map(Number);
  return [y, m, d];
}

const FIXED = [
  'TODAY', 'THIS_WEEK', 'THIS_MONTH', 'THIS_QUARTER', 'THIS_YEAR', 'YESTERDAY', 'LAST_WEEK', 'LAST_MONTH', 'LAST_QUARTER',
  'LAST_YEAR', 'TOMORROW', 'NEXT_WEEK', 'NEXT_MONTH', 'NEXT_QUARTER', 'NEXT_YEAR',
];

function daysBetween(a: Ymd, b: Ymd): number {
  return Math.round((Date.UTC(b[0], b[1] - 1, b[2]) - Date.UTC(a[0], a[1] - 1, a[2])) / DAY);
}

/** Candidate literals for a range starting at `from` (and, for ranges, ending at `to`). */
function candidates(from: Ymd, dates: DateContext): Array<[string, number | null]> {
  const today = localDay(dates.nowMs, dates.timeZone);
  const out: Array<[string, number | null]> = FIXED.map((n) => [n, null]);
  const back = daysBetween(from, today);
  if (back >= 1) out.push(['LAST_N_DAYS', back], ['N_DAYS_AGO', back]);
  if (back >= 1 && back % 7 === 0) out.push(['LAST_N_WEEKS', back / 7 + 1], ['LAST_N_WEEKS', back / 7], ['N_WEEKS_AGO', back / 7]);
  const months = (today[0] - from[0]) * 12 + (today[1] - from[1]);
  if (from[2] === 1 && months >= 1) {
    out.push(['LAST_N_MONTHS', months], ['N_MONTHS_AGO', months]);
    if (months % 3 === 0) out.push(['LAST_N_QUARTERS', months / 3], ['N_QUARTERS_AGO', months / 3]);
    if (months % 12 === 0) out.push(['LAST_N_YEARS', months / 12], ['N_YEARS_AGO', months / 12]);
  }
  // weeks not aligned on today: try the neighbours of the week count
  if (back >= 1) for (const n of [Math.floor(back / 7), Math.ceil(back / 7)]) if (n >= 1) out.push(['LAST_N_WEEKS', n], ['N_WEEKS_AGO', n]);
  return out;
}

const literalText = (name: string, n: number | null) => (n === null ? name : `${name}:${n}`);

/** A literal whose range starts at `from` (and ends at `to` when given), in the org's calendar. */
function findLiteral(from: Ymd, to: Ymd | null, dates: DateContext): string | null {
  const f = ymdString(from);
  const t = to ? ymdString(to) : null;
  for (const [name, n] of candidates(from, dates)) {
    const r = dateLiteralRange(name, n, dates);
    if (!r || ymdString(r.from) !== f) continue;
    if (t !== null && ymdString(r.to) !== t) continue;
    return literalText(name, n);
  }
  return null;
}

/** The org-calendar day an instant starts, when it is exactly a local midnight there. */
function localMidnight(ms: number, dates: DateContext): Ymd | null {
  const day = localDay(ms, dates.timeZone);
  return dayStart(day, dates.timeZone) === ms ? day : null;
}

function timeValue(type: 'date' | 'datetime', ms: number): string {
  // Stored datetimes are whole seconds: x >= t ⇔ x >= ceil(t), x < t ⇔ x < ceil(t).
  return type === 'date' ? ceilDay(ms) : soqlDateTime(Math.ceil(ms / 1000) * 1000);
}

/** `path >= bound` / `path < bound`, with a date literal when one starts exactly at the bound. */
function renderBound(path: string, type: 'date' | 'datetime', bound: TimeBound, dates: DateContext | null): string {
  if (dates) {
    const from = type === 'date' ? parseDay(ceilDay(bound.ms)) : localMidnight(bound.ms, dates);
    const lit = from ? findLiteral(from, null, dates) : null;
    if (lit) return `${path} ${bound.op} ${lit}`;
  }
  return `${path} ${bound.op} ${timeValue(type, bound.ms)}`;
}

/** `path = LITERAL` for `from <= path < to` when a literal is exactly that range. */
function renderRange(path: string, type: 'date' | 'datetime', from: number, to: number, dates: DateContext | null): string | null {
  if (!dates) return null;
  const a = type === 'date' ? parseDay(ceilDay(from)) : localMidnight(from, dates);
  const b = type === 'date' ? parseDay(ceilDay(to)) : localMidnight(to, dates);
  if (!a || !b) return null;
  const lit = findLiteral(a, b, dates);
  return lit ? `${path} = ${lit}` : null;
}

function amountSoql(path: string, cond: AmountCond): string {
  if ('between' in cond) return `${path} >= ${num(cond.between[0])} AND ${path} <= ${num(cond.between[1])}`;
  return `${path} ${cond.op} ${num(cond.value)}`;
}

const num = (n: number) => String(n);

/** The won opportunities a won-deal condition or step reads (OpportunityContactRole's WHERE). */
export function wonFilter(w: { closeDate?: TimeBound; amount?: AmountCond; amountSet?: boolean }, dates: DateContext | null): string {
  const parts = ['Opportunity.IsWon = true'];
  if (w.closeDate) parts.push(renderBound('Opportunity.CloseDate', 'date', w.closeDate, dates));
  if (w.amount) parts.push(amountSoql('Opportunity.Amount', w.amount));
  if (w.amountSet) parts.push('Opportunity.Amount != null');
  return parts.join(' AND ');
}

/** The first query of a two-step condition, one page of contact ids after `after`. */
export function stepSoql(step: IdStep, dates: DateContext | null, after: string | null, pageSize: number): string {
  const where = step.kind === 'ltv' ? 'Opportunity.IsWon = true' : wonFilter(step, dates);
  const having = step.kind === 'ltv' ? ` HAVING ${amountSoql('SUM(Opportunity.Amount)', step.cond)}` : '';
  return `SELECT ContactId FROM OpportunityContactRole WHERE ${where}${after ? ` AND ContactId > ${soqlString(after)}` : ''} GROUP BY ContactId${having} ORDER BY ContactId LIMIT ${pageSize}`;
}

/** Replaces two-step sets by constants where they are too big (monotone in NNF: a superset). */
function inlineIds(ir: Ir, env: RenderEnv, flag: { superset: boolean }): Ir {
  switch (ir.t) {
    case 'and': return and(...ir.items.map((i) => inlineIds(i, env, flag)));
    case 'or': return or(...ir.items.map((i) => inlineIds(i, env, flag)));
    case 'not': {
      if (ir.item.t !== 'ids') return ir;
      const ids = env.ids(ir.item.step);
      if (ids === null) {
        flag.superset = true;
        return { t: 'true' };
      }
      return ids.length === 0 ? { t: 'true' } : ir;
    }
    case 'ids': {
      const ids = env.ids(ir.step);
      if (ids === null) {
        flag.superset = true;
        return { t: 'true' };
      }
      return ids.length === 0 ? { t: 'false' } : ir;
    }
    default: return ir;
  }
}

/** One object's WHERE (without the Lead's `IsConverted = false`). */
export function renderWhere(object: SfObject, tree: Ir, env: RenderEnv): RenderedWhere {
  const flag = { superset: false };
  const ir = inlineIds(tree, env, flag);
  if (ir.t === 'false') return { soql: 'FALSE', superset: flag.superset };
  if (ir.t === 'true') return { soql: null, superset: flag.superset };
  return { soql: render(object, ir, env, true), superset: flag.superset };
}

function render(object: SfObject, ir: Ir, env: RenderEnv, top: boolean): string {
  const wrap = (s: string) => (top ? s : `(${s})`);
  switch (ir.t) {
    case 'and': {
      // from <= x < to on one field, said as `x = LITERAL` when a literal is that range
      const items = [...ir.items];
      const parts: string[] = [];
      while (items.length) {
        const i = items.shift()!;
        if (i.t === 'time' && i.bound.op === '>=') {
          const j = items.findIndex((x) => x.t === 'time' && x.path === i.path && x.bound.op === '<');
          if (j >= 0) {
            const upper = items[j] as Ir & { t: 'time' };
            const type = i.type === 'unknown-date' ? env.dateType(object, i.path) : i.type;
            const range = renderRange(i.path, type, i.bound.ms, upper.bound.ms, env.dates);
            if (range) {
              items.splice(j, 1);
              parts.push(range);
              continue;
            }
          }
        }
        parts.push(render(object, i, env, false));
      }
      return parts.length === 1 ? parts[0] : wrap(parts.join(' AND '));
    }
    case 'or': return wrap(ir.items.map((i) => render(object, i, env, false)).join(' OR '));
    case 'not': {
      const x = ir.item;
      switch (x.t) {
        case 'in': return x.values.length === 1 ? `${x.path} != ${soqlString(x.values[0])}` : `${x.path} NOT IN (${x.values.map(soqlString).join(', ')})`;
        case 'null': return `${x.path} != null`;
        case 'won': return `Id NOT IN (SELECT ContactId FROM OpportunityContactRole WHERE ${wonFilter(x, env.dates)})`;
        case 'ids': return `Id NOT IN (${env.ids(x.step)!.map(soqlString).join(', ')})`;
        default: return `(NOT ${render(object, x, env, false)})`;
      }
    }
    case 'in': return ir.values.length === 1 ? `${ir.path} = ${soqlString(ir.values[0])}` : `${ir.path} IN (${ir.values.map(soqlString).join(', ')})`;
    case 'like': return `${ir.path} LIKE ${soqlLike(ir.pattern)}`;
    case 'null': return `${ir.path} = null`;
    case 'num': return `${ir.path} ${ir.op} ${num(ir.value)}`;
    case 'time': return renderBound(ir.path, ir.type === 'unknown-date' ? env.dateType(object, ir.path) : ir.type, ir.bound, env.dates);
    case 'won': return `Id IN (SELECT ContactId FROM OpportunityContactRole WHERE ${wonFilter(ir, env.dates)})`;
    case 'ids': return `Id IN (${env.ids(ir.step)!.map(soqlString).join(', ')})`;
    case 'true': case 'false': throw new Error('constants are folded before rendering');
  }
}

