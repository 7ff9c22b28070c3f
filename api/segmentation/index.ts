/**
 * The natural-language segmentation engine: question -> segment (AST) -> HubSpot searches, plus the
 * explanation, the assistant's message and in-memory evaluation. Pure TypeScript; no database and no
 * network except the optional language-model parser.
 */
export {
  segmentSchema,
  nodeSchema,
  conditionSchema,
  dateExprSchema,
  sortSchema,
  parseStoredSegment,
  emptySegment,
  SEGMENT_VERSION,
  LIFECYCLE_STAGES,
  STRING_FIELDS,
  NUMBER_FIELDS,
  DATE_FIELDS,
  SORT_FIELDS,
  DATE_UNITS,
} from './ast.js';
export type {
  Segment,
  SegmentNode,
  Condition,
  DateExpr,
  SegmentSort,
  LifecycleStage,
  StringField,
  NumberField,
  DateField,
  SortField,
  DateUnit,
} from './ast.js';
export { REGIONS, REGION_COUNTRIES, COUNTRY_GROUPS, type Region } from './regions.js';
export { parseSegment, type ParseOptions, type ParseResult, type ParseIssue, type ParseChoice } from './parser/index.js';
export { clarificationFor, findContradictions, type Clarification, type ClarificationChoice, type ClarificationIssue } from './clarify.js';
export { KnownCompanies } from './parser/known-companies.js';
export { CrmVocabulary, type VocabularyValues, type VocabularyField } from './parser/vocabulary.js';
export {
  createParser,
  createDeterministicParser,
  createLlmParser,
  LLM_FALLBACK_NOTE,
  type SegmentParser,
  type ParserConfig,
  type LlmProviderOptions,
} from './llm-provider.js';
export { compileToHubSpot, type CompileOptions } from './compile-hubspot.js';
export { explainSegment, explainCondition, buildAssistantMessage, buildNotUnderstoodMessage, resultNoun, formatMoney, type ExplainOptions, type AssistantMessageInput } from './explain.js';
export { evaluateSegment, compileEvaluator, selectContacts, type EvaluateOptions, type ContactPredicate } from './evaluate.js';
export {
  toClauses,
  fromClauses,
  FIELD_CATALOG,
  fieldInfo,
  regionCountries,
  type SegmentClauses,
  type ClauseCondition,
  type ChipInput,
  type ChipValue,
  type FieldInfo,
  type FieldKind,
  type Operator,
} from './clauses.js';
export { normalizeSegment, segmentsEquivalent } from './normalize.js';
export { resolveDateExpr, resolveContext, type ResolveOptions } from './resolve.js';
export { SegmentationError, isSegmentationError, type SegmentationErrorCode } from './errors.js';
export { HUBSPOT_SEMANTICS, type HubSpotSemantics } from './hubspot-semantics.js';
export { hubSpotSort, type CompiledHubSpotQuery, type CompiledSearch } from './hubspot-query.js';
// HubSpot's facts live in the HubSpot model; these are handed on for the engine's callers.
export {
  FIELD_PROPERTIES,
  SEGMENT_PROPERTIES,
  SEARCH_LIMITS,
  LIFECYCLE_HUBSPOT_VALUES,
  productLifecycleStage,
  type HubSpotSearchRequest,
  type HubSpotFilter,
  type HubSpotFilterGroup,
  type HubSpotSort,
  type HubSpotContact,
} from '../crm/hubspot/model/index.js';
