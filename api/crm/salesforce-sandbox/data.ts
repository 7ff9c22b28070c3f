/**
 * The sandbox org's records: the shared synthetic people (../synthetic-people) in Salesforce's object
 * model, deterministically (same seed, count and reference time → the same org, ids included).
 *
 * Who becomes what (the mapping the README documents):
 *  - a person who bought, or whose stage is opportunity / customer / evangelist, or who has no stage,
 *    is a **Contact**; the stage goes to `Lifecycle_Stage__c` (HubSpot's option label), the company to
 *    the contact's **Account** (one per company; none when the person's company is blank);
 *  - everyone else (subscriber, lead, MQL, SQL, other, no purchase) is an unconverted **Lead** whose
 *    `Status` says the stage (see salesforce/model/org.ts; "lead" is "Open - Not Contacted" or
 *    "Working - Contacted"), company in `Company`;
 *  - each purchase is a won **Opportunity** (`CloseDate` = the UTC date of the purchase, `Amount`) on
 *    the account, with an **OpportunityContactRole** (primary) for the buyer;
 *  - noise the product must see through: converted leads (`IsConverted = true`) for 70 % of the
 *    contacts who are customers, evangelists or opportunities; lost and open opportunities (with an
 *    occasional colleague as a second contact role); both leave every answer unchanged.
 * Required fields Salesforce will not leave empty (LastName, and Lead.Company) hold "[not provided]"
 * when the person has none. Datetimes are kept to the second, as Salesforce stores them.
 *
 * Values are typed: datetimes as epoch milliseconds, dates as "YYYY-MM-DD", numbers, booleans, strings,
 * `null` for no value.
 */
import { generatePeople, mulberry32, resolveReferenceNow, type GeneratePeopleOptions, type SyntheticPerson } from '../synthetic-people/index.js';
import { KEY_PREFIXES, makeId } from '../salesforce/model/ids.js';
import {
  CONTACT_STAGE_FIELD, CONTACT_STAGE_OPTIONS, CONVERTED_LEAD_STATUS, LEAD_STATUSES, LOST_STAGE, NOT_PROVIDED, OPEN_STAGES, WON_STAGE,
} from '../salesforce/model/org.js';
import type { LifecycleValue } from '../hubspot/model/index.js';

export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

export interface OrgIdentity {
  orgId: string;
  orgName: string;
  userId: string;
  username: string;
  userEmail: string;
  userFirstName: string;
  userLastName: string;
  timeZone: string;
  locale: string;
  language: string;
  edition: string;
  instanceName: string;
  fiscalYearStartMonth: number;
}

export interface OrgData {
  people: readonly SyntheticPerson[];
  rows: {
    Lead: Row[];
    Contact: Row[];
    Account: Row[];
    Opportunity: Row[];
    OpportunityContactRole: Row[];
    User: Row[];
    Organization: Row[];
  };
  /** Lead / Contact id → the synthetic person's id (for tests comparing CRMs; converted leads excluded) */
  personIdOf: Map<string, number>;
  /** person id → the record that represents them */
  recordOf: Map<number, { object: 'Lead' | 'Contact'; id: string }>;
}

export interface BuildOrgOptions extends GeneratePeopleOptions {
  identity: OrgIdentity;
  /** Contact carries Lifecycle_Stage__c (default true) */
  contactStageField?: boolean;
  /** Contact carries the Lifetime_Value__c / Last_Purchase_*__c rollups (default true) */
  rollupFields?: boolean;
}

const DAY = 86_400_000;
const CONTACT_STAGES: ReadonlySet<LifecycleValue> = new Set(['opportunity', 'customer', 'evangelist']);
const STAGE_LABEL = new Map(CONTACT_STAGE_OPTIONS.map((o) => [o.stage, o.value]));
const LEAD_SOURCES = ['Web', 'Web', 'Web', 'Phone Inquiry', 'Partner Referral', 'Purchased List', 'Other'];
const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function leadStatusOf(stage: LifecycleValue, u: number): string {
  if (stage === 'lead') return u < 0.6 ? 'Open - Not Contacted' : 'Working - Contacted';
  const status = LEAD_STATUSES.find((s) => s.stage === stage);
  if (!status) throw new Error(`no lead status for stage ${stage}`);
  return status.value;
}

/** Is this person a contact (vs an unconverted lead)? */
export function isContactPerson(p: SyntheticPerson): boolean {
  return p.purchases.length > 0 || p.stage === null || CONTACT_STAGES.has(p.stage);
}

export function buildOrg(options: BuildOrgOptions): OrgData {
  const people = generatePeople(options);
  return buildOrgFromPeople(people, { ...options, referenceNow: resolveReferenceNow(options.now) });
}

/**
 * The org of given people. `referenceNow` is the data's "now" (the generator's): open opportunities
 * close after it.
 */
export function buildOrgFromPeople(
  people: readonly SyntheticPerson[],
  options: Omit<BuildOrgOptions, keyof GeneratePeopleOptions> & { referenceNow: number },
): OrgData {
  const { identity, referenceNow: now } = options;
  const stageField = options.contactStageField !== false;
  const rollups = options.rollupFields !== false;
  const seed = 0x5a1e5f0c;
  const owner = identity.userId;
  const audit = (created: number, modified: number): Row => ({
    IsDeleted: false,
    CreatedDate: seconds(created),
    CreatedById: owner,
    LastModifiedDate: seconds(Math.max(created, modified)),
    LastModifiedById: owner,
    SystemModstamp: seconds(Math.max(created, modified)),
  });

  const rows: OrgData['rows'] = { Lead: [], Contact: [], Account: [], Opportunity: [], OpportunityContactRole: [], User: [], Organization: [] };
  const personIdOf = new Map<string, number>();
  const recordOf = new Map<number, { object: 'Lead' | 'Contact'; id: string }>();

  // Accounts: one per company that has at least one contact, in order of first contact.
  const accountOfDomain = new Map<string, Row>();
  const contactsOfAccount = new Map<string, string[]>();
  for (const p of people) {
    if (!isContactPerson(p) || p.company === null || p.companyDomain === null) continue;
    let account = accountOfDomain.get(p.companyDomain);
    if (!account) {
      account = {
        Id: makeId(KEY_PREFIXES.Account, accountOfDomain.size + 1),
        ...audit(p.createdAt, p.createdAt),
        OwnerId: owner,
        Name: p.company,
        Type: 'Prospect',
        Website: `www.${p.companyDomain}`,
        BillingCity: p.city,
        BillingState: p.state,
        BillingCountry: p.country,
      };
      accountOfDomain.set(p.companyDomain, account);
      rows.Account.push(account);
      contactsOfAccount.set(account.Id as string, []);
    }
    contactsOfAccount.get(account.Id as string)!.push(makeId(KEY_PREFIXES.Contact, p.id));
  }

  let oppSeq = 0;
  let roleSeq = 0;
  const addRole = (opportunityId: string, contactId: string, role: string, primary: boolean, created: number) => {
    rows.OpportunityContactRole.push({
      Id: makeId(KEY_PREFIXES.OpportunityContactRole, ++roleSeq),
      ...audit(created, created),
      OpportunityId: opportunityId,
      ContactId: contactId,
      Role: role,
      IsPrimary: primary,
    });
  };

  for (const p of people) {
    // A PRNG of the person's own, so the org's extra records never move the shared people.
    const rng = mulberry32((seed ^ Math.imul(p.id, 0x85ebca6b)) >>> 0);
    const leadSource = LEAD_SOURCES[Math.floor(rng() * LEAD_SOURCES.length)];
    const created = seconds(p.createdAt);

    if (!isContactPerson(p)) {
      const id = makeId(KEY_PREFIXES.Lead, p.id);
      rows.Lead.push({
        Id: id,
        ...audit(created, p.updatedAt),
        OwnerId: owner,
        LastName: p.lastName ?? NOT_PROVIDED,
        FirstName: p.firstName,
        Name: fullName(p.firstName, p.lastName ?? NOT_PROVIDED),
        Title: null,
        Company: p.company ?? NOT_PROVIDED,
        City: p.city,
        State: p.state,
        Country: p.country,
        Address: null,
        Email: p.email,
        LeadSource: leadSource,
        Status: leadStatusOf(p.stage!, rng()),
        IsConverted: false,
        ConvertedDate: null,
        ConvertedAccountId: null,
        ConvertedContactId: null,
        ConvertedOpportunityId: null,
        IsUnreadByOwner: false,
      });
      personIdOf.set(id, p.id);
      recordOf.set(p.id, { object: 'Lead', id });
      continue;
    }

    const contactId = makeId(KEY_PREFIXES.Contact, p.id);
    const account = p.company !== null && p.companyDomain !== null ? accountOfDomain.get(p.companyDomain)! : null;
    const accountId = account ? (account.Id as string) : null;
    const title = account ? (account.Name as string) : fullName(p.firstName, p.lastName ?? NOT_PROVIDED);
    const opportunityIds: string[] = [];

    // Won opportunities: the person's purchases, oldest first (ids increase with them).
    p.purchases.forEach((purchase, k) => {
      const id = makeId(KEY_PREFIXES.Opportunity, ++oppSeq);
      const oppCreated = seconds(Math.max(p.createdAt, purchase.closedAt - Math.floor((7 + rng() * 83) * DAY)));
      rows.Opportunity.push({
        Id: id,
        ...audit(oppCreated, purchase.closedAt),
        OwnerId: owner,
        AccountId: accountId,
        Name: `${title} - ${k === 0 ? 'New Business' : 'Expansion'} ${utcDate(purchase.closedAt).slice(0, 7)}`,
        StageName: WON_STAGE,
        Amount: purchase.amount,
        Probability: 100,
        CloseDate: utcDate(purchase.closedAt),
        Type: k === 0 ? 'New Customer' : 'Existing Customer - Upgrade',
        LeadSource: leadSource,
        IsClosed: true,
        IsWon: true,
        ForecastCategoryName: 'Closed',
      });
      addRole(id, contactId, rng() < 0.7 ? 'Decision Maker' : 'Economic Buyer', true, oppCreated);
      opportunityIds.push(id);
    });
    if (account && p.purchases.length > 0) account.Type = 'Customer - Direct';

    // A lost deal now and then, and an open one for people in the opportunity stage.
    const colleagues = accountId ? contactsOfAccount.get(accountId)!.filter((c) => c !== contactId) : [];
    const extra = (kind: 'lost' | 'open') => {
      const id = makeId(KEY_PREFIXES.Opportunity, ++oppSeq);
      const amount = Math.round(Math.exp(Math.log(1200) + 0.9 * (rng() + rng() + rng() - 1.5)) * 100) / 100;
      const oppCreated = seconds(p.createdAt + (now - p.createdAt) * rng() * 0.8);
      const open = kind === 'open';
      const stage = open ? OPEN_STAGES[Math.floor(rng() * OPEN_STAGES.length)] : LOST_STAGE;
      rows.Opportunity.push({
        Id: id,
        ...audit(oppCreated, oppCreated),
        OwnerId: owner,
        AccountId: accountId,
        Name: `${title} - ${open ? 'Proposal' : 'Renewal'} ${utcDate(oppCreated).slice(0, 7)}`,
        StageName: stage,
        Amount: amount,
        Probability: open ? 10 + 10 * (OPEN_STAGES.indexOf(stage as (typeof OPEN_STAGES)[number]) + 1) : 0,
        CloseDate: open ? utcDate(now + Math.floor((5 + rng() * 115) * DAY)) : utcDate(oppCreated + Math.floor(rng() * 60 * DAY)),
        Type: p.purchases.length ? 'Existing Customer - Upgrade' : 'New Customer',
        LeadSource: leadSource,
        IsClosed: !open,
        IsWon: false,
        ForecastCategoryName: open ? 'Pipeline' : 'Omitted',
      });
      addRole(id, contactId, 'Decision Maker', true, oppCreated);
      if (colleagues.length && rng() < 0.3) addRole(id, colleagues[Math.floor(rng() * colleagues.length)], 'Influencer', false, oppCreated);
      opportunityIds.push(id);
    };
    if (rng() < 0.12) extra('lost');
    if (p.stage === 'opportunity' && rng() < 0.85) extra('open');

    const last = p.purchases.length ? p.purchases[p.purchases.length - 1] : null;
    const contact: Row = {
      Id: contactId,
      ...audit(created, p.updatedAt),
      OwnerId: owner,
      AccountId: accountId,
      LastName: p.lastName ?? NOT_PROVIDED,
      FirstName: p.firstName,
      Name: fullName(p.firstName, p.lastName ?? NOT_PROVIDED),
      Title: null,
      MailingCity: p.city,
      MailingState: p.state,
      MailingCountry: p.country,
      MailingAddress: null,
      Email: p.email,
      LeadSource: leadSource,
    };
    if (stageField) contact[CONTACT_STAGE_FIELD] = p.stage === null ? null : STAGE_LABEL.get(p.stage)!;
    if (rollups) {
      contact.Lifetime_Value__c = p.lifetimeValue;
      contact.Last_Purchase_Date__c = last ? utcDate(last.closedAt) : null;
      contact.Last_Purchase_Amount__c = last ? last.amount : null;
    }
    rows.Contact.push(contact);
    personIdOf.set(contactId, p.id);
    recordOf.set(p.id, { object: 'Contact', id: contactId });

    // Most qualified contacts came in as leads: the converted lead stays in the org.
    if ((p.stage !== null && CONTACT_STAGES.has(p.stage)) && rng() < 0.7) {
      const leadCreated = seconds(p.createdAt - Math.floor((1 + rng() * 60) * DAY));
      rows.Lead.push({
        Id: makeId(KEY_PREFIXES.Lead, p.id),
        ...audit(leadCreated, p.createdAt),
        OwnerId: owner,
        LastName: p.lastName ?? NOT_PROVIDED,
        FirstName: p.firstName,
        Name: fullName(p.firstName, p.lastName ?? NOT_PROVIDED),
        Title: null,
        Company: p.company ?? NOT_PROVIDED,
        City: p.city,
        State: p.state,
        Country: p.country,
        Address: null,
        Email: p.email,
        LeadSource: leadSource,
        Status: CONVERTED_LEAD_STATUS,
        IsConverted: true,
        ConvertedDate: utcDate(p.createdAt),
        ConvertedAccountId: accountId,
        ConvertedContactId: contactId,
        ConvertedOpportunityId: opportunityIds[0] ?? null,
        IsUnreadByOwner: false,
      });
    }
  }
  rows.Lead.sort((a, b) => ((a.Id as string) < (b.Id as string) ? -1 : 1));
  rows.Opportunity.sort((a, b) => ((a.Id as string) < (b.Id as string) ? -1 : 1));

  const orgCreated = people.length ? seconds(people[0].createdAt - 30 * DAY) : seconds(now - 365 * DAY);
  rows.User.push({
    Id: identity.userId,
    ...audit(orgCreated, orgCreated),
    Username: identity.username,
    LastName: identity.userLastName,
    FirstName: identity.userFirstName,
    Name: fullName(identity.userFirstName, identity.userLastName),
    Email: identity.userEmail,
    IsActive: true,
    TimeZoneSidKey: identity.timeZone,
    LocaleSidKey: identity.locale,
    LanguageLocaleKey: identity.language,
  });
  rows.Organization.push({
    Id: identity.orgId,
    Name: identity.orgName,
    OrganizationType: identity.edition,
    InstanceName: identity.instanceName,
    IsSandbox: false,
    TimeZoneSidKey: identity.timeZone,
    DefaultLocaleSidKey: identity.locale,
    LanguageLocaleKey: identity.language,
    FiscalYearStartMonth: identity.fiscalYearStartMonth,
    CreatedDate: orgCreated,
  });

  return { people, rows, personIdOf, recordOf };
}

function fullName(first: string | null, last: string): string {
  return first ? `${first} ${last}` : last;
}
