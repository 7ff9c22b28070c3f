/**
 * The CRM connector contract. The product talks to CRMs only through this interface; HubSpot is the
 * one implementation today (`hubspot/connector.ts`), other CRMs register in `registry.ts`.
 *
 * Search requests are HubSpot-shaped (`filterGroups` ORed, filters ANDed, optional sort and query):
 * it is the product's neutral segment representation, compiled from the natural-language engine.
 */
import type { HubSpotSearchRequest } from './hubspot/model/index.js';
import type { SearchLimiter } from './hubspot/rate-limiter.js';

export { CrmError, isCrmError, type CrmErrorCode } from './errors.js';
export type { HubSpotSearchRequest, HubSpotFilter, HubSpotFilterGroup, HubSpotSort, FilterOperator } from './hubspot/model/index.js';

export const CRM_TYPES = ['hubspot', 'pipedrive', 'salesforce', 'zoho', 'other'] as const;
export type CrmType = (typeof CRM_TYPES)[number];

/** Labels as shown in the product (spec §9 "CRM options"). */
export const CRM_LABELS: Record<CrmType, string> = {
  hubspot: 'HubSpot',
  pipedrive: 'PipeDrive',
  salesforce: 'Salesforce',
  zoho: 'Zoho',
  other: 'Other',
};

/** A contact record as the CRM returns it: id + raw property values (strings or null). */
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
  options?: { label: string; value: string }[];
}

export interface CrmCredentialsInfo {
  /** the CRM account (HubSpot: hub id / portal id) */
  accountId: string;
  scopes: string[];
  tokenType: 'oauth' | 'pat';
  /** seconds until the access token expires (OAuth only) */
  expiresInSeconds?: number;
}

export interface CrmConnector {
  readonly crmType: CrmType;
  /**
   * Every contact matching the request, each exactly once, across all pages — including beyond the
   * CRM's own result window (HubSpot: 10,000).
   */
  searchContacts(request: HubSpotSearchRequest, options?: SearchContactsOptions): AsyncIterable<CrmContact>;
  /** Number of matching contacts (one cheap request). */
  countContacts(request: HubSpotSearchRequest): Promise<number>;
  /** Contacts by id, in the order asked; unknown ids are skipped. */
  getContactsByIds(ids: readonly string[], options?: { properties?: string[] }): Promise<CrmContact[]>;
  describeProperties(): Promise<CrmPropertyDescription[]>;
  /**
   * The company names on the CRM's contacts, most frequent first, read from at most `maxContacts`
   * contacts (a sample on a large account). Optional: the question parser uses them to recognise the
   * account's own company names (segmentation/parser/known-companies.ts) and guesses without them.
   */
  listCompanyNames?(options?: { maxContacts?: number }): Promise<string[]>;
  /** Checks the token and tells which account and scopes it grants. */
  verifyCredentials(): Promise<CrmCredentialsInfo>;
}

/** Supplies a currently valid access token; `forceRefresh` asks to refresh it even if not yet expired. */
export type AccessTokenProvider = (options?: { forceRefresh?: boolean }) => Promise<string> | string;

export interface CrmConnectorOptions {
  getAccessToken: AccessTokenProvider;
  /** API base URL (HubSpot: https://api.hubapi.com, or the sandbox) */
  baseUrl?: string;
  /** account id if already known (saves a lookup before the first rate-limited call) */
  accountId?: string;
  /** the account's request budget shared by every process (see rate-limiter.ts) */
  searchLimiter?: (key: string, limit: number) => SearchLimiter;
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
export async function collectContacts(iterable: AsyncIterable<CrmContact>): Promise<CrmContact[]> {
  const out: CrmContact[] = [];
  for await (const c of iterable) out.push(c);
  return out;
}
