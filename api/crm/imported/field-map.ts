/**
 * The field map of imported contacts: which of the file's columns holds each customer field (chosen
 * when the file is imported) and which lifecycle values mean which stage. The stage vocabulary below is
 * what CRM exports write in their lifecycle / lead-status columns (HubSpot's options and labels,
 * Salesforce lead statuses, Zoho lead statuses, Pipedrive labels, plain words); a value it does not know
 * is "unknown" until the user maps it in the import preview. Keys are compared trimmed and lower-cased
 * (field-map.ts `detailedStage`).
 */
import type { FieldMap } from '../field-map.js';
import { LIFECYCLE_OPTIONS, type LifecycleValue } from '../hubspot/model/index.js';

const WORDS: Record<LifecycleValue, string[]> = {
  subscriber: ['subscriber', 'subscribers', 'newsletter subscriber', 'subscribed', 'newsletter'],
  lead: [
    'lead', 'leads', 'new', 'new lead', 'open', 'open - not contacted', 'not contacted', 'working', 'working - contacted',
    'contacted', 'attempted to contact', 'contact in future', 'nurturing', 'nurture', 'prospect', 'hot lead', 'warm lead',
    'cold lead', 'raw lead',
  ],
  marketingqualifiedlead: ['marketing qualified lead', 'marketingqualifiedlead', 'marketing qualified', 'mql'],
  salesqualifiedlead: ['sales qualified lead', 'salesqualifiedlead', 'sales qualified', 'sql', 'qualified', 'pre-qualified', 'sales accepted lead', 'sal'],
  opportunity: ['opportunity', 'opportunities', 'negotiation', 'in negotiation', 'proposal', 'proposal sent', 'open deal'],
  customer: [
    'customer', 'customers', 'client', 'clients', 'closed won', 'closed - won', 'won', 'closed - converted', 'converted',
    'active customer', 'paying customer',
  ],
  evangelist: ['evangelist', 'advocate', 'promoter', 'champion', 'ambassador'],
  other: [
    'other', 'unqualified', 'not qualified', 'disqualified', 'junk lead', 'lost lead', 'closed - not converted', 'closed lost',
    'closed - lost', 'lost',
  ],
};

/** Lifecycle value (lower-cased) → detailed stage: HubSpot's option values and labels, and the words above. */
export const STAGE_VOCABULARY: Readonly<Record<string, LifecycleValue>> = Object.freeze(
  Object.fromEntries([
    ...LIFECYCLE_OPTIONS.flatMap((o) => [[o.value, o.value] as const, [o.label.toLowerCase(), o.value] as const]),
    ...Object.entries(WORDS).flatMap(([stage, words]) => words.map((w) => [w, stage as LifecycleValue] as const)),
  ]),
);

/** The defaults: generic column names (an import replaces them with the file's own) and the vocabulary. */
export const IMPORTED_FIELD_MAP: FieldMap = {
  fields: {
    firstName: 'First Name',
    lastName: 'Last Name',
    email: 'Email',
    company: 'Company',
    lifecycleStage: 'Lifecycle Stage',
    lastPurchaseDate: 'Last Purchase Date',
    lastPurchaseAmount: 'Last Purchase Amount',
    lifetimeValue: 'Lifetime Value',
    city: 'City',
    state: 'State',
    country: 'Country',
    createdAt: 'Created',
  },
  stages: { ...STAGE_VOCABULARY },
};
