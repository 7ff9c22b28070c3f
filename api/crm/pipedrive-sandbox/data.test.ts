import { describe, expect, it } from 'vitest';
import { generateContacts } from '../hubspot-sandbox/data.js';
import { generateCompany, LIFECYCLE_FIELD_OPTIONS, SANDBOX_LABELS } from './data.js';

const NOW = '2026-06-01T00:00:00Z';

describe('the sandbox company (synthetic people as Pipedrive records)', () => {
  const company = generateCompany({ count: 3000, seed: 7, now: NOW });
  const { persons, deals, organizations, people } = company;

  it('is deterministic', () => {
    const again = generateCompany({ count: 3000, seed: 7, now: NOW });
    expect(JSON.stringify(again.persons)).toBe(JSON.stringify(persons));
    expect(JSON.stringify(again.deals)).toBe(JSON.stringify(deals));
  });

  it('has one person per synthetic person, with the HubSpot sandbox contact ids', () => {
    const contacts = generateContacts({ count: 3000, seed: 7, now: NOW });
    expect(persons.map((p) => p.id)).toEqual(contacts.map((c) => c.id));
    persons.forEach((p, i) => {
      const c = contacts[i];
      expect([p.first_name, p.last_name, p.email]).toEqual([c.firstname, c.lastname, c.email]);
      expect(p.postal_address?.country ?? null).toBe(c.country);
      expect(p.postal_address?.locality ?? null).toBe(c.city);
      expect(p.postal_address?.admin_area_level_1 ?? null).toBe(c.state);
      expect(p.add_time).toBe(Math.floor(c.createdate / 1000) * 1000);
      expect(p.name.length).toBeGreaterThan(0);
    });
  });

  it('links each person to the organization named after their company', () => {
    const byId = new Map(organizations.map((o) => [o.id, o]));
    expect(new Set(organizations.map((o) => o.name)).size).toBe(organizations.length);
    persons.forEach((p, i) => {
      expect(p.org_id === null ? null : byId.get(p.org_id)!.name).toBe(people[i].company);
    });
  });

  it('turns purchases into won deals: the last is the last purchase, their sum the lifetime value (in cents)', () => {
    const won = new Map<number, typeof deals>();
    for (const d of deals) if (d.status === 'won') won.set(d.person_id, [...(won.get(d.person_id) ?? []), d]);
    for (const p of people) {
      const mine = won.get(p.id) ?? [];
      expect(mine.length).toBe(p.purchases.length);
      if (mine.length === 0) {
        expect(p.lifetimeValue).toBeNull();
        continue;
      }
      const last = mine.reduce((a, b) => (b.won_time! >= a.won_time! ? b : a));
      expect(last.won_time).toBe(p.lastPurchaseAt);
      expect(last.value).toBe(p.lastPurchaseAmount);
      expect(mine.reduce((s, d) => s + Math.round(d.value * 100), 0)).toBe(Math.round(p.lifetimeValue! * 100));
      for (const d of mine) expect(d.add_time).toBeLessThanOrEqual(d.won_time!);
    }
  });

  it('adds open and lost deals that are no purchases', () => {
    expect(deals.some((d) => d.status === 'lost')).toBe(true);
    expect(deals.some((d) => d.status === 'open')).toBe(true);
    for (const d of deals.filter((x) => x.status !== 'won')) expect(d.won_time).toBeNull();
    expect(new Set(deals.map((d) => d.id)).size).toBe(deals.length);
  });

  it('labels each person with their stage (customers sometimes also VIP), and fills the custom fields', () => {
    const labelOf = new Map(SANDBOX_LABELS.map((l) => [l.id, l]));
    persons.forEach((p, i) => {
      const stages = p.label_ids.map((id) => labelOf.get(id)!.stage).filter((s) => s !== null);
      expect(stages).toEqual(people[i].stage ? [people[i].stage] : []);
      expect(p.lifetime_value).toBe(people[i].lifetimeValue);
      expect(p.lifecycle_stage === null ? null : LIFECYCLE_FIELD_OPTIONS.find((o) => o.id === p.lifecycle_stage)!.stage).toBe(people[i].stage);
    });
    expect(persons.some((p) => p.label_ids.length === 2)).toBe(true);
  });
});
