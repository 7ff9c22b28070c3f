// The editable form of an understood segment on the client: chips (field, operator, value) grouped
// in clauses, converted to the server's SegmentInput, and described in words for edited chips.
import { formatMoney } from '../lib/format';

export interface ChipDate {
  kind: 'absolute' | 'relative' | 'anchor' | 'now';
  date?: string | null;
  amount?: number | null;
  unit?: 'day' | 'week' | 'month' | 'quarter' | 'year' | null;
  direction?: 'past' | 'future' | null;
  offset?: number | null;
}

export interface ChipValue {
  text?: string | null;
  number?: number | null;
  boolean?: boolean | null;
  date?: ChipDate | null;
}

export interface Chip {
  field: string;
  operator: string;
  negated: boolean;
  value?: ChipValue | null;
  values?: readonly string[] | null;
  from?: ChipValue | null;
  to?: ChipValue | null;
  /** The server's words for an unedited chip. */
  label?: string;
  countries?: readonly string[] | null;
}

export interface FieldInfo {
  readonly field: string;
  readonly label: string;
  readonly kind: string;
  readonly operators: readonly string[];
  readonly options?: readonly string[] | null;
  readonly example: string;
}

const OP_WORDS: Record<string, string> = {
  eq: 'is',
  neq: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  in: 'is any of',
  not_in: 'is none of',
  is_set: 'is set',
  is_not_set: 'is not set',
  lt: 'is less than',
  lte: 'is at most',
  gt: 'is more than',
  gte: 'is at least',
  between: 'is between',
};
const DATE_OP_WORDS: Record<string, string> = { lt: 'before', lte: 'on or before', gt: 'after', gte: 'on or after', between: 'between' };

export function operatorLabel(op: string, kind: string): string {
  if (kind === 'date' && DATE_OP_WORDS[op]) return DATE_OP_WORDS[op];
  if (kind === 'boolean') return 'is';
  return OP_WORDS[op] ?? op;
}

export function dateText(d: ChipDate | null | undefined): string {
  if (!d) return '…';
  switch (d.kind) {
    case 'absolute':
      return d.date ?? '…';
    case 'relative':
      return `${d.amount ?? 0} ${d.unit ?? 'day'}${d.amount === 1 ? '' : 's'} ${d.direction === 'future' ? 'from now' : 'ago'}`;
    case 'anchor':
      return d.offset === 0 ? `the start of this ${d.unit}` : d.offset === -1 ? `the start of last ${d.unit}` : `the start of the ${d.unit} ${d.offset} ${d.unit}s away`;
    default:
      return 'now';
  }
}

export function valueText(v: ChipValue | null | undefined, kind: string): string {
  if (!v) return '…';
  if (kind === 'money' && typeof v.number === 'number') return formatMoney(v.number);
  if (typeof v.number === 'number') return String(v.number);
  if (typeof v.boolean === 'boolean') return v.boolean ? 'yes' : 'no';
  if (v.date) return dateText(v.date);
  return v.text ? `"${v.text}"` : '…';
}

/** Words for a chip: the server's label when unedited, else "Field operator value". */
export function chipLabel(chip: Chip, info: FieldInfo | undefined): string {
  if (chip.label) return chip.label;
  const kind = info?.kind ?? 'text';
  const field = info?.label ?? chip.field;
  const op = operatorLabel(chip.operator, kind);
  let value = '';
  if (chip.operator === 'in' || chip.operator === 'not_in') value = (chip.values ?? []).join(', ') || '…';
  else if (chip.operator === 'between') value = `${valueText(chip.from, kind)} and ${valueText(chip.to, kind)}`;
  else if (chip.operator !== 'is_set' && chip.operator !== 'is_not_set') value = valueText(chip.value, kind);
  if (kind === 'boolean') return `${field}: ${chip.value?.boolean === false ? 'no' : 'yes'}`;
  return `${chip.negated ? 'not: ' : ''}${field} ${op}${value ? ` ${value}` : ''}`;
}

const clean = <T extends object>(o: T | null | undefined): T | null => {
  if (!o) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === null || v === undefined) continue;
    out[k] = v && typeof v === 'object' && !Array.isArray(v) ? clean(v as object) : v;
  }
  return out as T;
};

/** The SegmentInput the server's rerunQuery takes. */
export function toSegmentInput(clauses: readonly (readonly Chip[])[], sort: { field: string; direction: string } | null, limit: number | null) {
  return {
    clauses: clauses
      .filter((c) => c.length > 0)
      .map((c) => ({
        anyOf: c.map((chip) => ({
          field: chip.field,
          operator: chip.operator,
          negated: chip.negated,
          ...(chip.value ? { value: clean(chip.value) } : {}),
          ...(chip.values ? { values: [...chip.values] } : {}),
          ...(chip.from ? { from: clean(chip.from) } : {}),
          ...(chip.to ? { to: clean(chip.to) } : {}),
        })),
      })),
    ...(sort ? { sort } : {}),
    ...(limit !== null ? { limit } : {}),
  };
}

/** A new chip for a field, with its first operator and an empty value. */
export function newChip(info: FieldInfo): Chip {
  const operator = info.operators.includes('eq') ? 'eq' : info.operators.includes('gte') ? 'gte' : info.operators[0];
  const chip: Chip = { field: info.field, operator, negated: false };
  if (info.kind === 'boolean') chip.value = { boolean: true };
  else if (info.kind === 'date') chip.value = { date: { kind: 'relative', amount: 30, unit: 'day', direction: 'past' } };
  else if (info.kind === 'money') chip.value = { number: 1000 };
  else if (info.options?.length) chip.value = { text: info.options[0] };
  else chip.value = { text: '' };
  return chip;
}

/** A copy of a chip for another operator, keeping what still fits. */
export function withOperator(chip: Chip, operator: string, info: FieldInfo | undefined): Chip {
  const next: Chip = { field: chip.field, operator, negated: chip.negated };
  const base = chip.value ?? chip.from ?? (chip.values?.length ? { text: chip.values[0] } : null) ?? (info ? newChip(info).value : null);
  if (operator === 'in' || operator === 'not_in') next.values = chip.values ?? (base?.text ? [base.text] : []);
  else if (operator === 'between') {
    next.from = chip.from ?? base;
    next.to = chip.to ?? base;
  } else if (operator !== 'is_set' && operator !== 'is_not_set') next.value = base;
  return next;
}
