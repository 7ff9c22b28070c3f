import { describe, expect, it } from 'vitest';
import { generatePeople } from '../synthetic-people/index.js';
import { canonicalId, idSuffix, makeId } from '../salesforce/model/ids.js';
import { CONTACT_STAGE_OPTIONS, LEAD_STATUSES, NOT_PROVIDED } from '../salesforce/model/org.js';
import { createSalesforceSandbox } from './app.js';
import { isContactPerson, type Row } from './data.js';

const NOW = '2026-06-15T12:00:00Z';
const sb = createSalesforceSandbox({ contactCount: 3000, seed: 7, now: NOW });
const { rows } = sb.org;
const people = generatePeople({ count: 3000, seed: 7, now: NOW });
const cents = (x: number) => Math.round(x * 100);

describe('Salesforce ids', () => {
  it('computes the case-safe suffix and restores an 18-character id typed in any case', () => {
    // A documented example: 001A0000006Vm9r → 001A0000006Vm9rIAC
    expect(idSuffix('001A0000006Vm9r')).toBe('IAC');
    expect(canonicalId('001A0000006Vm9r')).toBe('001A0000006Vm9rIAC');
    expect(canonicalId('001a0000006vm9riac')).toBe('001A0000006Vm9rIAC');
    expect(canonicalId('001A0000006Vm9')).toBeNull();
    expect(canonicalId('001A0000006Vm9r-AC')).toBeNull();
  });

  it('makes ids whose order is the order of their numbers', () => {
    const ids = [1, 61, 62, 63, 3843, 3844, 238_327].map((n) => makeId('003', n));
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(canonicalId(id)).toBe(id);
  });
});

describe('the org built from the synthetic people', () => {
  it('is the same people as the HubSpot sandbox, each exactly once as an unconverted Lead or a Contact', () => {
    const unconverted = rows.Lead.filter((l) => l.IsConverted === false);
    expect(unconverted.length + rows.Contact.length).toBe(people.length);
    const seen = new Set<number>();
    for (const r of [...unconverted, ...rows.Contact]) {
      const p = sb.personOf(r.Id as string)!;
      expect(p).toBeDefined();
      expect(seen.has(p.id)).toBe(false);
      seen.add(p.id);
    }
    expect(seen.size).toBe(people.length);
  });

  it('puts buyers and opportunity/customer/evangelist/no-stage people in Contacts, the rest in Leads', () => {
    for (const p of people) {
      const rec = sb.org.recordOf.get(p.id)!;
      expect(rec.object).toBe(isContactPerson(p) ? 'Contact' : 'Lead');
      if (p.purchases.length > 0 || p.stage === null || ['opportunity', 'customer', 'evangelist'].includes(p.stage)) expect(rec.object).toBe('Contact');
    }
    // both kinds are well represented
    expect(rows.Contact.length).toBeGreaterThan(1000);
    expect(rows.Lead.filter((l) => !l.IsConverted).length).toBeGreaterThan(1000);
  });

  it('keeps names, e-mail, company, place and creation time (to the second); [not provided] where Salesforce requires a value', () => {
    for (const r of [...rows.Lead.filter((l) => !l.IsConverted), ...rows.Contact]) {
      const p = sb.personOf(r.Id as string)!;
      const isLead = (r.Id as string).startsWith('00Q');
      expect(r.FirstName).toBe(p.firstName);
      expect(r.LastName).toBe(p.lastName ?? NOT_PROVIDED);
      expect(r.Email).toBe(p.email);
      expect(r.CreatedDate).toBe(Math.floor(p.createdAt / 1000) * 1000);
      expect(isLead ? r.City : r.MailingCity).toBe(p.city);
      expect(isLead ? r.State : r.MailingState).toBe(p.state);
      expect(isLead ? r.Country : r.MailingCountry).toBe(p.country);
      if (isLead) expect(r.Company).toBe(p.company ?? NOT_PROVIDED);
      else {
        const account = r.AccountId ? sb.store.get('Account', r.AccountId as string) : null;
        expect(account ? account.Name : null).toBe(p.company);
      }
    }
  });

  it('says the stage with Lead Status and the contact lifecycle field', () => {
    const statusStage = new Map(LEAD_STATUSES.map((s) => [s.value, s.stage]));
    const fieldStage = new Map(CONTACT_STAGE_OPTIONS.map((o) => [o.value, o.stage]));
    const statuses = new Set<string>();
    for (const l of rows.Lead.filter((x) => !x.IsConverted)) {
      statuses.add(l.Status as string);
      expect(statusStage.get(l.Status as string)).toBe(sb.personOf(l.Id as string)!.stage);
    }
    expect([...statuses].sort()).toEqual(['Closed - Not Converted', 'Marketing Qualified', 'Nurturing', 'Open - Not Contacted', 'Sales Qualified', 'Working - Contacted']);
    for (const c of rows.Contact) {
      const stage = sb.personOf(c.Id as string)!.stage;
      expect(c.Lifecycle_Stage__c === null ? null : fieldStage.get(c.Lifecycle_Stage__c as string)).toBe(stage);
    }
  });

  it('makes every purchase a won opportunity with the buyer as primary contact role: the sums are the lifetime value to the cent', () => {
    const won = (contactId: string) =>
      sb.store
        .children('OpportunityContactRole', 'ContactId', contactId)
        .map((r) => sb.store.get('Opportunity', r.OpportunityId as string)!)
        .filter((o) => o.IsWon === true);
    let buyers = 0;
    for (const c of rows.Contact) {
      const p = sb.personOf(c.Id as string)!;
      const opps = won(c.Id as string);
      expect(opps.length).toBe(p.purchases.length);
      if (!p.purchases.length) continue;
      buyers++;
      expect(opps.reduce((s, o) => s + cents(o.Amount as number), 0)).toBe(cents(p.lifetimeValue!));
      // the last purchase: latest CloseDate, ties broken by the higher id
      const last = [...opps].sort((a, b) => (a.CloseDate === b.CloseDate ? ((a.Id as string) < (b.Id as string) ? 1 : -1) : (a.CloseDate as string) < (b.CloseDate as string) ? 1 : -1))[0];
      expect(last.CloseDate).toBe(new Date(p.lastPurchaseAt!).toISOString().slice(0, 10));
      expect(last.Amount).toBe(p.lastPurchaseAmount);
      expect(last.AccountId).toBe(c.AccountId);
      expect(last.StageName).toBe('Closed Won');
      // the rollup fields agree
      expect(c.Lifetime_Value__c).toBe(p.lifetimeValue);
      expect(c.Last_Purchase_Date__c).toBe(last.CloseDate);
    }
    expect(buyers).toBeGreaterThan(500);
  });

  it('adds noise that changes no answer: converted leads, lost and open deals, colleagues on contact roles', () => {
    const converted = rows.Lead.filter((l) => l.IsConverted === true);
    expect(converted.length).toBeGreaterThan(200);
    for (const l of converted) {
      expect(l.Status).toBe('Closed - Converted');
      const contact = sb.store.get('Contact', l.ConvertedContactId as string)!;
      expect(contact).toBeDefined();
      expect(l.Email).toBe(contact.Email);
      expect(sb.personOf(l.Id as string)).toBeUndefined();
    }
    const lost = rows.Opportunity.filter((o) => o.IsClosed === true && o.IsWon === false);
    const open = rows.Opportunity.filter((o) => o.IsClosed === false);
    expect(lost.length).toBeGreaterThan(100);
    expect(open.length).toBeGreaterThan(50);
    for (const o of open) expect(o.CloseDate as string > NOW.slice(0, 10)).toBe(true);
    const rolesPerOpp = new Map<string, number>();
    for (const r of rows.OpportunityContactRole) rolesPerOpp.set(r.OpportunityId as string, (rolesPerOpp.get(r.OpportunityId as string) ?? 0) + 1);
    expect([...rolesPerOpp.values()].some((n) => n > 1)).toBe(true);
    const wonIds = new Set(rows.Opportunity.filter((o) => o.IsWon).map((o) => o.Id));
    for (const [opp, n] of rolesPerOpp) if (wonIds.has(opp)) expect(n).toBe(1);
  });

  it('is deterministic (same seed, count and time → the same org, ids included)', () => {
    const again = createSalesforceSandbox({ contactCount: 3000, seed: 7, now: NOW });
    const key = (list: Row[]) => JSON.stringify(list.map((r) => [r.Id, r.Name ?? null, r.Amount ?? null, r.CloseDate ?? null]));
    for (const k of ['Lead', 'Contact', 'Account', 'Opportunity', 'OpportunityContactRole'] as const) expect(key(again.org.rows[k])).toBe(key(rows[k]));
  });

  it('leaves out the custom fields when asked (an org without them)', () => {
    const bare = createSalesforceSandbox({ contactCount: 50, seed: 1, now: NOW, contactStageField: false, rollupFields: false });
    const contact = bare.schema.object('Contact')!;
    expect(bare.schema.field(contact, 'Lifecycle_Stage__c')).toBeUndefined();
    expect(bare.schema.field(contact, 'Lifetime_Value__c')).toBeUndefined();
    expect('Lifecycle_Stage__c' in bare.org.rows.Contact[0]).toBe(false);
  });
});
