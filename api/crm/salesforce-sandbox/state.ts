/**
 * The one state every route of the Salesforce sandbox works on: the org (schema + records), its
 * identity and OAuth app, tokens, query locators, API limits, the controllable clock and counters.
 */
import type { SyntheticPerson } from '../synthetic-people/index.js';
import { resolveReferenceNow } from '../synthetic-people/index.js';
import { KEY_PREFIXES, makeId } from '../salesforce/model/ids.js';
import { TokenStore } from './auth.js';
import { buildOrg, buildOrgFromPeople, type OrgData, type OrgIdentity } from './data.js';
import type { SandboxFaults } from './faults.js';
import { ConcurrencyGate, DailyAllocation } from './limits.js';
import { Locators } from './locators.js';
import { buildSchema, Schema } from './schema.js';
import { OrgStore } from './soql/run.js';
import { weekStartOf, type DateContext } from '../salesforce/model/date-literals.js';

export interface SalesforceSandboxOptions {
  /** number of synthetic people (default 5,000) */
  contactCount?: number;
  /** generator seed (default 42) */
  seed?: number;
  /** reference time for the synthetic dates (default: today 00:00 UTC) */
  now?: Date | number | string;
  /** use these people instead of generating them */
  people?: SyntheticPerson[];
  /** connected app (defaults: DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS) */
  clientId?: string;
  clientSecret?: string;
  /** callback URLs of the connected app (exact match) */
  redirectUris?: string[];
  /** session ids accepted without OAuth (the "paste a token" method); they never time out */
  accessTokens?: string[];
  /** session timeout after inactivity (default 7,200 s, Salesforce's default) */
  sessionTimeoutSeconds?: number;
  /** authorization-code lifetime (default 900 s) */
  authCodeTtlSeconds?: number;
  /** refuse authorization codes without PKCE (default false) */
  requirePkce?: boolean;
  /** daily API request allocation, rolling 24 h (default 100,000) */
  dailyApiRequests?: number;
  /** concurrent long-running requests allowed (default 25; 0 = unlimited) */
  concurrentRequestLimit?: number;
  /** how long a request runs before it counts as long-running (default 20,000 ms) */
  longRunningThresholdMs?: number;
  /** the running user's time zone (TimeZoneSidKey; default America/Los_Angeles) and locale (default en_US) */
  timeZone?: string;
  locale?: string;
  /** the org's fiscal year start month, 1-12 (default 1) */
  fiscalYearStartMonth?: number;
  /** Contact has the custom Lifecycle_Stage__c picklist (default true) */
  contactStageField?: boolean;
  /** Contact has the Lifetime_Value__c / Last_Purchase_*__c rollup fields (default true) */
  rollupFields?: boolean;
  orgName?: string;
  /** base clock (epoch ms) for sessions, locators, limits and date literals (default Date.now) */
  clock?: () => number;
  /** test-only fault injection (faults.ts); only code can pass it */
  faults?: SandboxFaults;
}

export interface SandboxClock {
  now(): number;
  advance(ms: number): void;
  set(epochMs: number): void;
  reset(): void;
}

export interface SalesforceSandboxConfig {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  scopes: string[];
  accessTokens: string[];
  sessionTimeoutSeconds: number;
  requirePkce: boolean;
  dailyApiRequests: number;
  concurrentRequestLimit: number;
  longRunningThresholdMs: number;
  /** the highest API version served (v31.0 … this) */
  latestVersion: string;
}

export const DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS = {
  clientId: '3MVG9sandbox.CRMAssistant.xK7qP2vR9tL4mN8bW1cY6hJ3fD5sA0gE2uI7oZ9yT4rQ1wX8vB6nM3kL5jH0gF',
  clientSecret: 'C3F1A7B9E2D4F6A8B0C2D4E6F8A0B2C4D6E8F0A2B4C6D8E0F2A4B6C8D0E2F4A6',
  accessToken: `${makeId(KEY_PREFIXES.Organization, 1).slice(0, 15)}!AQ4AQSandboxStaticSessionId.8xKq2Vd7Lm3Np9Rt5Wy1Zb6Cf4Gh0Jk`,
  redirectUris: ['http://localhost:3000/api/auth/salesforce/callback', 'http://127.0.0.1:3000/api/auth/salesforce/callback'],
  scopes: ['api', 'refresh_token', 'offline_access', 'id', 'profile', 'email', 'openid', 'web', 'full'],
} as const;

export const API_VERSIONS = Array.from({ length: 62 - 31 + 1 }, (_, i) => `${31 + i}.0`);

export interface SandboxStats {
  /** REST calls counted against the daily allocation */
  apiCalls: number;
  queries: number;
  queryMores: number;
  composites: number;
  describes: number;
  /** calls refused: allocation used up / too many concurrent long-running requests */
  refusedDaily: number;
  refusedConcurrent: number;
}

export interface SandboxState {
  org: OrgData;
  schema: Schema;
  store: OrgStore;
  identity: OrgIdentity;
  config: SalesforceSandboxConfig;
  tokens: TokenStore;
  locators: Locators;
  allocation: DailyAllocation;
  concurrency: ConcurrencyGate;
  clock: SandboxClock;
  stats: SandboxStats;
  /** the SOQL of the last 200 queries (tests and benchmarks read what clients asked) */
  queryLog: string[];
  /** date-literal context of the running user at this moment */
  dates(): DateContext;
}

function createClock(base: () => number): SandboxClock {
  let offset = 0;
  let pinned: number | null = null;
  return {
    now: () => (pinned ?? base()) + offset,
    advance: (ms) => {
      offset += ms;
    },
    set: (t) => {
      pinned = t;
      offset = 0;
    },
    reset: () => {
      pinned = null;
      offset = 0;
    },
  };
}

export function createSandboxState(options: SalesforceSandboxOptions = {}): SandboxState {
  const identity: OrgIdentity = {
    orgId: makeId(KEY_PREFIXES.Organization, 1),
    orgName: options.orgName ?? 'CRM Assistant Sandbox Org',
    userId: makeId(KEY_PREFIXES.User, 1),
    username: 'admin@crm-assistant-sandbox.example',
    userEmail: 'admin@crm-assistant-sandbox.example',
    userFirstName: 'Sandbox',
    userLastName: 'Admin',
    timeZone: options.timeZone ?? 'America/Los_Angeles',
    locale: options.locale ?? 'en_US',
    language: 'en_US',
    edition: 'Enterprise Edition',
    instanceName: 'SBX1',
    fiscalYearStartMonth: options.fiscalYearStartMonth ?? 1,
  };
  const orgOptions = { identity, contactStageField: options.contactStageField, rollupFields: options.rollupFields };
  const org = options.people
    ? buildOrgFromPeople(options.people, { ...orgOptions, referenceNow: resolveReferenceNow(options.now) })
    : buildOrg({ ...orgOptions, count: options.contactCount ?? 5000, seed: options.seed ?? 42, now: options.now });
  const schema = new Schema(buildSchema(orgOptions));
  const store = new OrgStore(schema, org.rows);
  const clock = createClock(options.clock ?? (() => Date.now()));
  const config: SalesforceSandboxConfig = {
    clientId: options.clientId ?? DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS.clientId,
    clientSecret: options.clientSecret ?? DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS.clientSecret,
    redirectUris: options.redirectUris ?? [...DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS.redirectUris],
    scopes: [...DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS.scopes],
    accessTokens: options.accessTokens ?? [DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS.accessToken],
    sessionTimeoutSeconds: options.sessionTimeoutSeconds ?? 7200,
    requirePkce: options.requirePkce ?? false,
    dailyApiRequests: options.dailyApiRequests ?? 100_000,
    concurrentRequestLimit: options.concurrentRequestLimit ?? 25,
    longRunningThresholdMs: options.longRunningThresholdMs ?? 20_000,
    latestVersion: API_VERSIONS[API_VERSIONS.length - 1],
  };
  const tokens = new TokenStore(identity.orgId.slice(0, 15), clock.now, config.sessionTimeoutSeconds, options.authCodeTtlSeconds ?? 900, config.accessTokens, ['api', 'full']);
  const weekStart = weekStartOf(identity.locale);
  return {
    org,
    schema,
    store,
    identity,
    config,
    tokens,
    locators: new Locators(clock.now),
    allocation: new DailyAllocation(config.dailyApiRequests, clock.now),
    concurrency: new ConcurrencyGate(config.concurrentRequestLimit, config.longRunningThresholdMs),
    clock,
    stats: { apiCalls: 0, queries: 0, queryMores: 0, composites: 0, describes: 0, refusedDaily: 0, refusedConcurrent: 0 },
    queryLog: [],
    dates: () => ({ nowMs: clock.now(), timeZone: identity.timeZone, weekStart, fiscalYearStartMonth: identity.fiscalYearStartMonth }),
  };
}
