/**
 * The one state every route of the sandbox works on: the contact store, the portal's configuration and
 * tokens, the controllable clock, the search throttle and request counters.
 */
import { TokenStore, type PortalIdentity } from './auth.js';
import { generateContacts, type SandboxContact } from './data.js';
import type { SandboxFaults } from './faults.js';
import { createContactStore, type ContactStore } from './store.js';

export interface HubSpotSandboxOptions {
  /** number of synthetic contacts (default 5,000) */
  contactCount?: number;
  /** generator seed (default 42) */
  seed?: number;
  /** reference time for the synthetic dates (default: today 00:00 UTC) */
  now?: Date | number | string;
  /** use these contacts instead of generating them */
  contacts?: SandboxContact[];
  /** OAuth app credentials (defaults: fixed demo values, see DEFAULT_SANDBOX_CREDENTIALS) */
  clientId?: string;
  clientSecret?: string;
  /** registered redirect URIs (exact match, as HubSpot requires) */
  redirectUris?: string[];
  /** scopes the app may request and private-app tokens carry */
  scopes?: string[];
  /** accepted private-app tokens (`Authorization: Bearer pat-…`) */
  privateAppTokens?: string[];
  /** search requests per second per account (default 5, HubSpot's limit); 0 disables throttling */
  rateLimitPerSecond?: number;
  /** access-token lifetime (default 1800 s, as HubSpot) */
  accessTokenTtlSeconds?: number;
  /** authorization-code lifetime (default 600 s) */
  authCodeTtlSeconds?: number;
  /** the demo portal */
  hubId?: number;
  hubDomain?: string;
  /** base clock (epoch ms) for token expiry and throttling (default Date.now); see `clock` controls */
  clock?: () => number;
  /** build every search index up front (slower start, steadier first searches) */
  warmUp?: boolean;
  /** test-only fault injection (faults.ts); only code can pass it, nothing over HTTP turns it on */
  faults?: SandboxFaults;
}

export interface SandboxClock {
  now(): number;
  /** moves the sandbox clock forward (token expiry, rate-limit windows) */
  advance(ms: number): void;
  /** pins the clock to a fixed instant (until reset) */
  set(epochMs: number): void;
  /** back to the base clock */
  reset(): void;
}

export interface SandboxConfig {
  hubId: number;
  hubDomain: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  scopes: string[];
  privateAppTokens: string[];
  rateLimitPerSecond: number;
  accessTokenTtlSeconds: number;
}

export const DEFAULT_SANDBOX_CREDENTIALS = {
  clientId: '5d3c7e1a-8b2f-4c6d-9e0a-1f2b3c4d5e6f',
  clientSecret: 'a9f8e7d6-c5b4-4a3b-8c2d-1e0f9a8b7c6d',
  privateAppToken: 'pat-na1-7c1e9a52-3f4b-4d8e-b6a0-2c5d8e1f4a97',
  hubId: 24_186_743,
  hubDomain: 'sandbox-24186743.hubspot.local',
  redirectUris: ['http://localhost:3000/api/auth/hubspot/callback', 'http://127.0.0.1:3000/api/auth/hubspot/callback'],
  scopes: ['oauth', 'crm.objects.contacts.read', 'crm.schemas.contacts.read'],
} as const;

/** Sliding one-second window per account, as HubSpot's SECONDLY policy for search. */
export class SecondlyLimiter {
  private readonly hits = new Map<number, number[]>();
  constructor(private readonly limit: number) {}

  /** Returns 0 when admitted, else the seconds to wait. */
  check(account: number, now: number): number {
    if (!(this.limit > 0)) return 0;
    let list = this.hits.get(account);
    if (!list) this.hits.set(account, (list = []));
    while (list.length && list[0] <= now - 1000) list.shift();
    if (list.length >= this.limit) return Math.max(1, Math.ceil((list[0] + 1000 - now) / 1000));
    list.push(now);
    return 0;
  }

  reset(): void {
    this.hits.clear();
  }
}

export interface SandboxState {
  store: ContactStore;
  config: SandboxConfig;
  portal: PortalIdentity;
  tokens: TokenStore;
  clock: SandboxClock;
  limiter: SecondlyLimiter;
  /** request counters, handy in tests */
  stats: { searchRequests: number; rateLimited: number };
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

export function createSandboxState(options: HubSpotSandboxOptions = {}): SandboxState {
  const contacts = options.contacts ?? generateContacts({ count: options.contactCount ?? 5000, seed: options.seed ?? 42, now: options.now });
  const store = createContactStore(contacts);
  if (options.warmUp) store.warmUp();
  const clock = createClock(options.clock ?? (() => Date.now()));
  const config: SandboxConfig = {
    hubId: options.hubId ?? DEFAULT_SANDBOX_CREDENTIALS.hubId,
    hubDomain: options.hubDomain ?? DEFAULT_SANDBOX_CREDENTIALS.hubDomain,
    clientId: options.clientId ?? DEFAULT_SANDBOX_CREDENTIALS.clientId,
    clientSecret: options.clientSecret ?? DEFAULT_SANDBOX_CREDENTIALS.clientSecret,
    redirectUris: options.redirectUris ?? [...DEFAULT_SANDBOX_CREDENTIALS.redirectUris],
    scopes: options.scopes ?? [...DEFAULT_SANDBOX_CREDENTIALS.scopes],
    privateAppTokens: options.privateAppTokens ?? [DEFAULT_SANDBOX_CREDENTIALS.privateAppToken],
    rateLimitPerSecond: options.rateLimitPerSecond ?? 5,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 1800,
  };
  const portal: PortalIdentity = { hubId: config.hubId, hubDomain: config.hubDomain, userId: 7_120_001, user: 'demo@sandbox.hubspot.local', appId: 3_100_417 };
  const tokens = new TokenStore(
    portal,
    clock.now,
    config.accessTokenTtlSeconds,
    options.authCodeTtlSeconds ?? 600,
    new Set(config.privateAppTokens),
    config.scopes.filter((s) => s !== 'oauth'),
  );
  return { store, config, portal, tokens, clock, limiter: new SecondlyLimiter(config.rateLimitPerSecond), stats: { searchRequests: 0, rateLimited: 0 } };
}
