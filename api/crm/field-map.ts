/**
 * Which CRM field holds each customer field, and which of the CRM's lifecycle values mean which stage.
 *
 * Every CRM has defaults (`<crm>/field-map.ts`); a connection may override them (stored with the
 * connection, edited in the CRM Integration dialog, suggested from the CRM's own field descriptions).
 * The connector compiles segments and reads records through the effective map, so "lifetime value" can
 * be the org's own rollup field, and a custom stage such as "VIP" can count as customer.
 */
import { z } from 'zod';
import { LIFECYCLE_VALUES, productLifecycleStage, type LifecycleStage, type LifecycleValue } from './hubspot/model/index.js';

/** The customer fields a CRM field can be chosen for (the id and derived fields are the connector's). */
export const MAPPABLE_FIELDS = [
  'firstName', 'lastName', 'email', 'company', 'lifecycleStage',
  'lastPurchaseDate', 'lastPurchaseAmount', 'lifetimeValue', 'city', 'state', 'country', 'createdAt',
] as const;
export type MappableField = (typeof MAPPABLE_FIELDS)[number];

/** What kind of CRM field each customer field needs (the dialog offers only fields of that kind). */
export const MAPPABLE_FIELD_KINDS: Record<MappableField, 'text' | 'number' | 'date' | 'stage'> = {
  firstName: 'text', lastName: 'text', email: 'text', company: 'text', lifecycleStage: 'stage',
  lastPurchaseDate: 'date', lastPurchaseAmount: 'number', lifetimeValue: 'number',
  city: 'text', state: 'text', country: 'text', createdAt: 'date',
};

export const FIELD_LABELS: Record<MappableField, string> = {
  firstName: 'First name', lastName: 'Last name', email: 'Email', company: 'Company', lifecycleStage: 'Lifecycle stage',
  lastPurchaseDate: 'Last purchase date', lastPurchaseAmount: 'Last purchase amount', lifetimeValue: 'Lifetime value',
  city: 'City', state: 'State / region', country: 'Country', createdAt: 'Created',
};

export interface FieldMap {
  /**
   * Customer field → the CRM field that holds it. A connector may use a name of its own for a value it
   * derives (e.g. Salesforce's "won opportunities" for purchases); such names are listed by its
   * `describeFields` like any other field.
   */
  fields: Record<MappableField, string>;
  /** The CRM's lifecycle value (compared trimmed and lower-cased) → the product's detailed stage. */
  stages: Record<string, LifecycleValue>;
}

export const fieldMapOverridesSchema = z.strictObject({
  fields: z.partialRecord(z.enum(MAPPABLE_FIELDS), z.string().trim().min(1).max(200)).optional(),
  stages: z.record(z.string().trim().min(1).max(200), z.enum(LIFECYCLE_VALUES as [LifecycleValue, ...LifecycleValue[]])).optional(),
});
export type FieldMapOverrides = z.infer<typeof fieldMapOverridesSchema>;

/** The defaults with a connection's overrides applied (a stage map override replaces the whole map). */
export function effectiveFieldMap(defaults: FieldMap, overrides?: FieldMapOverrides | null): FieldMap {
  if (!overrides) return defaults;
  const stages = overrides.stages && Object.keys(overrides.stages).length > 0 ? normalizeStageKeys(overrides.stages) : defaults.stages;
  return { fields: { ...defaults.fields, ...overrides.fields }, stages };
}

function normalizeStageKeys(stages: Record<string, LifecycleValue>): Record<string, LifecycleValue> {
  return Object.fromEntries(Object.entries(stages).map(([k, v]) => [k.trim().toLowerCase(), v]));
}

/** The detailed stage a CRM value means under `map`, or null (then the product stage is "unknown"). */
export function detailedStage(map: FieldMap, crmValue: string | null | undefined): LifecycleValue | null {
  if (crmValue === null || crmValue === undefined) return null;
  return map.stages[crmValue.trim().toLowerCase()] ?? null;
}

/** The product stage of a detailed stage (the HubSpot model's mapping; "other" and none are unknown). */
export function productStage(stage: LifecycleValue | null): LifecycleStage {
  return productLifecycleStage(stage);
}

/** The CRM values that mean any of the given detailed stages (for compiling stage conditions). */
export function crmValuesOf(map: FieldMap, stages: Iterable<LifecycleValue>): string[] {
  const wanted = new Set(stages);
  return Object.entries(map.stages).filter(([, s]) => wanted.has(s)).map(([v]) => v);
}

/** The CRM values that mean any of the given product stages ("unknown" never names a value). */
export function crmValuesOfProductStages(map: FieldMap, stages: Iterable<LifecycleStage>): string[] {
  const wanted = new Set(stages);
  return Object.entries(map.stages).filter(([, s]) => wanted.has(productLifecycleStage(s))).map(([v]) => v);
}

/** A CRM field as the connector describes it (for the field-map editor). */
export interface CrmFieldDescription {
  /** the name the field map uses */
  name: string;
  label: string;
  kind: 'text' | 'number' | 'date' | 'stage' | 'other';
  /** the CRM's own description or help text, when it has one */
  description?: string;
  /** for picklists / enumerations: the values and their labels */
  options?: { value: string; label: string }[];
  /** the connector derives this value (e.g. a sum of won deals) rather than reading a stored field */
  derived?: boolean;
}

const SUGGEST: Array<[MappableField, RegExp]> = [
  ['lifetimeValue', /\b(lifetime|total)\s*(value|revenue|spend|sales)\b|\bltv\b|\bclv\b/i],
  ['lastPurchaseDate', /\blast\s*(purchase|order|deal|sale)\s*(date|on|at)?\b|\b(recent|latest)\s*(deal|purchase|order)\s*(close\s*)?date\b/i],
  ['lastPurchaseAmount', /\blast\s*(purchase|order|deal|sale)\s*(amount|value|total)\b|\b(recent|latest)\s*(deal|purchase|order)\s*(amount|value)\b/i],
  ['lifecycleStage', /\blifecycle\s*stage\b/i],
];

/**
 * Overrides suggested from the CRM's own field descriptions: a custom field whose label or description
 * names a customer field (e.g. a number field labelled "Lifetime Value") is offered for it, when the
 * default is not already that field. Only fields of the right kind are suggested; derived fields never.
 */
export function suggestFieldMap(defaults: FieldMap, fields: readonly CrmFieldDescription[]): FieldMapOverrides {
  const out: Partial<Record<MappableField, string>> = {};
  for (const [field, re] of SUGGEST) {
    const kind = MAPPABLE_FIELD_KINDS[field];
    const hit = fields.find((f) => !f.derived && f.name !== defaults.fields[field] && f.kind === kind && (re.test(f.label) || re.test(f.description ?? '')));
    if (hit) out[field] = hit.name;
  }
  return Object.keys(out).length ? { fields: out } : {};
}
