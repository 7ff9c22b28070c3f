/**
 * The synthetic people every CRM sandbox serves (HubSpot contacts, Salesforce leads and contacts,
 * Pipedrive persons, Zoho records): one generator, so that every CRM must give the same answers where
 * the meaning of a question maps.
 *
 * Same `seed` + `count` + `now` → byte-identical people. Names come from @faker-js/faker locale
 * instances seeded from `seed` (or romanized lists for non-Latin locales, so e-mail addresses stay
 * ASCII); every other draw comes from a small seeded PRNG (mulberry32), which keeps 200,000 contacts
 * well under a second.
 *
 * Values are stored typed (numbers, epoch-ms datetimes, `null` for "no value"); the HTTP layer
 * renders them as HubSpot does (strings, ISO-8601 datetimes).
 */
import {
  fakerAR, fakerDE, fakerEN_AU, fakerEN_CA, fakerEN_GB, fakerEN_IE, fakerEN_IN, fakerEN_NG, fakerEN_US, fakerEN_ZA,
  fakerES, fakerES_MX, fakerFR, fakerIT, fakerNL, fakerPL, fakerPT_BR, fakerSV, type Faker,
} from '@faker-js/faker';
import type { LifecycleValue } from '../hubspot/model/index.js';
import { COUNTRIES, PERSONAL_EMAIL_DOMAINS, ROMANIZED_NAMES, type CountryInfo, type NameSource } from './geo.js';

/** One won deal (a purchase): when it closed and its amount in USD (two decimals). */
export interface SyntheticPurchase {
  /** epoch milliseconds */
  closedAt: number;
  amount: number;
}

/**
 * A person as the CRM-neutral generator makes them. `stage` uses the detailed lifecycle vocabulary
 * (HubSpot's options: subscriber, lead, marketingqualifiedlead, salesqualifiedlead, opportunity,
 * customer, evangelist, other) that each sandbox maps to its own model.
 */
export interface SyntheticPerson {
  /** stable id, increasing with creation time (HubSpot's hs_object_id) */
  id: number;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  company: string | null;
  /** the company's web domain (kept even when `company` is blank on the record) */
  companyDomain: string | null;
  stage: LifecycleValue | null;
  /**
   * Won deals, oldest first. The last one is the last purchase; the sum of the amounts (in cents) is the
   * lifetime value. Empty for people who never bought.
   */
  purchases: SyntheticPurchase[];
  /** the last purchase (the last of `purchases`), or null */
  lastPurchaseAt: number | null;
  lastPurchaseAmount: number | null;
  /** sum of every purchase, two decimals, or null */
  lifetimeValue: number | null;
  city: string | null;
  state: string | null;
  country: string | null;
  /** epoch milliseconds */
  createdAt: number;
  /** epoch milliseconds */
  updatedAt: number;
}

export interface GeneratePeopleOptions {
  /** number of people (default 5,000) */
  count?: number;
  /** PRNG / faker seed (default 42) */
  seed?: number;
  /**
   * Reference "now" for createdate / purchase dates (default: today 00:00 UTC, so that a given day
   * always yields the same data while dates stay relative to the real calendar).
   */
  now?: Date | number | string;
  /** first hs_object_id (default 1001); ids increase with createdate, with small gaps */
  firstId?: number;
}

const DAY = 86_400_000;
const YEAR = 365.25 * DAY;

/** Resolves the reference "now" used by the generator. */
export function resolveReferenceNow(now?: Date | number | string): number {
  if (now === undefined) {
    const d = new Date();
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  }
  const t = now instanceof Date ? now.getTime() : typeof now === 'number' ? now : Date.parse(now);
  if (!Number.isFinite(t)) throw new Error(`Invalid reference time: ${String(now)}`);
  return t;
}

/** mulberry32: tiny, fast, good enough for synthetic data. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Weighted picker over a fixed list (cumulative weights + binary search). */
function weighted<T>(items: ReadonlyArray<readonly [T, number]>): (u: number) => T {
  const cum: number[] = [];
  let total = 0;
  for (const [, w] of items) cum.push((total += w));
  return (u: number) => {
    const x = u * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo][0];
  };
}

const FAKERS: Partial<Record<NameSource, Faker>> = {
  en_US: fakerEN_US, en_GB: fakerEN_GB, en_CA: fakerEN_CA, en_AU: fakerEN_AU, en_IN: fakerEN_IN, en_IE: fakerEN_IE,
  en_ZA: fakerEN_ZA, en_NG: fakerEN_NG, de: fakerDE, fr: fakerFR, es: fakerES, es_MX: fakerES_MX, it: fakerIT,
  nl: fakerNL, sv: fakerSV, pl: fakerPL, pt_BR: fakerPT_BR,
};
// fakerAR is imported only to keep the locale list explicit; Arabic names use the romanized list.
void fakerAR;

const INDUSTRY_WORDS = [
  'Logistics', 'Analytics', 'Systems', 'Solutions', 'Labs', 'Software', 'Foods', 'Health', 'Energy', 'Partners',
  'Consulting', 'Media', 'Retail', 'Capital', 'Networks', 'Robotics', 'Studio', 'Supply', 'Motors', 'Pharma',
  'Insurance', 'Telecom', 'Hospitality', 'Digital', 'Manufacturing', 'Security', 'Cloud', 'Ventures', 'Outdoor', 'Design',
];
const BRAND_PARTS_A = ['Bright', 'North', 'Blue', 'Silver', 'Green', 'Summit', 'Nova', 'Apex', 'Iron', 'Clear', 'True', 'Swift', 'Red', 'Bold', 'Pine', 'Stone', 'Sun', 'Cedar', 'Harbor', 'Orbit'];
const BRAND_PARTS_B = ['wave', 'path', 'stack', 'leaf', 'point', 'forge', 'bridge', 'works', 'field', 'line', 'gate', 'loop', 'base', 'mark', 'peak', 'craft', 'lane', 'spark', 'wind', 'yard'];

/** ASCII-folds and keeps [a-z0-9] (for e-mail local parts and domains). */
function asciiSlug(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/ø/g, 'o')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

interface CompanyEntry {
  name: string;
  domain: string;
}

interface CountryModel {
  info: CountryInfo;
  firstName: () => string;
  lastName: () => string;
  companies: CompanyEntry[];
  pickDivision: ((u: number) => { name: string; cities: string[] }) | null;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * Generates `count` people. Deterministic for a given (seed, count, now, firstId).
 * People come back ordered by id (= creation order).
 */
export function generatePeople(options: GeneratePeopleOptions = {}): SyntheticPerson[] {
  const count = options.count ?? 5000;
  const seed = options.seed ?? 42;
  const now = resolveReferenceNow(options.now);
  const firstId = options.firstId ?? 1001;
  if (!Number.isInteger(count) || count < 0) throw new Error(`Invalid contact count: ${count}`);

  const rng = mulberry32(seed);
  const normal = () => {
    // Box–Muller
    const u1 = rng() || 1e-12;
    const u2 = rng();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  };

  const totalW = COUNTRIES.reduce((s, c) => s + c.w, 0);
  const usedDomains = new Set<string>(PERSONAL_EMAIL_DOMAINS.map(([d]) => d));
  const usedCompanyNames = new Set<string>();

  // --- per-country models (names, company pools, divisions) -------------------------------------
  const models: CountryModel[] = COUNTRIES.map((info) => {
    const localSeed = (seed ^ hashString(info.name)) >>> 0;
    const crng = mulberry32(localSeed);
    let firstName: () => string;
    let lastName: () => string;
    const f = FAKERS[info.names];
    if (f) {
      f.seed(localSeed);
      // Pre-draw pools so the order in which countries are visited does not matter.
      const firsts = Array.from({ length: 400 }, () => f.person.firstName());
      const lasts = Array.from({ length: 600 }, () => f.person.lastName());
      firstName = () => firsts[Math.floor(rng() * firsts.length)];
      lastName = () => lasts[Math.floor(rng() * lasts.length)];
    } else {
      const list = ROMANIZED_NAMES[info.names as keyof typeof ROMANIZED_NAMES];
      firstName = () => list.first[Math.floor(rng() * list.first.length)];
      lastName = () => list.last[Math.floor(rng() * list.last.length)];
    }
    // company pool: ~1 company per 7 contacts of the country, at least 4
    const expected = (count * info.w) / totalW;
    const poolSize = Math.max(4, Math.round(expected / 7));
    const companies: CompanyEntry[] = [];
    const surname = f
      ? (() => {
          const lasts = Array.from({ length: 200 }, () => f.person.lastName());
          return () => lasts[Math.floor(crng() * lasts.length)];
        })()
      : (() => {
          const list = ROMANIZED_NAMES[info.names as keyof typeof ROMANIZED_NAMES].last;
          return () => list[Math.floor(crng() * list.length)];
        })();
    if (info.name === 'United States') {
      companies.push({ name: 'Acme Corporation', domain: 'acme.com' });
      usedDomains.add('acme.com');
      usedCompanyNames.add('Acme Corporation');
    }
    let guard = 0;
    while (companies.length < poolSize && guard++ < poolSize * 20) {
      const pattern = crng();
      let base: string;
      if (pattern < 0.35) base = `${surname()} ${INDUSTRY_WORDS[Math.floor(crng() * INDUSTRY_WORDS.length)]}`;
      else if (pattern < 0.55) base = `${surname()} & ${surname()}`;
      else if (pattern < 0.85) {
        base = BRAND_PARTS_A[Math.floor(crng() * BRAND_PARTS_A.length)] + BRAND_PARTS_B[Math.floor(crng() * BRAND_PARTS_B.length)];
        if (crng() < 0.5) base += ` ${INDUSTRY_WORDS[Math.floor(crng() * INDUSTRY_WORDS.length)]}`;
      } else base = `${surname()} ${surname()} ${INDUSTRY_WORDS[Math.floor(crng() * INDUSTRY_WORDS.length)]}`;
      const withSuffix = crng() < 0.55 ? `${base} ${info.suffixes[Math.floor(crng() * info.suffixes.length)]}` : base;
      if (usedCompanyNames.has(withSuffix)) continue;
      const slug = asciiSlug(base.replace(/ & /g, 'and'));
      if (!slug) continue;
      const tld = info.tld === 'com' || crng() < 0.45 ? 'com' : info.tld;
      let domain = `${slug}.${tld}`;
      if (usedDomains.has(domain)) domain = `${slug}${info.tld.replace(/\W/g, '')}.${tld}`;
      if (usedDomains.has(domain)) continue;
      usedDomains.add(domain);
      usedCompanyNames.add(withSuffix);
      companies.push({ name: withSuffix, domain });
    }
    const pickDivision = info.divisions ? weighted(info.divisions.map((d) => [d, d.w] as const)) : null;
    return { info, firstName, lastName, companies, pickDivision };
  });

  const pickCountry = weighted(models.map((m) => [m, m.info.w] as const));
  const pickStage = weighted<LifecycleValue | null>([
    ['subscriber', 15], ['lead', 24], ['marketingqualifiedlead', 10], ['salesqualifiedlead', 7], ['opportunity', 8],
    ['customer', 20], ['evangelist', 3], ['other', 4], [null, 9],
  ]);
  const purchaseProbability: Record<string, number> = {
    customer: 0.92, evangelist: 0.95, opportunity: 0.35, salesqualifiedlead: 0.15, marketingqualifiedlead: 0.08,
    lead: 0.06, subscriber: 0.04, other: 0.1, none: 0.05,
  };
  const pickPersonalDomain = weighted(PERSONAL_EMAIL_DOMAINS);

  // --- creation times: skewed towards recent, sorted so ids follow creation order ---------------
  const created = new Float64Array(count);
  const span = 5 * YEAR;
  for (let i = 0; i < count; i++) created[i] = Math.floor(now - 3_600_000 - span * Math.pow(rng(), 1.25));
  created.sort();

  const usedEmails = new Set<string>();
  const people: SyntheticPerson[] = new Array(count);
  let id = firstId;
  for (let i = 0; i < count; i++) {
    const model = pickCountry(rng());
    const info = model.info;
    const first = model.firstName();
    const last = model.lastName();

    // company: most contacts work for a company of their country; skewed so some companies are big
    let company: CompanyEntry | null = null;
    if (rng() >= 0.1) {
      const idx = Math.floor(model.companies.length * Math.pow(rng(), 1.6));
      company = model.companies[Math.min(idx, model.companies.length - 1)];
    }

    // e-mail
    const fs = asciiSlug(first) || 'contact';
    const ls = asciiSlug(last) || 'person';
    const pattern = rng();
    let local: string;
    if (pattern < 0.5) local = `${fs}.${ls}`;
    else if (pattern < 0.75) local = `${fs[0]}${ls}`;
    else if (pattern < 0.85) local = fs;
    else if (pattern < 0.9) local = `${fs}_${ls}`;
    else local = `${ls}.${fs}`;
    let domain: string;
    if (company && rng() < 0.85) domain = company.domain;
    else {
      domain = pickPersonalDomain(rng());
      if (rng() < 0.6) local += String(Math.floor(rng() * 9000) + 10);
    }
    let email = `${local}@${domain}`;
    if (usedEmails.has(email)) {
      let n = 2;
      while (usedEmails.has(`${local}${n}@${domain}`)) n++;
      email = `${local}${n}@${domain}`;
    }
    usedEmails.add(email);

    // geography
    let country: string | null = info.name;
    let state: string | null = null;
    let city: string | null;
    if (model.pickDivision) {
      const div = model.pickDivision(rng());
      state = div.name;
      city = div.cities[Math.floor(rng() * div.cities.length)];
    } else {
      const cities = info.cities ?? [];
      city = cities.length ? cities[Math.floor(rng() * cities.length)] : null;
    }
    if (rng() < 0.07) city = null;
    if (state !== null && rng() < 0.04) state = null;
    if (rng() < 0.04) {
      country = null;
      state = null;
      if (rng() < 0.5) city = null;
    }

    // lifecycle and purchases
    const stage = pickStage(rng());
    const createdate = created[i];
    let closeDate: number | null = null;
    let amount: number | null = null;
    let revenue: number | null = null;
    const purchases: SyntheticPurchase[] = [];
    if (rng() < purchaseProbability[stage ?? 'none']) {
      const lo = Math.max(createdate, now - 3 * YEAR);
      const hi = now - 60_000;
      closeDate = Math.floor((hi - (hi - lo) * Math.pow(rng(), 1.3)) / 1000) * 1000;
      // lognormal deal size: median ≈ 900 USD, long tail
      amount = round2(Math.exp(Math.log(900) + 1.1 * normal()));
      if (amount < 5) amount = 5;
      revenue = amount;
      // additional earlier deals (geometric count)
      const earlier: number[] = [];
      while (rng() < 0.45) {
        const deal = Math.max(5, round2(Math.exp(Math.log(800) + 1.0 * normal())));
        earlier.push(deal);
        revenue += deal;
      }
      revenue = round2(revenue);
      // The earlier deals' dates come from a PRNG of their own (the person's id), so the main stream,
      // and with it every other value, stays as it was before purchases were kept.
      const drng = mulberry32((seed ^ Math.imul(id, 2654435761)) >>> 0);
      const dates = earlier.map(() => Math.floor((createdate + (closeDate! - createdate) * drng()) / 1000) * 1000).sort((a, b) => a - b);
      earlier.forEach((deal, k) => purchases.push({ closedAt: Math.min(dates[k], closeDate!), amount: deal }));
      purchases.push({ closedAt: closeDate, amount });
      // Sums in cents: the deals add up to the lifetime value exactly, whatever adds them.
      const cents = purchases.reduce((sum, p) => sum + Math.round(p.amount * 100), 0);
      if (cents !== Math.round(revenue * 100)) purchases[0].amount = round2(purchases[0].amount + (Math.round(revenue * 100) - cents) / 100);
    }
    const touched = Math.max(createdate, closeDate ?? 0);
    const lastmodifieddate = Math.floor(touched + (now - touched) * rng());

    people[i] = {
      id,
      firstName: rng() < 0.02 ? null : first,
      lastName: rng() < 0.03 ? null : last,
      email: rng() < 0.025 ? null : email,
      company: company === null || rng() < 0.03 ? null : company.name,
      companyDomain: company?.domain ?? null,
      stage,
      purchases,
      lastPurchaseAt: closeDate,
      lastPurchaseAmount: amount,
      lifetimeValue: revenue,
      city,
      state,
      country,
      createdAt: createdate,
      updatedAt: lastmodifieddate,
    };
    id += 1 + Math.floor(rng() * 3);
  }
  return people;
}
