/**
 * The CRM connector contract: the one way the product talks to a CRM.
 *
 * The neutral form between a question and any CRM is the **segment** (segmentation/ast.ts). A connector
 * compiles a segment into its own query language (`compile` → a `SegmentPlan`: HubSpot searches, SOQL,
 * a Pipedrive filter, COQL, SQL over imported contacts), says what it cannot express (the plan's
 * `residual`, which the product evaluates itself on the records the native part returns), and reads
 * records through the connection's field map into the neutral `CrmRecord`. Counting, reading, paging,
 * describing fields and the vocabulary the question parser resolves values against are the rest.
 *
 *   api/crm/<crm>/          connector, OAuth, field-map defaults, limits; registered in <crm>/provider.ts
 *   api/crm/<crm>-sandbox/  the CRM's API emulated over the shared synthetic people
 *   api/crm/index.ts        imports every provider (one line per CRM)
 *
 * Rate limits, retries, deadlines and fault handling are one module (call-policy.ts) configured per CRM.
 */
import type { Segment } from '../segmentation/ast.js';
import type { CrmFieldDescription, FieldMap } from './field-map.js';
import type { SegmentPlan } from './plan.js';
import type { CrmRecord } from './record.js';
import type { CrmType } from './crm-types.js';

export { CrmError, isCrmError, type CrmErrorCode } from './errors.js';
export { CRM_TYPES, CRM_LABELS, type CrmType } from './crm-types.js';
export type { CrmRecord, Customer } from './record.js';
export type { SegmentPlan } from './plan.js';
export type { FieldMap, CrmFieldDescription } from './field-map.js';
export type { HubSpotSearchRequest, HubSpotFilter, HubSpotFilterGroup, HubSpotSort, FilterOperator } from './hubspot/model/index.js';

/** When a segment is compiled: relative dates resolve against `now` in `timeZone`. */
export interface CompileContext {
  now: Date;
  timeZone: string;
}

/** Where a page of a native query starts: opaque to the product, JSON (it travels in export cursors). */
export type NativeCursor = unknown;

/** A connector was handed a page cursor that is not one of its own for this plan (a client's mistake). */
export class InvalidCursorError extends Error {
  override name = 'InvalidCursorError';
}

export interface RecordPage {
  /** each record with the cursor that resumes right after it */
  records: { record: CrmRecord; cursor: NativeCursor }[];
  /** where the next page starts; null after the last page */
  next: NativeCursor | null;
}

export interface ReadOptions {
  /** at most this many records are wanted (in the plan's order); the total stays exact */
  limit?: number;
  /** receives the exact number of matching records as soon as the connector knows it */
  onTotal?: (total: number) => void;
  signal?: AbortSignal;
}

/** The values a CRM holds for a field, most frequent first (for the question parser). */
export type VocabularyField = 'company' | 'city' | 'state' | 'country' | 'emailDomain';

export interface CrmCredentialsInfo {
  /** the CRM account (HubSpot: hub id; Salesforce: org id; Pipedrive: company id; Zoho: org id) */
  accountId: string;
  scopes: string[];
  tokenType: 'oauth' | 'pat';
  /** seconds until the access token expires (OAuth only) */
  expiresInSeconds?: number;
  /** a display name of the account (org / company name), when the CRM says */
  accountName?: string;
}

export interface CrmConnector {
  readonly crmType: CrmType;
  /**
   * Compiles a segment into this CRM's plan (throws a SegmentationError with a readable message when the
   * CRM cannot run it at all). Pure: no request is sent.
   */
  compile(segment: Segment, ctx: CompileContext): SegmentPlan;
  /** Exact number of records the plan's native part matches (capped by its limit). */
  count(plan: SegmentPlan): Promise<number>;
  /** How many CRM requests `count` costs for this plan (default 1); an export shows the last count when it is more. */
  countCost?(plan: SegmentPlan): number;
  /** Every record of the plan's native part, each once, in the plan's order (up to `limit`). */
  read(plan: SegmentPlan, options?: ReadOptions): AsyncIterable<CrmRecord>;
  /**
   * One page of at most `first` records of the native part, starting at `cursor` (null: the start).
   * Stateless: the cursor is all there is.
   */
  readPage(plan: SegmentPlan, options: { first: number; cursor: NativeCursor | null }): Promise<RecordPage>;
  /** The CRM's fields, for the field-map editor (labels, kinds, picklist values, descriptions). */
  describeFields(): Promise<CrmFieldDescription[]>;
  /** The field map this connector reads and compiles with (defaults + the connection's overrides). */
  readonly fieldMap: FieldMap;
  /**
   * The values the account holds for a field, most frequent first, from at most `maxRecords` records
   * (a sample on a large account). Optional: the parser resolves cities, companies, ... against them.
   */
  listValues?(field: VocabularyField, options?: { maxRecords?: number }): Promise<string[]>;
  /** Checks the credentials and tells which account and scopes they grant. */
  verifyCredentials(): Promise<CrmCredentialsInfo>;
}

/** Supplies a currently valid access token; `forceRefresh` asks to refresh it even if not yet expired. */
export type AccessTokenProvider = (options?: { forceRefresh?: boolean }) => Promise<string> | string;

export interface CrmConnectorOptions {
  getAccessToken: AccessTokenProvider;
  /** API base URL (HubSpot: https://api.hubapi.com; Salesforce: the org's instance URL; or a sandbox) */
  baseUrl?: string;
  /** account id if already known (saves a lookup before the first rate-limited call) */
  accountId?: string;
  /** the connection's field-map overrides (see field-map.ts) */
  fieldMap?: FieldMap;
  /** the account's request budget shared by every process (see hubspot/rate-limiter.ts) */
  searchLimiter?: (key: string, limit: number) => import('./hubspot/rate-limiter.js').SearchLimiter;
  /** one attempt's time limit, body included (ms) */
  requestTimeoutMs?: number;
  /** no retry starts whose wait would end later than this after a call's first attempt (ms) */
  retryDeadlineMs?: number;
  /** first backoff step (ms), doubled per attempt */
  baseBackoffMs?: number;
}

export interface CrmConnectorFactory<O extends CrmConnectorOptions = CrmConnectorOptions> {
  readonly crmType: CrmType;
  readonly displayName: string;
  create(options: O): CrmConnector;
}

/** Drains an async iterable into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// HubSpot's search-level types, kept here for the HubSpot connector's own API (and its tests).

/** A contact record as HubSpot returns it: id + raw property values (strings or null). */
export interface CrmContact {
  id: string;
  properties: Record<string, string | null>;
  createdAt?: string;
  updatedAt?: string;
}

export interface SearchContactsOptions {
  /** page size per request (HubSpot: 1–200, default 200) */
  pageSize?: number;
  /** properties to fetch (default: the ones the product maps, see mapping.ts) */
  properties?: string[];
  /** stops paging when aborted */
  signal?: AbortSignal;
  /**
   * At most this many contacts are wanted (in the request's order). When it fits the CRM's result
   * window, plain paging is used even for larger result sets, so "top N by X" never reads everything.
   */
  limit?: number;
  /** receives the exact number of matching contacts as soon as the first page is in */
  onTotal?: (total: number) => void;
  /**
   * Starts this many contacts into the request's order (stateless paging by position). Needs `limit`,
   * and `offset + limit` must stay within the CRM's result window (HubSpot: 10,000).
   */
  offset?: number;
}

export interface CrmPropertyDescription {
  name: string;
  label: string;
  type: string;
  fieldType: string;
  description?: string;
  options?: { label: string; value: string }[];
}

/** Drains an async iterable of contacts into an array. */
export const collectContacts: (iterable: AsyncIterable<CrmContact>) => Promise<CrmContact[]> = collect;
