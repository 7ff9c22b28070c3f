import type { PropertyKind } from '../crm/hubspot/model/index.js';

/**
 * How HubSpot's search treats contacts that do not have a property.
 *
 * THIS IS THE ONE PLACE where that assumption lives. The compiler reads it to decide whether a negated
 * condition needs an extra `NOT_HAS_PROPERTY` alternative, and the reference evaluator used by the tests
 * reads it to emulate HubSpot. Change the constant (or pass `semantics` to `compileToHubSpot`) if the
 * sandbox / HubSpot behaves differently; the in-memory evaluator (`evaluate.ts`) does not depend on it,
 * because the compiler always produces a request whose result equals the segment's logical meaning.
 *
 * - A contact missing a property never matches EQ, LT, LTE, GT, GTE, BETWEEN, IN, CONTAINS_TOKEN or
 *   HAS_PROPERTY on it, and always matches NOT_HAS_PROPERTY.
 * - `negativeOperatorsMatchMissing`: whether such a contact matches NEQ, NOT_IN and NOT_CONTAINS_TOKEN.
 *   Assumed `true` (confirmed by the sandbox engineer).
 * - A property whose value is `null`, `undefined` or the empty string counts as missing (the model's
 *   isMissingValue).
 */
export interface HubSpotSemantics {
  negativeOperatorsMatchMissing: boolean;
  /**
   * How the custom properties a connection's field map names compare (e.g. a number property holding
   * lifetime value); HubSpot's own properties are known to the model (PROPERTY_KINDS).
   */
  propertyKinds?: Readonly<Record<string, PropertyKind>>;
}

export const HUBSPOT_SEMANTICS: Readonly<HubSpotSemantics> = Object.freeze({
  negativeOperatorsMatchMissing: true,
});
