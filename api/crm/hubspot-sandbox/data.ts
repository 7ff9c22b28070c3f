/**
 * The HubSpot sandbox's contacts: the shared synthetic people (../synthetic-people) in HubSpot's
 * property names. Values are stored typed (numbers, epoch-ms datetimes, `null` for "no value"); the
 * HTTP layer renders them as HubSpot does (strings, ISO-8601 datetimes).
 */
import { generatePeople, type GeneratePeopleOptions, type SyntheticPerson } from '../synthetic-people/index.js';

export { resolveReferenceNow, mulberry32 } from '../synthetic-people/index.js';

export interface SandboxContact {
  /** hs_object_id */
  id: number;
  firstname: string | null;
  lastname: string | null;
  email: string | null;
  company: string | null;
  lifecyclestage: string | null;
  /** epoch milliseconds */
  recent_deal_close_date: number | null;
  recent_deal_amount: number | null;
  total_revenue: number | null;
  city: string | null;
  state: string | null;
  country: string | null;
  /** epoch milliseconds */
  createdate: number;
  /** epoch milliseconds */
  lastmodifieddate: number;
}

export type GenerateContactsOptions = GeneratePeopleOptions;

/** A synthetic person as a HubSpot contact. */
export function toSandboxContact(p: SyntheticPerson): SandboxContact {
  return {
    id: p.id,
    firstname: p.firstName,
    lastname: p.lastName,
    email: p.email,
    company: p.company,
    lifecyclestage: p.stage,
    recent_deal_close_date: p.lastPurchaseAt,
    recent_deal_amount: p.lastPurchaseAmount,
    total_revenue: p.lifetimeValue,
    city: p.city,
    state: p.state,
    country: p.country,
    createdate: p.createdAt,
    lastmodifieddate: p.updatedAt,
  };
}

/** Generates `count` HubSpot contacts, ordered by id (= creation order). Deterministic. */
export function generateContacts(options: GenerateContactsOptions = {}): SandboxContact[] {
  return generatePeople(options).map(toSandboxContact);
}
