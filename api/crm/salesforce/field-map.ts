/**
 * Salesforce's field map: which field of a Lead and of a Contact holds each customer field.
 *
 * People live in two objects with different field names (a Lead's `City` is a Contact's `MailingCity`,
 * a Lead's `Company` is the name of a Contact's Account), so a field-map value names either
 *  - a pair from the catalog below ("City", "Company", "Stage", ...),
 *  - `Lead.X` or `Contact.X` (that object's field or relationship path; the other object has no value),
 *  - `Lead.X|Contact.Y` (an explicit pair), or
 *  - `X` (a field with that API name on both objects, e.g. a custom field created on both).
 * Purchases are derived by default: `WonOpportunities.*` read the contact's won opportunities through
 * OpportunityContactRole (last CloseDate, its Amount, the sum of the Amounts). An org that keeps
 * rollups on the contact can choose them instead (e.g. `Contact.Lifetime_Value__c`).
 */
import type { FieldMap, MappableField } from '../field-map.js';
import { MAPPABLE_FIELD_KINDS } from '../field-map.js';
import type { LifecycleValue } from '../hubspot/model/index.js';
import { CONTACT_STAGE_FIELD, CONTACT_STAGE_OPTIONS, LEAD_STATUSES } from './model/org.js';

export type SfObject = 'Lead' | 'Contact';
export type DerivedPurchase = 'lastCloseDate' | 'lastAmount' | 'totalAmount';
export type ValueType = 'text' | 'stage' | 'number' | 'datetime' | 'date' | 'unknown-date';

/** Where one object keeps a customer field. */
export type Side =
  | { kind: 'none' }
  | { kind: 'field'; path: string; type: ValueType; notProvided?: boolean }
  | { kind: 'derived'; what: DerivedPurchase };

interface CatalogEntry {
  label: string;
  description: string;
  kind: 'text' | 'number' | 'date' | 'stage';
  lead: Side;
  contact: Side;
}

const field = (path: string, type: ValueType, notProvided = false): Side => ({ kind: 'field', path, type, ...(notProvided ? { notProvided } : {}) });
const NONE: Side = { kind: 'none' };

/** Pairs the product knows on every org (standard fields, and the derived purchase values). */
export const CATALOG: Record<string, CatalogEntry> = {
  FirstName: { label: 'First Name', description: 'Lead and Contact: First Name', kind: 'text', lead: field('FirstName', 'text'), contact: field('FirstName', 'text') },
  LastName: { label: 'Last Name', description: 'Lead and Contact: Last Name ("[not provided]" counts as empty)', kind: 'text', lead: field('LastName', 'text', true), contact: field('LastName', 'text', true) },
  Email: { label: 'Email', description: 'Lead and Contact: Email', kind: 'text', lead: field('Email', 'text'), contact: field('Email', 'text') },
  Company: { label: 'Company / Account Name', description: "Lead: Company; Contact: the name of the contact's Account", kind: 'text', lead: field('Company', 'text', true), contact: field('Account.Name', 'text') },
  City: { label: 'City', description: 'Lead: City; Contact: Mailing City', kind: 'text', lead: field('City', 'text'), contact: field('MailingCity', 'text') },
  State: { label: 'State/Province', description: 'Lead: State/Province; Contact: Mailing State/Province', kind: 'text', lead: field('State', 'text'), contact: field('MailingState', 'text') },
  Country: { label: 'Country', description: 'Lead: Country; Contact: Mailing Country', kind: 'text', lead: field('Country', 'text'), contact: field('MailingCountry', 'text') },
  Stage: { label: 'Lead Status / Contact Lifecycle Stage', description: `Lead: Status; Contact: ${CONTACT_STAGE_FIELD}`, kind: 'stage', lead: field('Status', 'stage'), contact: field(CONTACT_STAGE_FIELD, 'stage') },
  CreatedDate: { label: 'Created Date', description: 'Lead and Contact: Created Date', kind: 'date', lead: field('CreatedDate', 'datetime'), contact: field('CreatedDate', 'datetime') },
  'WonOpportunities.LastCloseDate': {
    label: 'Last won opportunity: Close Date',
    description: 'The latest Close Date of the closed-won opportunities on which the contact has a contact role (leads have none)',
    kind: 'date', lead: NONE, contact: { kind: 'derived', what: 'lastCloseDate' },
  },
  'WonOpportunities.LastAmount': {
    label: 'Last won opportunity: Amount',
    description: 'The Amount of the latest closed-won opportunity on which the contact has a contact role',
    kind: 'number', lead: NONE, contact: { kind: 'derived', what: 'lastAmount' },
  },
  'WonOpportunities.TotalAmount': {
    label: 'Won opportunities: total Amount',
    description: 'The sum of the Amounts of the closed-won opportunities on which the contact has a contact role',
    kind: 'number', lead: NONE, contact: { kind: 'derived', what: 'totalAmount' },
  },
};

const TYPE_OF_KIND: Record<(typeof MAPPABLE_FIELD_KINDS)[MappableField], ValueType> = { text: 'text', number: 'number', date: 'unknown-date', stage: 'stage' };

/** How `object` reads the customer field `f` under `map`. */
export function sideOf(map: FieldMap, f: MappableField, object: SfObject): Side {
  const name = map.fields[f];
  const entry = CATALOG[name];
  if (entry) return object === 'Lead' ? entry.lead : entry.contact;
  const type = TYPE_OF_KIND[MAPPABLE_FIELD_KINDS[f]];
  const parts = name.split('|').map((p) => p.trim());
  for (const part of parts) {
    const dot = part.indexOf('.');
    const owner = dot > 0 ? part.slice(0, dot) : '';
    if (owner === 'Lead' || owner === 'Contact') {
      if (owner === object) return sideFor(part.slice(dot + 1), type, object);
    } else if (parts.length === 1) return sideFor(part, type, object);
  }
  return NONE;
}

function sideFor(path: string, type: ValueType, object: SfObject): Side {
  // Salesforce itself writes "[not provided]" into these required fields.
  const notProvided = path === 'LastName' || (object === 'Lead' && path === 'Company');
  if (path === 'CreatedDate' || path === 'LastModifiedDate' || path === 'SystemModstamp') return field(path, 'datetime');
  if (path === 'ConvertedDate') return field(path, 'date');
  return field(path, type, notProvided);
}

/** Lead Status and contact stage values (lower-cased) → the product's detailed stage. */
export function defaultStages(): Record<string, LifecycleValue> {
  const stages: Record<string, LifecycleValue> = {};
  for (const s of LEAD_STATUSES) if (s.stage) stages[s.value.toLowerCase()] = s.stage;
  for (const o of CONTACT_STAGE_OPTIONS) stages[o.value.toLowerCase()] = o.stage;
  // Values other orgs commonly use (the field-map dialog edits the list for an org's own values).
  const common: Array<[string, LifecycleValue]> = [
    ['open', 'lead'], ['new', 'lead'], ['contacted', 'lead'], ['working', 'lead'], ['nurture', 'subscriber'],
    ['mql', 'marketingqualifiedlead'], ['sql', 'salesqualifiedlead'], ['qualified', 'salesqualifiedlead'],
    ['unqualified', 'other'], ['disqualified', 'other'],
  ];
  for (const [value, stage] of common) stages[value] ??= stage;
  return stages;
}

export const SALESFORCE_FIELD_MAP: FieldMap = {
  fields: {
    firstName: 'FirstName',
    lastName: 'LastName',
    email: 'Email',
    company: 'Company',
    lifecycleStage: 'Stage',
    lastPurchaseDate: 'WonOpportunities.LastCloseDate',
    lastPurchaseAmount: 'WonOpportunities.LastAmount',
    lifetimeValue: 'WonOpportunities.TotalAmount',
    city: 'City',
    state: 'State',
    country: 'Country',
    createdAt: 'CreatedDate',
  },
  stages: defaultStages(),
};

/** Whether any customer field is derived from won opportunities (the contact query then reads them). */
export function readsWonOpportunities(map: FieldMap): boolean {
  return (['lastPurchaseDate', 'lastPurchaseAmount', 'lifetimeValue'] as const).some((f) => sideOf(map, f, 'Contact').kind === 'derived');
}
