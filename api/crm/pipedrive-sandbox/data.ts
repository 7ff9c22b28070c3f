/**
 * The Pipedrive sandbox's company: the shared synthetic people (../synthetic-people) as Pipedrive
 * persons, organizations and deals. The mapping is deterministic (same seed, count and `now` → the same
 * company) and documented in the README ("Object mapping"):
 *
 *   person.id            = the person's id (the same ids as the HubSpot sandbox's contacts)
 *   first_name/last_name = firstName / lastName; name = both joined (Pipedrive requires a name: the
 *                          e-mail, else "Unnamed person", when both are missing)
 *   emails               = [{ value: email, primary: true, label: 'work' }] (empty when no e-mail)
 *   org_id               = an organization per distinct company name (ids in order of first appearance)
 *   label_ids            = the label named after the person's lifecycle stage ("Customer", "Marketing
 *                          qualified lead", ...); some customers also carry "VIP" (a label with no stage)
 *   postal_address       = { locality: city, admin_area_level_1: state, country }
 *   add_time/update_time = createdAt / updatedAt (Pipedrive keeps whole seconds)
 *   custom fields        = "Lifetime value" (monetary, USD) and "Lifecycle stage" (single option), so a
 *                          connection can map either instead of the won deals and labels
 *   deals                = one won deal per purchase (value, won_time = close_time = the purchase), plus
 *                          open and lost deals drawn from a PRNG of the person's own, which are no purchases
 */
import { generatePeople, mulberry32, type GeneratePeopleOptions, type SyntheticPerson } from '../synthetic-people/index.js';
import type { LifecycleValue } from '../hubspot/model/index.js';

export interface PdUser {
  id: number;
  name: string;
  email: string;
  is_admin: boolean;
}

export interface PdLabel {
  id: number;
  label: string;
  color: string;
  /** the detailed stage the label stands for (sandbox bookkeeping, not on the wire) */
  stage: LifecycleValue | null;
}

export interface PdEnumOption {
  id: number;
  label: string;
}

export interface PdAddress {
  value: string;
  locality: string | null;
  admin_area_level_1: string | null;
  country: string | null;
}

export interface PdOrganization {
  id: number;
  name: string;
  owner_id: number;
  /** epoch ms */
  add_time: number;
  update_time: number;
  /** the e-mail domain its people use (sandbox bookkeeping) */
  domain: string | null;
}

export interface PdPerson {
  id: number;
  name: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  org_id: number | null;
  owner_id: number;
  label_ids: number[];
  postal_address: PdAddress | null;
  /** epoch ms, whole seconds */
  add_time: number;
  update_time: number;
  /** custom "Lifetime value" (USD) */
  lifetime_value: number | null;
  /** custom "Lifecycle stage" option id */
  lifecycle_stage: number | null;
}

export type PdDealStatus = 'open' | 'won' | 'lost';

export interface PdDeal {
  id: number;
  title: string;
  person_id: number;
  org_id: number | null;
  owner_id: number;
  value: number;
  currency: string;
  status: PdDealStatus;
  pipeline_id: number;
  stage_id: number;
  /** epoch ms */
  add_time: number;
  update_time: number;
  won_time: number | null;
  lost_time: number | null;
  close_time: number | null;
  expected_close_date: string | null;
  lost_reason: string | null;
}

export interface PdCompanyData {
  companyId: number;
  companyName: string;
  companyDomain: string;
  users: PdUser[];
  labels: PdLabel[];
  lifecycleOptions: PdEnumOption[];
  persons: PdPerson[];
  organizations: PdOrganization[];
  deals: PdDeal[];
  /** the people the company was made from (tests compare answers with them) */
  people: SyntheticPerson[];
}

/** Labels of the sandbox company: one per detailed lifecycle stage, and one that names no stage. */
export const SANDBOX_LABELS: readonly PdLabel[] = [
  { id: 101, label: 'Subscriber', color: 'gray', stage: 'subscriber' },
  { id: 102, label: 'Lead', color: 'blue', stage: 'lead' },
  { id: 103, label: 'Marketing qualified lead', color: 'blue', stage: 'marketingqualifiedlead' },
  { id: 104, label: 'Sales qualified lead', color: 'blue', stage: 'salesqualifiedlead' },
  { id: 105, label: 'Opportunity', color: 'yellow', stage: 'opportunity' },
  { id: 106, label: 'Customer', color: 'green', stage: 'customer' },
  { id: 107, label: 'Evangelist', color: 'green', stage: 'evangelist' },
  { id: 108, label: 'Other', color: 'gray', stage: 'other' },
  { id: 109, label: 'VIP', color: 'purple', stage: null },
];

/** Options of the custom "Lifecycle stage" field (the same names as the labels). */
export const LIFECYCLE_FIELD_OPTIONS: readonly (PdEnumOption & { stage: LifecycleValue })[] = SANDBOX_LABELS.filter((l) => l.stage !== null).map(
  (l, i) => ({ id: 201 + i, label: l.label, stage: l.stage! }),
);

export const SANDBOX_USERS: readonly PdUser[] = [
  { id: 15_873_201, name: 'Dana Demo', email: 'dana@sandbox.pipedrive.local', is_admin: true },
  { id: 15_873_202, name: 'Sam Seller', email: 'sam@sandbox.pipedrive.local', is_admin: false },
];

export const PIPELINE = { id: 1, name: 'Sales pipeline', stages: [1, 2, 3, 4, 5] } as const;

export interface GenerateCompanyOptions extends GeneratePeopleOptions {
  /** use these people instead of generating them */
  people?: SyntheticPerson[];
}

const DAY = 86_400_000;
const toSecond = (ms: number) => Math.floor(ms / 1000) * 1000;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Builds the sandbox company from the synthetic people. Deterministic. */
export function generateCompany(options: GenerateCompanyOptions = {}): PdCompanyData {
  const seed = options.seed ?? 42;
  const people = options.people ?? generatePeople(options);
  const labelOfStage = new Map(SANDBOX_LABELS.filter((l) => l.stage).map((l) => [l.stage!, l.id]));
  const optionOfStage = new Map(LIFECYCLE_FIELD_OPTIONS.map((o) => [o.stage, o.id]));
  const vip = SANDBOX_LABELS.find((l) => l.stage === null)!.id;
  const [admin, seller] = SANDBOX_USERS;

  const orgByName = new Map<string, PdOrganization>();
  const persons: PdPerson[] = [];
  const deals: PdDeal[] = [];
  let dealId = 1;

  for (const p of people) {
    // A PRNG of the person's own: nothing drawn here moves any other person's values.
    const rng = mulberry32((seed ^ Math.imul(p.id, 0x9e3779b1) ^ 0x5bd1e995) >>> 0);
    const owner = rng() < 0.7 ? admin.id : seller.id;
    let org: PdOrganization | null = null;
    if (p.company !== null) {
      org = orgByName.get(p.company) ?? null;
      if (!org) {
        org = { id: orgByName.size + 1, name: p.company, owner_id: admin.id, add_time: toSecond(p.createdAt), update_time: toSecond(p.updatedAt), domain: p.companyDomain };
        orgByName.set(p.company, org);
      } else if (p.updatedAt > org.update_time) org.update_time = toSecond(p.updatedAt);
    }
    const labelIds: number[] = [];
    if (p.stage) labelIds.push(labelOfStage.get(p.stage)!);
    if ((p.stage === 'customer' || p.stage === 'evangelist') && rng() < 0.08) labelIds.push(vip);
    const joined = [p.firstName, p.lastName].filter((s): s is string => Boolean(s)).join(' ');
    const address = p.city === null && p.state === null && p.country === null
      ? null
      : { value: [p.city, p.state, p.country].filter(Boolean).join(', '), locality: p.city, admin_area_level_1: p.state, country: p.country };
    persons.push({
      id: p.id,
      name: joined || p.email || 'Unnamed person',
      first_name: p.firstName,
      last_name: p.lastName,
      email: p.email,
      org_id: org?.id ?? null,
      owner_id: owner,
      label_ids: labelIds,
      postal_address: address,
      add_time: toSecond(p.createdAt),
      update_time: toSecond(p.updatedAt),
      lifetime_value: p.lifetimeValue,
      lifecycle_stage: p.stage ? optionOfStage.get(p.stage)! : null,
    });

    const title = org?.name ?? (joined || 'Deal');
    const lastStage = PIPELINE.stages[PIPELINE.stages.length - 1];
    // Won deals: the person's purchases, oldest first.
    for (const purchase of p.purchases) {
      const opened = Math.max(p.createdAt, purchase.closedAt - Math.floor((1 + rng() * 89) * DAY));
      deals.push({
        id: dealId++,
        title: `${title} deal`,
        person_id: p.id,
        org_id: org?.id ?? null,
        owner_id: owner,
        value: purchase.amount,
        currency: 'USD',
        status: 'won',
        pipeline_id: PIPELINE.id,
        stage_id: lastStage,
        add_time: toSecond(opened),
        update_time: purchase.closedAt,
        won_time: purchase.closedAt,
        lost_time: null,
        close_time: purchase.closedAt,
        expected_close_date: new Date(purchase.closedAt).toISOString().slice(0, 10),
        lost_reason: null,
      });
    }
    // Lost and open deals: never purchases, whatever their value or dates.
    const now = Math.max(p.updatedAt, p.createdAt);
    if (p.stage !== null && p.stage !== 'subscriber' && rng() < 0.15) {
      const lostAt = toSecond(p.createdAt + (now - p.createdAt) * rng());
      deals.push({
        id: dealId++, title: `${title} deal`, person_id: p.id, org_id: org?.id ?? null, owner_id: owner,
        value: Math.max(50, round2(Math.exp(Math.log(1500) + normal(rng)))), currency: 'USD', status: 'lost',
        pipeline_id: PIPELINE.id, stage_id: PIPELINE.stages[1 + Math.floor(rng() * 3)],
        add_time: toSecond(p.createdAt), update_time: lostAt, won_time: null, lost_time: lostAt, close_time: lostAt,
        expected_close_date: null, lost_reason: rng() < 0.5 ? 'Price' : 'No decision',
      });
    }
    if ((p.stage === 'opportunity' || p.stage === 'salesqualifiedlead') && rng() < 0.6) {
      deals.push({
        id: dealId++, title: `${title} deal`, person_id: p.id, org_id: org?.id ?? null, owner_id: owner,
        value: Math.max(50, round2(Math.exp(Math.log(2000) + normal(rng)))), currency: 'USD', status: 'open',
        pipeline_id: PIPELINE.id, stage_id: PIPELINE.stages[Math.floor(rng() * 4)],
        add_time: toSecond(now), update_time: toSecond(now), won_time: null, lost_time: null, close_time: null,
        expected_close_date: new Date(now + 30 * DAY).toISOString().slice(0, 10), lost_reason: null,
      });
    }
  }

  return {
    companyId: 13_370_042,
    companyName: 'Sandbox Trading Ltd',
    companyDomain: 'sandbox-trading',
    users: [...SANDBOX_USERS],
    labels: [...SANDBOX_LABELS],
    lifecycleOptions: LIFECYCLE_FIELD_OPTIONS.map(({ id, label }) => ({ id, label })),
    persons,
    organizations: [...orgByName.values()],
    deals,
    people,
  };
}

function normal(rng: () => number): number {
  const u1 = rng() || 1e-12;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * rng());
}
