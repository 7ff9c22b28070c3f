import { describe, expect, it } from 'vitest';
import { LIFECYCLE_VALUES } from '../hubspot/model/index.js';
import { generateContacts, resolveReferenceNow } from './data.js';
import { COUNTRIES } from '../synthetic-people/geo.js';

const NOW = '2026-06-01T00:00:00Z';
const now = Date.parse(NOW);
const YEAR = 365.25 * 86_400_000;

describe('generateContacts', () => {
  const contacts = generateContacts({ count: 5000, seed: 42, now: NOW });

  it('is deterministic for a seed and differs across seeds', () => {
    expect(generateContacts({ count: 5000, seed: 42, now: NOW })).toEqual(contacts);
    const other = generateContacts({ count: 5000, seed: 43, now: NOW });
    expect(other.map((c) => c.email)).not.toEqual(contacts.map((c) => c.email));
  });

  it('defaults to 5,000 contacts, ids strictly increasing with createdate', () => {
    expect(generateContacts({ now: NOW })).toHaveLength(5000);
    for (let i = 1; i < contacts.length; i++) {
      expect(contacts[i].id).toBeGreaterThan(contacts[i - 1].id);
      expect(contacts[i].createdate).toBeGreaterThanOrEqual(contacts[i - 1].createdate);
    }
  });

  it('spreads countries across regions with a heavy United States share', () => {
    const byCountry = new Map<string, number>();
    for (const c of contacts) if (c.country) byCountry.set(c.country, (byCountry.get(c.country) ?? 0) + 1);
    const share = (name: string) => (byCountry.get(name) ?? 0) / contacts.length;
    expect(share('United States')).toBeGreaterThan(0.25);
    expect(share('United States')).toBeLessThan(0.45);
    for (const name of ['Canada', 'Mexico', 'United Kingdom', 'Germany', 'France', 'Japan', 'Australia', 'India', 'Brazil', 'United Arab Emirates', 'South Africa']) {
      expect(byCountry.get(name) ?? 0, name).toBeGreaterThan(5);
    }
    const known = new Set(COUNTRIES.map((c) => c.name));
    for (const name of byCountry.keys()) expect(known.has(name), name).toBe(true);
    const regions = new Set(COUNTRIES.filter((c) => byCountry.has(c.name)).map((c) => c.region));
    expect(regions.size).toBe(5);
  });

  it('gives US contacts full state names and real cities', () => {
    const us = contacts.filter((c) => c.country === 'United States');
    const states = new Set(us.map((c) => c.state).filter(Boolean));
    expect(states.has('California')).toBe(true);
    expect(states.has('Texas')).toBe(true);
    for (const s of states) expect(s!.length).toBeGreaterThan(2); // never "CA"
    expect(us.filter((c) => c.state === 'California' && c.city === 'San Francisco').length).toBeGreaterThan(0);
  });

  it('covers every lifecycle stage plus empty ones', () => {
    const stages = new Set(contacts.map((c) => c.lifecyclestage));
    for (const s of LIFECYCLE_VALUES) expect(stages.has(s), s).toBe(true);
    expect(stages.has(null)).toBe(true);
  });

  it('has purchases over the last 3 years, lognormal amounts, and a share who never purchased', () => {
    const buyers = contacts.filter((c) => c.recent_deal_close_date !== null);
    const never = contacts.filter((c) => c.recent_deal_close_date === null);
    expect(never.length / contacts.length).toBeGreaterThan(0.4);
    expect(buyers.length / contacts.length).toBeGreaterThan(0.15);
    for (const c of never) {
      expect(c.recent_deal_amount).toBeNull();
      expect(c.total_revenue).toBeNull();
    }
    for (const c of buyers) {
      expect(c.recent_deal_close_date!).toBeGreaterThanOrEqual(now - 3 * YEAR);
      expect(c.recent_deal_close_date!).toBeLessThanOrEqual(now);
      expect(c.recent_deal_close_date!).toBeGreaterThanOrEqual(c.createdate - 1000);
      expect(c.total_revenue!).toBeGreaterThanOrEqual(c.recent_deal_amount!);
      expect(c.lastmodifieddate).toBeGreaterThanOrEqual(c.recent_deal_close_date!);
    }
    const amounts = buyers.map((c) => c.recent_deal_amount!).sort((a, b) => a - b);
    const median = amounts[amounts.length >> 1];
    const mean = amounts.reduce((s, x) => s + x, 0) / amounts.length;
    expect(median).toBeGreaterThan(400);
    expect(median).toBeLessThan(2000);
    expect(mean).toBeGreaterThan(median * 1.2); // right-skewed
    expect(amounts[amounts.length - 1]).toBeGreaterThan(median * 8);
    // customers buy far more often than subscribers
    const rate = (s: string) => contacts.filter((c) => c.lifecyclestage === s && c.recent_deal_close_date !== null).length / contacts.filter((c) => c.lifecyclestage === s).length;
    expect(rate('customer')).toBeGreaterThan(0.8);
    expect(rate('subscriber')).toBeLessThan(0.15);
  });

  it('shares companies and their e-mail domains (e.g. @acme.com), with personal addresses too', () => {
    const acme = contacts.filter((c) => c.email?.endsWith('@acme.com'));
    expect(acme.length).toBeGreaterThan(10);
    expect(acme.every((c) => c.company === null || c.company === 'Acme Corporation')).toBe(true);
    const perCompany = new Map<string, number>();
    for (const c of contacts) if (c.company) perCompany.set(c.company, (perCompany.get(c.company) ?? 0) + 1);
    expect([...perCompany.values()].filter((n) => n >= 10).length).toBeGreaterThan(20);
    expect(contacts.filter((c) => c.email?.endsWith('@gmail.com')).length).toBeGreaterThan(50);
    const emails = contacts.map((c) => c.email).filter(Boolean);
    expect(new Set(emails).size).toBe(emails.length);
    for (const e of emails) expect(e).toMatch(/^[a-z0-9._]+@[a-z0-9.]+\.[a-z]{2,}$/);
  });

  it('leaves some fields empty', () => {
    for (const field of ['firstname', 'lastname', 'email', 'company', 'city', 'country'] as const) {
      const missing = contacts.filter((c) => c[field] === null).length;
      expect(missing, field).toBeGreaterThan(0);
      expect(missing, field).toBeLessThan(contacts.length * 0.2);
    }
    // state is only used where the country has states/provinces; a few US contacts lack it
    const us = contacts.filter((c) => c.country === 'United States');
    const noState = us.filter((c) => c.state === null).length;
    expect(noState).toBeGreaterThan(0);
    expect(noState).toBeLessThan(us.length * 0.1);
  });

  // How fast 200,000 are generated is a benchmark figure (tests/bench/sandbox-search.ts), not a test.
  it('generates large portals with unique ids', () => {
    const big = generateContacts({ count: 50_000, seed: 7, now: NOW });
    expect(big).toHaveLength(50_000);
    expect(new Set(big.map((c) => c.id)).size).toBe(50_000);
  }, 60_000);

  it('resolves the reference time (default: today 00:00 UTC)', () => {
    const d = new Date(resolveReferenceNow());
    expect(d.getUTCHours() + d.getUTCMinutes() + d.getUTCSeconds()).toBe(0);
    expect(resolveReferenceNow(NOW)).toBe(now);
    expect(() => resolveReferenceNow('not a date')).toThrow();
  });
});
