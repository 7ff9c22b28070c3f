import { describe, expect, it } from 'vitest';
import { generatePeople } from '../synthetic-people/index.js';
import { isContactPerson, LIFECYCLE_STAGE_LABELS, personIdOfRecord, personRecordId, toZohoDataset, WON_STAGE } from './data.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const people = generatePeople({ count: 3000, seed: 11, now: NOW });
const ds = toZohoDataset(people, NOW);
const cents = (x: number) => Math.round(x * 100);

describe('people as Zoho records', () => {
  it('makes every person exactly one Lead or Contact, in one id space ordered like the people', () => {
    expect(ds.Leads.length + ds.Contacts.length).toBe(people.length);
    const ids = [...ds.Leads, ...ds.Contacts].map((r) => r.id);
    expect(new Set(ids).size).toBe(people.length);
    for (const p of people) expect(personIdOfRecord(personRecordId(p.id))).toBe(p.id);
    expect(ids.every((id) => id.length === 19)).toBe(true);
    const contactIds = ds.Contacts.map((r) => r.id);
    expect([...contactIds].sort()).toEqual(contactIds);
  });

  it('puts buyers and opportunity-or-later stages in Contacts, the rest in Leads', () => {
    const contacts = new Set(ds.Contacts.map((r) => personIdOfRecord(r.id)));
    for (const p of people) {
      expect(contacts.has(p.id)).toBe(isContactPerson(p));
      if (p.purchases.length > 0) expect(contacts.has(p.id)).toBe(true);
      if (p.stage === 'subscriber' && p.purchases.length === 0) expect(contacts.has(p.id)).toBe(false);
    }
    expect(ds.Leads.length).toBeGreaterThan(1000);
    expect(ds.Contacts.length).toBeGreaterThan(800);
  });

  it('keeps every field of the person (stage by its label, address, company through the account)', () => {
    const byPerson = new Map([...ds.Leads, ...ds.Contacts].map((r) => [personIdOfRecord(r.id)!, r]));
    const accounts = new Map(ds.Accounts.map((a) => [a.id, a]));
    for (const p of people) {
      const r = byPerson.get(p.id)!;
      expect([r.First_Name, r.Last_Name, r.Email]).toEqual([p.firstName, p.lastName, p.email]);
      expect(r.Lifecycle_Stage).toBe(p.stage ? LIFECYCLE_STAGE_LABELS[p.stage] : null);
      expect(r.Created_Time).toBe(Math.floor(p.createdAt / 1000) * 1000);
      if (isContactPerson(p)) {
        expect([r.Mailing_City, r.Mailing_State, r.Mailing_Country]).toEqual([p.city, p.state, p.country]);
        expect(r.Account_Name === null ? null : accounts.get(String(r.Account_Name))!.Account_Name).toBe(p.company);
      } else {
        expect([r.City, r.State, r.Country, r.Company]).toEqual([p.city, p.state, p.country, p.company]);
      }
    }
  });

  it('has one won deal per purchase: the latest is the last purchase, their sum the lifetime value in cents', () => {
    const won = new Map<number, { date: number; amount: number }[]>();
    for (const d of ds.Deals) {
      if (d.Stage !== WON_STAGE) continue;
      const pid = personIdOfRecord(String(d.Contact_Name))!;
      won.set(pid, [...(won.get(pid) ?? []), { date: Number(d.Closing_Date), amount: Number(d.Amount) }]);
    }
    let buyers = 0;
    for (const p of people) {
      const deals = won.get(p.id) ?? [];
      expect(deals.length).toBe(p.purchases.length);
      if (!deals.length) continue;
      buyers++;
      expect(deals.reduce((s, d) => s + cents(d.amount), 0)).toBe(cents(p.lifetimeValue!));
      const last = Math.max(...deals.map((d) => d.date));
      expect(new Date(last).toISOString().slice(0, 10)).toBe(new Date(p.lastPurchaseAt!).toISOString().slice(0, 10));
    }
    expect(buyers).toBeGreaterThan(500);
  });

  it('also has open and lost deals, so a connector must filter on the stage', () => {
    const stages = new Set(ds.Deals.map((d) => d.Stage));
    expect(stages.has('Closed Lost')).toBe(true);
    expect([...stages].filter((s) => s !== WON_STAGE && s !== 'Closed Lost').length).toBeGreaterThan(0);
    expect(new Set(ds.Deals.map((d) => d.id)).size).toBe(ds.Deals.length);
  });

  it('is deterministic', () => {
    expect(JSON.stringify(toZohoDataset(generatePeople({ count: 3000, seed: 11, now: NOW }), NOW))).toBe(JSON.stringify(ds));
  });
});
