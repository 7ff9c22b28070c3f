/**
 * What the product knows about a Salesforce org's people, in one place (read by the sandbox that
 * emulates an org and by the connector that reads one).
 *
 * People live in two objects:
 *  - **Lead** (not converted, `IsConverted = false`): prospects not yet qualified into an account. Their
 *    stage is `Status` (a picklist every org has; the values below are the sandbox org's, the standard
 *    four plus three that orgs commonly add). Converted leads stay in the org with `IsConverted = true`
 *    and status "Closed - Converted": they are the same people as their contacts and are never read.
 *  - **Contact** (with an Account = the company): qualified people and customers. Salesforce has no
 *    standard stage field on contacts; orgs that track one keep a custom picklist, here
 *    `Lifecycle_Stage__c` with HubSpot's option labels.
 * Purchases are **won opportunities** (`IsWon = true`): `CloseDate` (a date) and `Amount`, attributed
 * to the contact through `OpportunityContactRole` (not per account: a company's other buyers are not
 * this person's purchases).
 */
import { LIFECYCLE_OPTIONS, type LifecycleValue } from '../../hubspot/model/index.js';

/** What Salesforce writes into a required text field that was left empty (Web-to-Lead, imports). */
export const NOT_PROVIDED = '[not provided]';

export interface LeadStatus {
  value: string;
  /** the product's detailed stage this status means; null for converted leads (never read) */
  stage: LifecycleValue | null;
  converted?: boolean;
  default?: boolean;
}

/** The sandbox org's Lead Status picklist, in display order. */
export const LEAD_STATUSES: readonly LeadStatus[] = [
  { value: 'Open - Not Contacted', stage: 'lead', default: true },
  { value: 'Working - Contacted', stage: 'lead' },
  { value: 'Nurturing', stage: 'subscriber' },
  { value: 'Marketing Qualified', stage: 'marketingqualifiedlead' },
  { value: 'Sales Qualified', stage: 'salesqualifiedlead' },
  { value: 'Closed - Not Converted', stage: 'other' },
  { value: 'Closed - Converted', stage: null, converted: true },
];

export const CONVERTED_LEAD_STATUS = 'Closed - Converted';

/** The custom contact field that holds the lifecycle stage in orgs that track one. */
export const CONTACT_STAGE_FIELD = 'Lifecycle_Stage__c';

/** Its picklist: HubSpot's option labels, one per detailed stage. */
export const CONTACT_STAGE_OPTIONS: readonly { value: string; stage: LifecycleValue }[] = LIFECYCLE_OPTIONS.map((o) => ({
  value: o.label,
  stage: o.value,
}));

export const WON_STAGE = 'Closed Won';
export const LOST_STAGE = 'Closed Lost';
/** The standard open opportunity stages, in order. */
export const OPEN_STAGES = ['Prospecting', 'Qualification', 'Needs Analysis', 'Value Proposition', 'Id. Decision Makers', 'Perception Analysis', 'Proposal/Price Quote', 'Negotiation/Review'] as const;
