/**
 * The one state every route of the Zoho sandbox works on: the org's records, its OAuth clients and
 * tokens, the controllable clock, the API-credit meter and the concurrency gate, and request counters.
 */
import { isZohoDataCentre, type ZohoDataCentre } from '../zoho/data-centres.js';
import { ZohoTokenStore } from './auth.js';
import type { CoqlDataset } from './coql/execute.js';
import { generateZohoDataset, resolveReferenceNow, type ZohoDataset, type ZohoRecord } from './data.js';
import type { ZohoSandboxFaults } from './faults.js';
import { MODULES, type ModuleName } from './fields.js';
import type { SyntheticPerson } from '../synthetic-people/index.js';
import { toZohoDataset } from './data.js';

export interface ZohoSandboxOptions {
  /** number of synthetic people (default 5,000) */
  contactCount?: number;
  /** generator seed (default 42) */
  seed?: number;
  /** reference time for the synthetic dates (default: today 00:00 UTC) */
  now?: Date | number | string;
  /** use these people instead of generating them */
  people?: SyntheticPerson[];
  /** the data centre the org lives in (default "us"); its tokens are unknown at the others */
  dataCentre?: ZohoDataCentre;
  /** the server-based OAuth client (API console "Server-based Applications") */
  clientId?: string;
  clientSecret?: string;
  /** its authorized redirect URIs (exact match) */
  redirectUris?: string[];
  /** the org's self client (API console "Self Client"): grant codes without a redirect */
  selfClientId?: string;
  selfClientSecret?: string;
  /** access-token lifetime (default 3600 s, as Zoho) */
  accessTokenTtlSeconds?: number;
  /**
   * API credits per rolling 24 hours (default 60,000: Enterprise edition with 10 user licences,
   * 50,000 + 10 × 1,000); 0 disables metering
   */
  dailyCredits?: number;
  /** requests the org may have in flight at once (default 20, Enterprise); 0 disables the gate */
  concurrencyLimit?: number;
  /** base clock (epoch ms) for token expiry and the credit window (default Date.now) */
  clock?: () => number;
  /** test-only fault injection (faults.ts); only code can pass it, nothing over HTTP turns it on */
  faults?: ZohoSandboxFaults;
}

export interface SandboxClock {
  now(): number;
  advance(ms: number): void;
  set(epochMs: number): void;
  reset(): void;
}

export const DEFAULT_ZOHO_CREDENTIALS = {
  clientId: '1000.8K2QW5ZP1R7TX3M9C4NB6VJ0HYLSDF',
  clientSecret: '4f1c9a7e2b8d6035e1a9c7b4f2d8e6a0c3b5d7f9e1',
  selfClientId: '1000.S3LFCL1ENT0SANDB0X7Q2W8E4R6T9Y',
  selfClientSecret: '9b2e7d4a1c8f6053b2e9d7a4c1f8b6e0d3a5c7f9b2',
  redirectUris: ['http://localhost:3000/api/auth/zoho/callback', 'http://127.0.0.1:3000/api/auth/zoho/callback'],
  orgId: '20104588213',
  orgName: 'Sandbox Outfitters Ltd',
} as const;

/** Every scope a Zoho CRM client may ask for here (others are refused as invalid). */
export const KNOWN_SCOPE_PREFIXES = ['ZohoCRM.modules', 'ZohoCRM.coql', 'ZohoCRM.settings', 'ZohoCRM.org', 'ZohoCRM.users', 'ZohoCRM.bulk', 'AaaServer.profile'];

export interface SandboxConfig {
  dataCentre: ZohoDataCentre;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  selfClientId: string;
  selfClientSecret: string;
  accessTokenTtlSeconds: number;
  dailyCredits: number;
  concurrencyLimit: number;
  orgId: string;
  orgName: string;
}

/** Zoho's API credits: a rolling 24-hour window per org. */
export class CreditMeter {
  private charges: { at: number; credits: number }[] = [];
  private used = 0;
  constructor(readonly limit: number, private readonly now: () => number) {}

  private prune() {
    const since = this.now() - 86_400_000;
    while (this.charges.length && this.charges[0].at <= since) this.used -= this.charges.shift()!.credits;
  }

  /** Takes `credits` if they are left; false (nothing taken) when the window's credits are used up. */
  charge(credits: number): boolean {
    if (!(this.limit > 0)) return true;
    this.prune();
    if (this.used + credits > this.limit) return false;
    this.charges.push({ at: this.now(), credits });
    this.used += credits;
    return true;
  }

  remaining(): number {
    if (!(this.limit > 0)) return Number.POSITIVE_INFINITY;
    this.prune();
    return Math.max(0, this.limit - this.used);
  }

  /** When the oldest charge leaves the window (epoch ms), or null when nothing is charged. */
  nextRelease(): number | null {
    this.prune();
    return this.charges.length ? this.charges[0].at + 86_400_000 : null;
  }

  reset() {
    this.charges = [];
    this.used = 0;
  }
}

export interface SandboxStats {
  coqlRequests: number;
  apiRequests: number;
  rateLimited: number;
  tokenGrants: number;
}

export interface SandboxState {
  dataset: ZohoDataset;
  coql: CoqlDataset;
  config: SandboxConfig;
  tokens: ZohoTokenStore;
  clock: SandboxClock;
  credits: CreditMeter;
  concurrency: { inFlight: number };
  stats: SandboxStats;
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

function coqlDataset(ds: ZohoDataset): CoqlDataset {
  const index = new Map<ModuleName, Map<string, ZohoRecord>>(MODULES.map((m) => [m, new Map(ds[m].map((r) => [r.id, r]))]));
  return { rows: (m) => ds[m], byId: (m, id) => index.get(m)?.get(id) };
}

export function createSandboxState(options: ZohoSandboxOptions = {}): SandboxState {
  const now = resolveReferenceNow(options.now);
  const dataset = options.people
    ? toZohoDataset(options.people, now)
    : generateZohoDataset({ count: options.contactCount ?? 5000, seed: options.seed ?? 42, now }, now);
  const dataCentre = options.dataCentre ?? 'us';
  if (!isZohoDataCentre(dataCentre)) throw new Error(`Unknown Zoho data centre: ${String(dataCentre)}`);
  const clock = createClock(options.clock ?? (() => Date.now()));
  const config: SandboxConfig = {
    dataCentre,
    clientId: options.clientId ?? DEFAULT_ZOHO_CREDENTIALS.clientId,
    clientSecret: options.clientSecret ?? DEFAULT_ZOHO_CREDENTIALS.clientSecret,
    redirectUris: options.redirectUris ?? [...DEFAULT_ZOHO_CREDENTIALS.redirectUris],
    selfClientId: options.selfClientId ?? DEFAULT_ZOHO_CREDENTIALS.selfClientId,
    selfClientSecret: options.selfClientSecret ?? DEFAULT_ZOHO_CREDENTIALS.selfClientSecret,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 3600,
    dailyCredits: options.dailyCredits ?? 60_000,
    concurrencyLimit: options.concurrencyLimit ?? 20,
    orgId: DEFAULT_ZOHO_CREDENTIALS.orgId,
    orgName: DEFAULT_ZOHO_CREDENTIALS.orgName,
  };
  return {
    dataset,
    coql: coqlDataset(dataset),
    config,
    tokens: new ZohoTokenStore(clock.now, config.accessTokenTtlSeconds),
    clock,
    credits: new CreditMeter(config.dailyCredits, clock.now),
    concurrency: { inFlight: 0 },
    stats: { coqlRequests: 0, apiRequests: 0, rateLimited: 0, tokenGrants: 0 },
  };
}
