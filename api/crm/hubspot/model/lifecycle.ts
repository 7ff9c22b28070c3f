/**
 * HubSpot's `lifecyclestage` and the product's five lifecycle stages.
 *
 * One reading everywhere, the tolerant one: a stored value names a HubSpot option when it does once
 * trimmed and lower-cased (" Customer " is `customer`, "MARKETINGQUALIFIEDLEAD" is
 * `marketingqualifiedlead`). Anything else (empty, `other`, custom stage ids) is the stage "unknown".
 * HubSpot keeps an enumeration as its option's value, so the sandbox stores a value that names an
 * option as that option; this is what lets the compiled searches (which filter on exact option values,
 * enumerations being case-sensitive) agree with the connector's mapping and the in-memory evaluator.
 */
import { FIELD_PROPERTIES } from './properties.js';

/** The product's lifecycle stages (`Customer.lifecycleStage`, segment conditions). */
export const LIFECYCLE_STAGES = ['subscriber', 'lead', 'opportunity', 'customer', 'unknown'] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];

/** HubSpot's default `lifecyclestage` options, in HubSpot's display order. */
export const LIFECYCLE_OPTIONS = [
  { value: 'subscriber', label: 'Subscriber' },
  { value: 'lead', label: 'Lead' },
  { value: 'marketingqualifiedlead', label: 'Marketing Qualified Lead' },
  { value: 'salesqualifiedlead', label: 'Sales Qualified Lead' },
  { value: 'opportunity', label: 'Opportunity' },
  { value: 'customer', label: 'Customer' },
  { value: 'evangelist', label: 'Evangelist' },
  { value: 'other', label: 'Other' },
] as const;
export type LifecycleValue = (typeof LIFECYCLE_OPTIONS)[number]['value'];
export const LIFECYCLE_VALUES: readonly LifecycleValue[] = LIFECYCLE_OPTIONS.map((o) => o.value);

/** Product stage → the HubSpot values that mean it. */
export const LIFECYCLE_HUBSPOT_VALUES: Readonly<Record<Exclude<LifecycleStage, 'unknown'>, readonly LifecycleValue[]>> = {
  subscriber: ['subscriber'],
  lead: ['lead', 'marketingqualifiedlead', 'salesqualifiedlead'],
  opportunity: ['opportunity'],
  customer: ['customer', 'evangelist'],
};

const OPTION_OF = new Map<string, LifecycleValue>(LIFECYCLE_VALUES.map((v) => [v, v]));
const STAGE_OF = new Map<string, LifecycleStage>(
  Object.entries(LIFECYCLE_HUBSPOT_VALUES).flatMap(([stage, values]) => values.map((v) => [v, stage as LifecycleStage] as const)),
);

/** The option a stored value names (trimmed, lower-cased), if any. */
export function lifecycleOption(value: string | null | undefined): LifecycleValue | undefined {
  return value ? OPTION_OF.get(value.trim().toLowerCase()) : undefined;
}

/**
 * The value HubSpot keeps when a property is set to `input`: a lifecycle stage that names an option is
 * kept as that option; anything else as given.
 */
export function storedValue(propertyName: string, input: string): string {
  return propertyName === FIELD_PROPERTIES.lifecycleStage ? (lifecycleOption(input) ?? input) : input;
}

/** HubSpot `lifecyclestage` value → product stage. */
export function productLifecycleStage(value: string | null | undefined): LifecycleStage {
  const option = lifecycleOption(value);
  return (option && STAGE_OF.get(option)) ?? 'unknown';
}
