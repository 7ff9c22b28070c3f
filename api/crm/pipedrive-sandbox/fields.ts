/**
 * The sandbox company's field definitions (`GET /v1/personFields`, `/v1/organizationFields`,
 * `/v1/dealFields`): ids that filter conditions reference as `field_id`, keys, Pipedrive field types,
 * options, and how the filter engine reads each field from a record.
 *
 * Ids and custom-field keys are this sandbox's own (a real company's differ, which is why the connector
 * reads them from the fields endpoints): person fields 9001…, organization fields 4001…, deal fields
 * 12001…; custom fields have 40-character hex keys as Pipedrive's do.
 */
import { createHash } from 'node:crypto';
import type { ConditionObject } from '../pipedrive/model/index.js';
import type { PdAddress, PdCompanyData, PdDeal, PdEnumOption, PdLabel, PdOrganization, PdPerson } from './data.js';

/** How the filter engine compares a field: decides the operators it accepts and the value's parsing. */
export type FieldKind = 'text' | 'texts' | 'number' | 'date' | 'enum' | 'set' | 'status' | 'ref' | 'address';

/** What a field holds for one record (null = no value). */
export type FieldValue = string | string[] | number | number[] | PdAddress | null;

export interface FieldLookup {
  orgOf(person: PdPerson): PdOrganization | null;
  personOf(deal: PdDeal): PdPerson | null;
  orgById(id: number | null): PdOrganization | null;
  dealCounts(person: PdPerson): { won: number; lost: number; open: number };
}

export interface FieldDef<T = unknown> {
  object: ConditionObject;
  id: number;
  key: string;
  name: string;
  field_type: string;
  kind: FieldKind;
  custom: boolean;
  filtering: boolean;
  sortable: boolean;
  mandatory?: boolean;
  options?: { id: number | string; label: string; color?: string }[];
  subfields?: { key: string; name: string; field_type: string }[];
  get(record: T, lookup: FieldLookup): FieldValue;
}

/** A custom field's key: 40 hex characters, stable for a name (Pipedrive generates random ones). */
export function customFieldKey(object: string, name: string): string {
  return createHash('sha1').update(`${object}:${name}`).digest('hex');
}

const ADDRESS_SUBFIELDS = [
  ['subpremise', 'Apartment/suite no'], ['street_number', 'House number'], ['route', 'Street/road name'],
  ['sublocality', 'District/sublocality'], ['locality', 'City/town/village/locality'], ['admin_area_level_1', 'State/county'],
  ['admin_area_level_2', 'Region'], ['country', 'Country'], ['postal_code', 'ZIP/Postal code'], ['formatted_address', 'Full/combined address'],
] as const;

export interface CompanyFields {
  person: FieldDef<PdPerson>[];
  organization: FieldDef<PdOrganization>[];
  deal: FieldDef<PdDeal>[];
  /** custom field keys, for the data renderer */
  keys: { lifetimeValue: string; lifecycleStage: string };
  byId(object: ConditionObject, id: number): FieldDef<any> | undefined;
}

export function buildFields(data: Pick<PdCompanyData, 'labels' | 'lifecycleOptions'>): CompanyFields {
  const keys = { lifetimeValue: customFieldKey('person', 'Lifetime value'), lifecycleStage: customFieldKey('person', 'Lifecycle stage') };
  const labelOptions = (labels: PdLabel[]) => labels.map((l) => ({ id: l.id, label: l.label, color: l.color }));
  const subfields = (key: string) => ADDRESS_SUBFIELDS.map(([k, name]) => ({ key: `${key}_${k}`, name, field_type: 'varchar' }));

  const person: FieldDef<PdPerson>[] = [
    { object: 'person', id: 9001, key: 'id', name: 'ID', field_type: 'int', kind: 'number', custom: false, filtering: true, sortable: true, get: (p) => p.id },
    { object: 'person', id: 9002, key: 'name', name: 'Name', field_type: 'varchar', kind: 'text', custom: false, filtering: true, sortable: true, mandatory: true, get: (p) => p.name },
    { object: 'person', id: 9003, key: 'first_name', name: 'First name', field_type: 'varchar', kind: 'text', custom: false, filtering: true, sortable: true, get: (p) => p.first_name },
    { object: 'person', id: 9004, key: 'last_name', name: 'Last name', field_type: 'varchar', kind: 'text', custom: false, filtering: true, sortable: true, get: (p) => p.last_name },
    { object: 'person', id: 9005, key: 'email', name: 'Email', field_type: 'varchar', kind: 'texts', custom: false, filtering: true, sortable: true, get: (p) => (p.email ? [p.email] : null) },
    { object: 'person', id: 9006, key: 'phone', name: 'Phone', field_type: 'phone', kind: 'texts', custom: false, filtering: true, sortable: true, get: () => null },
    { object: 'person', id: 9007, key: 'org_id', name: 'Organization', field_type: 'org', kind: 'ref', custom: false, filtering: true, sortable: true, get: (p) => p.org_id },
    { object: 'person', id: 9008, key: 'owner_id', name: 'Owner', field_type: 'user', kind: 'ref', custom: false, filtering: true, sortable: true, get: (p) => p.owner_id },
    { object: 'person', id: 9009, key: 'label_ids', name: 'Labels', field_type: 'set', kind: 'set', custom: false, filtering: true, sortable: false, options: labelOptions(data.labels), get: (p) => (p.label_ids.length ? p.label_ids : null) },
    { object: 'person', id: 9010, key: 'add_time', name: 'Person created', field_type: 'date', kind: 'date', custom: false, filtering: true, sortable: true, get: (p) => p.add_time },
    { object: 'person', id: 9011, key: 'update_time', name: 'Update time', field_type: 'date', kind: 'date', custom: false, filtering: true, sortable: true, get: (p) => p.update_time },
    { object: 'person', id: 9012, key: 'postal_address', name: 'Postal address', field_type: 'address', kind: 'address', custom: false, filtering: true, sortable: true, subfields: subfields('postal_address'), get: (p) => p.postal_address },
    { object: 'person', id: 9013, key: 'won_deals_count', name: 'Won deals', field_type: 'int', kind: 'number', custom: false, filtering: true, sortable: true, get: (p, l) => l.dealCounts(p).won },
    { object: 'person', id: 9014, key: 'lost_deals_count', name: 'Lost deals', field_type: 'int', kind: 'number', custom: false, filtering: true, sortable: true, get: (p, l) => l.dealCounts(p).lost },
    { object: 'person', id: 9015, key: 'open_deals_count', name: 'Open deals', field_type: 'int', kind: 'number', custom: false, filtering: true, sortable: true, get: (p, l) => l.dealCounts(p).open },
    { object: 'person', id: 9016, key: 'closed_deals_count', name: 'Closed deals', field_type: 'int', kind: 'number', custom: false, filtering: true, sortable: true, get: (p, l) => { const c = l.dealCounts(p); return c.won + c.lost; } },
    { object: 'person', id: 9040, key: keys.lifetimeValue, name: 'Lifetime value', field_type: 'monetary', kind: 'number', custom: true, filtering: true, sortable: true, subfields: [{ key: `${keys.lifetimeValue}_currency`, name: 'Currency of Lifetime value', field_type: 'varchar' }], get: (p) => p.lifetime_value },
    { object: 'person', id: 9041, key: keys.lifecycleStage, name: 'Lifecycle stage', field_type: 'enum', kind: 'enum', custom: true, filtering: true, sortable: true, options: (data.lifecycleOptions as PdEnumOption[]).map(({ id, label }) => ({ id, label })), get: (p) => p.lifecycle_stage },
  ];

  const organization: FieldDef<PdOrganization>[] = [
    { object: 'organization', id: 4001, key: 'id', name: 'ID', field_type: 'int', kind: 'number', custom: false, filtering: true, sortable: true, get: (o) => o.id },
    { object: 'organization', id: 4002, key: 'name', name: 'Name', field_type: 'varchar', kind: 'text', custom: false, filtering: true, sortable: true, mandatory: true, get: (o) => o.name },
    { object: 'organization', id: 4003, key: 'owner_id', name: 'Owner', field_type: 'user', kind: 'ref', custom: false, filtering: true, sortable: true, get: (o) => o.owner_id },
    { object: 'organization', id: 4010, key: 'add_time', name: 'Organization created', field_type: 'date', kind: 'date', custom: false, filtering: true, sortable: true, get: (o) => o.add_time },
    { object: 'organization', id: 4011, key: 'update_time', name: 'Update time', field_type: 'date', kind: 'date', custom: false, filtering: true, sortable: true, get: (o) => o.update_time },
    { object: 'organization', id: 4020, key: 'address', name: 'Address', field_type: 'address', kind: 'address', custom: false, filtering: true, sortable: true, subfields: subfields('address'), get: () => null },
  ];

  const deal: FieldDef<PdDeal>[] = [
    { object: 'deal', id: 12001, key: 'id', name: 'ID', field_type: 'int', kind: 'number', custom: false, filtering: true, sortable: true, get: (d) => d.id },
    { object: 'deal', id: 12002, key: 'title', name: 'Title', field_type: 'varchar', kind: 'text', custom: false, filtering: true, sortable: true, mandatory: true, get: (d) => d.title },
    { object: 'deal', id: 12003, key: 'value', name: 'Value', field_type: 'monetary', kind: 'number', custom: false, filtering: true, sortable: true, get: (d) => d.value },
    { object: 'deal', id: 12004, key: 'currency', name: 'Currency', field_type: 'varchar_options', kind: 'text', custom: false, filtering: true, sortable: true, get: (d) => d.currency },
    {
      object: 'deal', id: 12005, key: 'status', name: 'Status', field_type: 'status', kind: 'status', custom: false, filtering: true, sortable: true,
      options: [{ id: 'open', label: 'Open' }, { id: 'won', label: 'Won' }, { id: 'lost', label: 'Lost' }, { id: 'deleted', label: 'Deleted' }],
      get: (d) => d.status,
    },
    { object: 'deal', id: 12006, key: 'person_id', name: 'Contact person', field_type: 'people', kind: 'ref', custom: false, filtering: true, sortable: true, get: (d) => d.person_id },
    { object: 'deal', id: 12007, key: 'org_id', name: 'Organization', field_type: 'org', kind: 'ref', custom: false, filtering: true, sortable: true, get: (d) => d.org_id },
    { object: 'deal', id: 12008, key: 'user_id', name: 'Owner', field_type: 'user', kind: 'ref', custom: false, filtering: true, sortable: true, get: (d) => d.owner_id },
    { object: 'deal', id: 12009, key: 'stage_id', name: 'Stage', field_type: 'stage', kind: 'ref', custom: false, filtering: true, sortable: true, get: (d) => d.stage_id },
    { object: 'deal', id: 12010, key: 'pipeline_id', name: 'Pipeline', field_type: 'double', kind: 'ref', custom: false, filtering: true, sortable: true, get: (d) => d.pipeline_id },
    { object: 'deal', id: 12011, key: 'add_time', name: 'Deal created', field_type: 'date', kind: 'date', custom: false, filtering: true, sortable: true, get: (d) => d.add_time },
    { object: 'deal', id: 12012, key: 'update_time', name: 'Update time', field_type: 'date', kind: 'date', custom: false, filtering: true, sortable: true, get: (d) => d.update_time },
    { object: 'deal', id: 12013, key: 'won_time', name: 'Won time', field_type: 'date', kind: 'date', custom: false, filtering: true, sortable: true, get: (d) => d.won_time },
    { object: 'deal', id: 12014, key: 'lost_time', name: 'Lost time', field_type: 'date', kind: 'date', custom: false, filtering: true, sortable: true, get: (d) => d.lost_time },
    { object: 'deal', id: 12015, key: 'close_time', name: 'Deal closed on', field_type: 'date', kind: 'date', custom: false, filtering: true, sortable: true, get: (d) => d.close_time },
    { object: 'deal', id: 12016, key: 'lost_reason', name: 'Lost reason', field_type: 'varchar', kind: 'text', custom: false, filtering: true, sortable: true, get: (d) => d.lost_reason },
  ];

  const index = new Map<string, FieldDef<any>>();
  for (const f of [...person, ...organization, ...deal]) index.set(`${f.object}:${f.id}`, f);
  return { person, organization, deal, keys, byId: (object, id) => index.get(`${object}:${id}`) };
}

/** A field definition as `GET /v1/{object}Fields` renders it. */
export function renderField(f: FieldDef<any>, order: number): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: f.id,
    key: f.key,
    name: f.name,
    order_nr: order,
    field_type: f.field_type,
    add_time: '2024-01-15 09:00:00',
    update_time: '2024-01-15 09:00:00',
    last_updated_by_user_id: f.custom ? 15_873_201 : null,
    created_by_user_id: f.custom ? 15_873_201 : null,
    active_flag: true,
    edit_flag: f.custom,
    index_visible_flag: true,
    details_visible_flag: true,
    add_visible_flag: true,
    important_flag: false,
    bulk_edit_allowed: true,
    searchable_flag: f.kind === 'text' || f.kind === 'texts',
    filtering_allowed: f.filtering,
    sortable_flag: f.sortable,
    mandatory_flag: Boolean(f.mandatory),
    options: f.options ?? null,
  };
  if (f.subfields) out.subfields = f.subfields;
  return out;
}
