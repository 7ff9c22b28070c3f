/**
 * One Pipedrive company as the connector needs to know it before a plan runs: its person, organization
 * and deal fields (`GET /v1/personFields`, …: the ids filter lines must name, types, options), its time
 * zone (`GET /v1/users/me`: filter dates are calendar days there) and the token's user. Field-map
 * references (field-map.ts) and symbolic filter lines (compile.ts) are resolved against it here, and
 * person values are read through it into the neutral record.
 */
import { localDateString, zonedTimeToEpoch } from '../../segmentation/resolve.js';
import { CrmError } from '../errors.js';
import { LIFECYCLE_VALUES, type LifecycleValue } from '../hubspot/model/index.js';
import type { PdLine } from './compile.js';
import { isDerivedPurchaseRef } from './field-map.js';
import { ADDRESS_COMPONENTS, OPERATORS, type ConditionObject, type FilterCondition } from './model/index.js';

export interface PdFieldDef {
  id: number;
  key: string;
  name: string;
  field_type: string;
  options?: { id: number | string; label: string }[] | null;
  filtering_allowed?: boolean;
}

export interface CompanySchema {
  companyId: number;
  companyName: string;
  userId: number;
  timeZone: string;
  person: PdFieldDef[];
  organization: PdFieldDef[];
  deal: PdFieldDef[];
}

/** A reference resolved: the field, on which record, and the address component when there is one. */
export interface ResolvedRef {
  object: Extract<ConditionObject, 'person' | 'organization'>;
  field: PdFieldDef;
  component?: string;
}

const TEXT_TYPES = new Set(['varchar', 'varchar_auto', 'text', 'phone', 'varchar_options']);
const NUMBER_TYPES = new Set(['int', 'double', 'monetary']);

export function fieldKind(type: string): 'text' | 'number' | 'date' | 'stage' | 'other' {
  if (TEXT_TYPES.has(type)) return 'text';
  if (NUMBER_TYPES.has(type)) return 'number';
  if (type === 'date') return 'date';
  if (type === 'enum' || type === 'set') return 'stage';
  return 'other';
}

/** Resolves a field-map reference (not a derived one) against the company's fields, or explains why not. */
export function resolveRef(schema: CompanySchema, ref: string): ResolvedRef {
  const orgPrefix = ref.startsWith('org.');
  const object = orgPrefix ? 'organization' : 'person';
  const rest = orgPrefix ? ref.slice(4) : ref;
  const fields = orgPrefix ? schema.organization : schema.person;
  const direct = fields.find((f) => f.key === rest);
  if (direct) return { object, field: direct };
  const dot = rest.lastIndexOf('.');
  if (dot > 0) {
    const field = fields.find((f) => f.key === rest.slice(0, dot));
    const component = rest.slice(dot + 1);
    if (field?.field_type === 'address' && (ADDRESS_COMPONENTS as readonly string[]).includes(component)) return { object, field, component };
  }
  throw new CrmError('VALIDATION', `The field map names "${ref}", which is not a field of this Pipedrive company. Choose another field in the CRM Integration dialog.`, {
    category: 'FIELD_MAP',
  });
}

export type ResolvedLine = FilterCondition | 'never';

const DAY_MS = 86_400_000;

/**
 * A symbolic line as Pipedrive's condition: the field's id, the option id for a stage label (`never`
 * when no option has that label), a date line's day in the user's time zone (widened by a day).
 */
export function resolveLine(schema: CompanySchema, line: PdLine): ResolvedLine {
  const { object, field, component } = resolveRef(schema, line.ref);
  let value: string | null = line.value ?? null;
  if (line.option) {
    const option = field.options?.find((o) => o.label.trim().toLowerCase() === line.value);
    if (!option) return 'never';
    value = String(option.id);
  }
  // A day either side: whichever zone Pipedrive compares days in (the user's, the company's, UTC), the
  // line stays a superset of the instant's condition, which the connector then checks exactly.
  if (line.instant !== undefined) value = localDateString(line.instant + (line.op === OPERATORS.gte ? -DAY_MS : DAY_MS), schema.timeZone);
  if (line.op === OPERATORS.isNull || line.op === OPERATORS.isNotNull) value = null;
  return { object, field_id: String(field.id), operator: line.op, value, extra_value: component ?? null };
}

/** A filter definition's groups from symbolic lines: null when the AND group can never match. */
export function resolveGroups(schema: CompanySchema, filter: { and: PdLine[]; or: PdLine[] }): { and: FilterCondition[]; or: FilterCondition[] } | null {
  const and: FilterCondition[] = [];
  for (const l of filter.and) {
    const r = resolveLine(schema, l);
    if (r === 'never') return null;
    and.push(r);
  }
  const or = filter.or.map((l) => resolveLine(schema, l)).filter((r): r is FilterCondition => r !== 'never');
  if (filter.or.length > 0 && or.length === 0) return null;
  return { and, or };
}

// ---------------------------------------------------------------------------------------------------
// Reading values of v2 records

type V2Record = Record<string, unknown> & { custom_fields?: Record<string, unknown> };

function rawValue(record: V2Record | null | undefined, key: string): unknown {
  if (!record) return undefined;
  if (key === 'email' || key === 'phone') {
    const list = (record[key === 'email' ? 'emails' : 'phones'] ?? record[key]) as { value?: string; primary?: boolean }[] | undefined;
    if (!Array.isArray(list) || list.length === 0) return undefined;
    return (list.find((e) => e.primary) ?? list[0]).value;
  }
  if (key in record) return record[key];
  return record.custom_fields?.[key];
}

/** The value a reference names on a person (and its organization), unwrapped (monetary, option, address). */
export function readRef(resolved: ResolvedRef, person: V2Record, org: V2Record | null): unknown {
  let v = rawValue(resolved.object === 'organization' ? org : person, resolved.field.key);
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (resolved.component) v = o[resolved.component];
    else if ('value' in o) v = o.value; // monetary { value, currency }, address { value, ... }
    else if ('id' in o) v = o.id; // option with its label
  }
  return v;
}

export function asText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  return s === '' ? null : s;
}

export function asNumber(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** An instant from a v2 timestamp (RFC 3339) or a date field (`YYYY-MM-DD`: the start of that day in the company's time zone). */
export function asInstant(v: unknown, timeZone: string): number | null {
  const s = asText(v);
  if (s === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return zonedTimeToEpoch(+m[1], +m[2], +m[3], 0, 0, 0, 0, timeZone);
  const t = Date.parse(s.includes('T') || s.endsWith('Z') ? s : `${s.replace(' ', 'T')}Z`);
  return Number.isFinite(t) ? t : null;
}

/**
 * The detailed stage of a person's stage field: the labels of its option ids (a person may carry several
 * labels) mapped through the stage map; when several map, the most advanced stage wins ("other" last).
 */
export function stageOf(field: PdFieldDef, value: unknown, stages: Record<string, LifecycleValue>): LifecycleValue | null {
  const ids = Array.isArray(value) ? value : value === null || value === undefined || value === '' ? [] : [value];
  const labels = ids.map((id) => {
    const key = id && typeof id === 'object' && 'id' in (id as object) ? (id as { id: unknown }).id : id;
    return field.options?.find((o) => String(o.id) === String(key))?.label ?? (field.options ? undefined : String(key));
  });
  let best: LifecycleValue | null = null;
  for (const label of labels) {
    const s = label === undefined ? undefined : stages[label.trim().toLowerCase()];
    if (s !== undefined && (best === null || rank(s) > rank(best))) best = s;
  }
  return best;
}

function rank(s: LifecycleValue): number {
  return s === 'other' ? -1 : LIFECYCLE_VALUES.indexOf(s);
}

export { isDerivedPurchaseRef };
