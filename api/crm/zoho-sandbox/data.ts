/**
 * The Zoho sandbox's records: the shared synthetic people (../synthetic-people) in Zoho CRM's own object
 * model. The mapping is deterministic (same people → same records, same ids) and is the one documented in
 * the README's Zoho section:
 *
 *  - **Contacts or Leads.** A person who bought (has won deals) or whose stage is opportunity, customer,
 *    evangelist or other is a **Contact** (a converted lead); everyone else (subscriber, lead, MQL, SQL or
 *    no stage, never bought) is a **Lead**. Leads and Contacts share one id space, as in Zoho.
 *  - **Stage.** Both modules carry the custom picklist `Lifecycle_Stage` (the detailed stage by its label,
 *    "Marketing Qualified Lead", ...; empty when the person has none). Leads also get Zoho's own
 *    `Lead_Status`, derived from the stage (subscriber → Not Contacted, lead → Attempted to Contact,
 *    MQL → Pre-Qualified, SQL → Contacted, none → Contact in Future).
 *  - **Company.** A Contact's company is an **Account** (`Account_Name` lookup; one account per company
 *    name, `Website` = the company's domain); a Lead holds it in its text field `Company`. A person whose
 *    company is blank has no account.
 *  - **Purchases.** Every purchase is a **Deal** with `Stage` "Closed Won", its `Amount` and `Closing_Date`
 *    (the UTC calendar date of the purchase instant: Zoho's Closing_Date is a date), linked to the Contact
 *    (`Contact_Name`) and its Account. People at stage opportunity who never bought have one open deal,
 *    and some contacts have a "Closed Lost" deal, so a connector must filter on the stage; those extra
 *    deals come from a PRNG of their own (the person's id), so no other value moves.
 *  - **Address.** Contacts: `Mailing_City`, `Mailing_State`, `Mailing_Country`; Leads: `City`, `State`,
 *    `Country`. **Created/modified:** `Created_Time`, `Modified_Time` (Zoho keeps whole seconds).
 *
 * Where Zoho's default layout makes a field mandatory (Last_Name; a Lead's Company) the sandbox keeps the
 * generator's blanks, so every CRM holds the same people.
 */
import { generatePeople, mulberry32, type GeneratePeopleOptions, type SyntheticPerson } from '../synthetic-people/index.js';
import type { LifecycleValue } from '../hubspot/model/index.js';

export { resolveReferenceNow } from '../synthetic-people/index.js';

/** The labels of the custom `Lifecycle_Stage` picklist, by the detailed stage they hold. */
export const LIFECYCLE_STAGE_LABELS: Readonly<Record<LifecycleValue, string>> = {
  subscriber: 'Subscriber',
  lead: 'Lead',
  marketingqualifiedlead: 'Marketing Qualified Lead',
  salesqualifiedlead: 'Sales Qualified Lead',
  opportunity: 'Opportunity',
  customer: 'Customer',
  evangelist: 'Evangelist',
  other: 'Other',
};

export const LEAD_STATUS_OF_STAGE: Readonly<Record<string, string>> = {
  subscriber: 'Not Contacted',
  lead: 'Attempted to Contact',
  marketingqualifiedlead: 'Pre-Qualified',
  salesqualifiedlead: 'Contacted',
  none: 'Contact in Future',
};

export const WON_STAGE = 'Closed Won';
export const LOST_STAGE = 'Closed Lost';
export const OPEN_DEAL_STAGES = ['Qualification', 'Needs Analysis', 'Proposal/Price Quote', 'Negotiation/Review'] as const;
export const LEAD_SOURCES = ['Advertisement', 'Cold Call', 'Employee Referral', 'Online Store', 'Partner', 'Trade Show', 'Web Download', 'Chat'] as const;

/** Zoho record ids are 19-digit numbers (sent as strings); these prefixes keep each module's range apart. */
const ID_PREFIX = { person: '572576700000', account: '572576700001', deal: '572576700002', user: '572576700003' } as const;
const pad7 = (n: number) => String(n).padStart(7, '0');
export const personRecordId = (personId: number) => `${ID_PREFIX.person}${pad7(personId)}`;
export const accountRecordId = (n: number) => `${ID_PREFIX.account}${pad7(n)}`;
export const dealRecordId = (n: number) => `${ID_PREFIX.deal}${pad7(n)}`;
export const USER_ID = `${ID_PREFIX.user}${pad7(1)}`;
/** The synthetic person a Lead's or Contact's id stands for (tests compare CRMs through it). */
export function personIdOfRecord(recordId: string): number | null {
  return recordId.startsWith(ID_PREFIX.person) && recordId.length === 19 ? Number(recordId.slice(ID_PREFIX.person.length)) : null;
}

/** A field value as the sandbox stores it: text, number, epoch ms (date / datetime), a lookup's id, or null. */
export type StoredValue = string | number | boolean | null;
/** One record: field API name → stored value. `id` is always there. */
export type ZohoRecord = Record<string, StoredValue> & { id: string };

export interface ZohoDataset {
  Leads: ZohoRecord[];
  Contacts: ZohoRecord[];
  Accounts: ZohoRecord[];
  Deals: ZohoRecord[];
  /** the people the records were made from (tests compare CRMs through them) */
  people: SyntheticPerson[];
}

const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
const DAY = 86_400_000;
const utcDay = (ms: number) => Math.floor(ms / DAY) * DAY;

export function isContactPerson(p: SyntheticPerson): boolean {
  return p.purchases.length > 0 || p.stage === 'opportunity' || p.stage === 'customer' || p.stage === 'evangelist' || p.stage === 'other';
}

/** Maps people to Zoho modules. Deterministic: the same people give byte-identical records. */
export function toZohoDataset(people: SyntheticPerson[], now: number): ZohoDataset {
  const Leads: ZohoRecord[] = [];
  const Contacts: ZohoRecord[] = [];
  const Accounts: ZohoRecord[] = [];
  const Deals: ZohoRecord[] = [];
  const accountOf = new Map<string, ZohoRecord>();
  const deals: { at: number; rec: Omit<ZohoRecord, 'id'> }[] = [];

  for (const p of people) {
    const id = personRecordId(p.id);
    const prng = mulberry32((p.id * 2_246_822_519) >>> 0);
    const common = {
      id,
      First_Name: p.firstName,
      Last_Name: p.lastName,
      Full_Name: [p.firstName, p.lastName].filter(Boolean).join(' ') || null,
      Email: p.email,
      Lifecycle_Stage: p.stage ? LIFECYCLE_STAGE_LABELS[p.stage] : null,
      Lead_Source: LEAD_SOURCES[Math.floor(prng() * LEAD_SOURCES.length)],
      Owner: USER_ID,
      Created_Time: seconds(p.createdAt),
      Modified_Time: seconds(p.updatedAt),
    };
    if (!isContactPerson(p)) {
      Leads.push({ ...common, Company: p.company, Lead_Status: LEAD_STATUS_OF_STAGE[p.stage ?? 'none'], City: p.city, State: p.state, Country: p.country });
      continue;
    }
    let account: ZohoRecord | null = null;
    if (p.company) {
      account = accountOf.get(p.company) ?? null;
      if (!account) {
        account = {
          id: accountRecordId(accountOf.size + 1),
          Account_Name: p.company,
          Website: p.companyDomain,
          Owner: USER_ID,
          Created_Time: seconds(p.createdAt),
          Modified_Time: seconds(p.createdAt),
        };
        accountOf.set(p.company, account);
        Accounts.push(account);
      }
    }
    Contacts.push({ ...common, Account_Name: account?.id ?? null, Mailing_City: p.city, Mailing_State: p.state, Mailing_Country: p.country });
    const link = { Contact_Name: id, Account_Name: account?.id ?? null, Owner: USER_ID };
    const who = common.Full_Name ?? p.email ?? id;
    p.purchases.forEach((purchase, k) => {
      deals.push({
        at: purchase.closedAt,
        rec: { ...link, Deal_Name: `${p.company ?? who} — order ${k + 1}`, Stage: WON_STAGE, Amount: purchase.amount, Closing_Date: utcDay(purchase.closedAt), Created_Time: seconds(Math.max(p.createdAt, purchase.closedAt - 14 * DAY)), Modified_Time: seconds(purchase.closedAt) },
      });
    });
    // Open and lost deals (their own PRNG: nothing above moves).
    if (p.stage === 'opportunity' && p.purchases.length === 0) {
      const created = Math.max(p.createdAt, now - Math.floor(prng() * 90) * DAY);
      deals.push({
        at: created,
        rec: { ...link, Deal_Name: `${p.company ?? who} — new deal`, Stage: OPEN_DEAL_STAGES[Math.floor(prng() * OPEN_DEAL_STAGES.length)], Amount: Math.round(300 + prng() * 9000) , Closing_Date: utcDay(now + (5 + Math.floor(prng() * 80)) * DAY), Created_Time: seconds(created), Modified_Time: seconds(created) },
      });
    } else if (prng() < 0.15) {
      const created = p.createdAt + Math.floor(prng() * Math.max(1, now - p.createdAt));
      deals.push({
        at: created,
        rec: { ...link, Deal_Name: `${p.company ?? who} — lost deal`, Stage: LOST_STAGE, Amount: Math.round(200 + prng() * 5000), Closing_Date: utcDay(created), Created_Time: seconds(created), Modified_Time: seconds(created) },
      });
    }
  }
  // Deal ids follow creation order, as Zoho's do.
  deals.sort((a, b) => a.at - b.at || String(a.rec.Contact_Name).localeCompare(String(b.rec.Contact_Name)));
  deals.forEach((d, i) => Deals.push({ id: dealRecordId(i + 1), ...d.rec }));
  return { Leads, Contacts, Accounts, Deals, people };
}

export type GenerateZohoOptions = GeneratePeopleOptions;

export function generateZohoDataset(options: GenerateZohoOptions = {}, now: number): ZohoDataset {
  return toZohoDataset(generatePeople(options), now);
}
