/**
 * The one state every route of the Pipedrive sandbox works on: the company (records, fields, filters),
 * its configuration and credentials, the controllable clock, the rate limiter and request counters.
 */
import type { SyntheticPerson } from '../synthetic-people/index.js';
import { TokenStore } from './auth.js';
import { generateCompany, SANDBOX_USERS, type PdUser } from './data.js';
import type { SandboxFaults } from './faults.js';
import { RateLimiter, type BurstLimits } from './rate-limit.js';
import { CompanyStore } from './store.js';

export interface PipedriveSandboxOptions {
  /** number of synthetic people (default 5,000) */
  personCount?: number;
  /** generator seed (default 42) */
  seed?: number;
  /** reference time for the synthetic dates (default: today 00:00 UTC) */
  now?: Date | number | string;
  /** use these people instead of generating them */
  people?: SyntheticPerson[];
  /** OAuth app credentials (defaults: DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS) */
  clientId?: string;
  clientSecret?: string;
  /** the app's callback URLs (exact match, as Pipedrive requires) */
  redirectUris?: string[];
  /** the app's scopes (granted to every OAuth token; Pipedrive apps declare scopes, the authorize URL does not) */
  scopes?: string[];
  /** personal API tokens: the first belongs to the admin user, the second to the other user */
  apiTokens?: string[];
  /** burst limit per token per 2 s (a number applies to both kinds); 0 disables */
  burstLimit?: number | Partial<BurstLimits>;
  /** the company's daily token budget (default 180,000); 0 disables */
  dailyTokenBudget?: number;
  /** access-token lifetime (default 3599 s, as Pipedrive) */
  accessTokenTtlSeconds?: number;
  /** authorization-code lifetime (default 300 s) */
  authCodeTtlSeconds?: number;
  /** the company's time zone for date conditions (default UTC) */
  timeZone?: string;
  /**
   * The `api_domain` OAuth answers carry (default: the sandbox's own base URL, as the token request
   * reached it, so that the client calls back to the sandbox, mount prefix included).
   */
  apiDomain?: string;
  /** base clock (epoch ms) for tokens, rate limits and relative dates (default Date.now) */
  clock?: () => number;
  /** test-only fault injection (faults.ts) */
  faults?: SandboxFaults;
}

export interface SandboxClock {
  now(): number;
  advance(ms: number): void;
  set(epochMs: number): void;
  reset(): void;
}

export interface PipedriveSandboxConfig {
  companyId: number;
  companyName: string;
  companyDomain: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  scopes: string[];
  apiTokens: string[];
  burstLimit: BurstLimits;
  dailyTokenBudget: number;
  accessTokenTtlSeconds: number;
  timeZone: string;
  apiDomain: string | undefined;
}

export const DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS = {
  clientId: '7a3c91e5d2b84f06',
  clientSecret: 'c4e1a9f27b3d5e8016a2c9f4b7d3e1a5c8f20b6d',
  apiTokens: ['5f2c8a1e9b7d4c3a6e0f1b2d8c9a7e4f3b1d5c6a', '0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d'],
  redirectUris: ['http://localhost:3000/api/auth/pipedrive/callback', 'http://127.0.0.1:3000/api/auth/pipedrive/callback'],
  scopes: ['base', 'deals:read', 'contacts:full', 'users:read'],
} as const;

export interface SandboxState {
  store: CompanyStore;
  config: PipedriveSandboxConfig;
  tokens: TokenStore;
  clock: SandboxClock;
  limiter: RateLimiter;
  users: PdUser[];
  /** request counters, handy in tests and benchmarks: per route ("GET /api/v2/persons") and in total */
  stats: { requests: number; byRoute: Record<string, number>; rateLimited: number; filtersCreated: number; filtersDeleted: number };
}

function createClock(base: () => number): SandboxClock {
  let offset = 0;
  let pinned: number | null = null;
  return {
    now: () => (pinned ?? base()) + offset,
    advance: (ms) => void (offset += ms),
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

export function createSandboxState(options: PipedriveSandboxOptions = {}): SandboxState {
  const data = generateCompany({ count: options.personCount ?? 5000, seed: options.seed ?? 42, now: options.now, people: options.people });
  const clock = createClock(options.clock ?? (() => Date.now()));
  const burst = typeof options.burstLimit === 'number'
    ? { apiToken: options.burstLimit, oauth: options.burstLimit }
    : { apiToken: options.burstLimit?.apiToken ?? 40, oauth: options.burstLimit?.oauth ?? 160 };
  const config: PipedriveSandboxConfig = {
    companyId: data.companyId,
    companyName: data.companyName,
    companyDomain: data.companyDomain,
    clientId: options.clientId ?? DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS.clientId,
    clientSecret: options.clientSecret ?? DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS.clientSecret,
    redirectUris: options.redirectUris ?? [...DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS.redirectUris],
    scopes: options.scopes ?? [...DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS.scopes],
    apiTokens: options.apiTokens ?? [...DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS.apiTokens],
    burstLimit: burst,
    dailyTokenBudget: options.dailyTokenBudget ?? 30_000 * 2 * 3,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 3599,
    timeZone: options.timeZone ?? 'UTC',
    apiDomain: options.apiDomain,
  };
  const users = [...SANDBOX_USERS];
  const apiTokens = new Map(config.apiTokens.map((t, i) => [t, users[Math.min(i, users.length - 1)]]));
  const tokens = new TokenStore(data.companyId, clock.now, config.accessTokenTtlSeconds, options.authCodeTtlSeconds ?? 300, apiTokens);
  return {
    store: new CompanyStore(data, config.timeZone, clock.now),
    config,
    tokens,
    clock,
    limiter: new RateLimiter(burst, config.dailyTokenBudget),
    users,
    stats: { requests: 0, byRoute: {}, rateLimited: 0, filtersCreated: 0, filtersDeleted: 0 },
  };
}
