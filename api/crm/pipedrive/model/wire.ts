/**
 * Pipedrive's public API on the wire, as far as the product uses it: filter definitions (`/v1/filters`),
 * the v1 and v2 response envelopes and their paging, the OAuth token response and the rate-limit
 * headers. The connector sends and reads these, the sandbox answers them. Sources: the API reference
 * (developers.pipedrive.com/docs/api/v1, v2), "Adding a filter", "Rate limiting" and the OAuth guide
 * (pipedrive.readme.io); where a detail is not documented the sandbox's README says what it chose.
 */

/** Where a condition's field lives: the filtered record itself or a record linked to it. */
export const CONDITION_OBJECTS = ['person', 'organization', 'deal', 'product', 'activity'] as const;
export type ConditionObject = (typeof CONDITION_OBJECTS)[number];

/** The filter types of `POST /v1/filters` (`type`). */
export const FILTER_TYPES = ['deals', 'leads', 'org', 'people', 'products', 'activity', 'projects'] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

/** The documented operators; which apply depends on the field's type (`GET /v1/filters/helpers`). */
export const OPERATORS = {
  eq: '=',
  neq: '!=',
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
  isNull: 'IS NULL',
  isNotNull: 'IS NOT NULL',
  /** starts with */
  startsWith: "LIKE '$%'",
  /** contains */
  contains: "LIKE '%$%'",
  /** does not start with */
  notStartsWith: "NOT LIKE '$%'",
  /** does not contain */
  notContains: "NOT LIKE '%$%'",
} as const;
export type FilterOperator = (typeof OPERATORS)[keyof typeof OPERATORS];

/**
 * One condition line. `value` is a string on the wire (numbers too; dates `YYYY-MM-DD` or a relative
 * date keyword); `extra_value` names an address component for address fields, else null.
 */
export interface FilterCondition {
  object: ConditionObject;
  field_id: string;
  operator: FilterOperator;
  value: string | null;
  extra_value: string | null;
}

export interface FilterConditionGroup {
  glue: 'and' | 'or';
  conditions: FilterCondition[];
}

/**
 * A filter's conditions. The API accepts exactly this shape: a top-level AND of two groups, the first
 * glued with AND and the second with OR ("other combinations do not work (yet)").
 */
export interface FilterConditions {
  glue: 'and';
  conditions: [FilterConditionGroup & { glue: 'and' }, FilterConditionGroup & { glue: 'or' }];
}

export const FILTER_LIMITS = {
  /** "a maximum of 16 conditions is allowed per filter" */
  maxConditions: 16,
} as const;

/** Address components a condition on an address field may name in `extra_value`. */
export const ADDRESS_COMPONENTS = [
  'value', 'country', 'admin_area_level_1', 'admin_area_level_2', 'locality', 'sublocality', 'route', 'street_number', 'postal_code',
] as const;
export type AddressComponent = (typeof ADDRESS_COMPONENTS)[number];

/** Relative date keywords a date condition's `value` may hold instead of `YYYY-MM-DD`. */
export const RELATIVE_DATES = [
  'yesterday', 'today', 'tomorrow', 'last_week', 'this_week', 'next_week', 'last_month', 'this_month', 'next_month',
  'last_quarter', 'this_quarter', 'next_quarter', 'last_year', 'this_year', 'next_year',
] as const;
export type RelativeDate = (typeof RELATIVE_DATES)[number];

/** A filter as `GET /v1/filters/{id}` returns it (the list omits `conditions`). */
export interface PipedriveFilter {
  id: number;
  name: string;
  active_flag: boolean;
  type: FilterType;
  temporary_flag: boolean | null;
  user_id: number;
  add_time: string;
  update_time: string | null;
  visible_to: string;
  custom_view_id: number | null;
  last_used_time?: string | null;
  filter_code?: string | null;
  is_editable?: boolean;
  conditions?: FilterConditions;
}

/** v2 list paging: `limit` (default 100, at most 500) and an opaque `cursor`. */
export const V2_PAGING = { defaultLimit: 100, maxLimit: 500, maxIds: 100, maxCustomFields: 15 } as const;
/** v2 list sorting: only these fields, `asc` or `desc`. */
export const V2_SORT_FIELDS = ['id', 'update_time', 'add_time'] as const;
export type V2SortField = (typeof V2_SORT_FIELDS)[number];

export interface V1Pagination {
  start: number;
  limit: number;
  more_items_in_collection: boolean;
  next_start?: number;
}

export interface V1Response<T> {
  success: true;
  data: T;
  additional_data?: { pagination?: V1Pagination } | null;
}

export interface V2ListResponse<T> {
  success: true;
  data: T[];
  additional_data: { next_cursor: string | null };
}

/** Error bodies (v1 and v2 alike): `success: false`, a message, sometimes a code. */
export interface PipedriveErrorBody {
  success: false;
  error: string;
  errorCode?: number;
  code?: string;
  error_info?: string;
  data?: null;
  additional_data?: null;
}

/** `POST https://oauth.pipedrive.com/oauth/token` answers (authorization_code and refresh_token grants). */
export interface PipedriveTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  refresh_token: string;
  /** comma-separated scopes of the app */
  scope: string;
  /** seconds (Pipedrive: 3599) */
  expires_in: number;
  /** the company's API host, e.g. https://acme.pipedrive.com: every API call of this token goes there */
  api_domain: string;
}

/** Token endpoint errors, in the oauth2-server shape Pipedrive's OAuth server answers with. */
export interface PipedriveOAuthErrorBody {
  success: false;
  error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type';
  message: string;
}

export const PIPEDRIVE_OAUTH_HOST = 'https://oauth.pipedrive.com';
/** The API host for personal API tokens; OAuth tokens use their `api_domain` instead. */
export const PIPEDRIVE_API_HOST = 'https://api.pipedrive.com';

/**
 * Rate-limit response headers. Burst: requests per rolling 2-second window per token; daily: the
 * company's token budget (each endpoint costs a number of tokens), reset at midnight.
 */
export const RATE_LIMIT_HEADERS = {
  burstLimit: 'x-ratelimit-limit',
  burstRemaining: 'x-ratelimit-remaining',
  /** seconds until the burst window frees a request */
  burstReset: 'x-ratelimit-reset',
  dailyLimit: 'x-daily-ratelimit-token-limit',
  dailyRemaining: 'x-daily-ratelimit-token-remaining',
} as const;

/** The burst window: Pipedrive counts requests per token over a rolling 2 seconds. */
export const BURST_WINDOW_MS = 2000;
