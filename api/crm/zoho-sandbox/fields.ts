/**
 * Field metadata of the sandbox's modules, in the shape of Zoho's `GET /crm/v7/settings/fields?module=…`,
 * and the kinds the COQL engine compares by. Only the fields the sandbox's records hold are listed.
 */
import { LEAD_SOURCES, LEAD_STATUS_OF_STAGE, LIFECYCLE_STAGE_LABELS, LOST_STAGE, OPEN_DEAL_STAGES, WON_STAGE } from './data.js';

export const MODULES = ['Leads', 'Contacts', 'Accounts', 'Deals'] as const;
export type ModuleName = (typeof MODULES)[number];

/** How a field compares in COQL. */
export type FieldKind = 'id' | 'text' | 'picklist' | 'number' | 'date' | 'datetime' | 'lookup';

export interface FieldDef {
  api_name: string;
  field_label: string;
  /** Zoho's data_type */
  data_type: 'bigint' | 'text' | 'email' | 'website' | 'picklist' | 'lookup' | 'ownerlookup' | 'currency' | 'date' | 'datetime';
  kind: FieldKind;
  custom_field: boolean;
  /** Zoho's help text (`tooltip`), the closest it has to a field description */
  tooltip?: string;
  picklist?: readonly string[];
  /** lookups: the module they point to */
  lookup?: ModuleName | 'users';
  system_mandatory?: boolean;
  read_only?: boolean;
  length?: number;
}

const text = (api_name: string, field_label: string, extra: Partial<FieldDef> = {}): FieldDef => ({ api_name, field_label, data_type: 'text', kind: 'text', custom_field: false, length: 255, ...extra });
const picklist = (api_name: string, field_label: string, values: readonly string[], extra: Partial<FieldDef> = {}): FieldDef => ({ api_name, field_label, data_type: 'picklist', kind: 'picklist', custom_field: false, picklist: values, ...extra });
const lookup = (api_name: string, field_label: string, target: ModuleName): FieldDef => ({ api_name, field_label, data_type: 'lookup', kind: 'lookup', custom_field: false, lookup: target });
const ID: FieldDef = { api_name: 'id', field_label: 'Record Id', data_type: 'bigint', kind: 'id', custom_field: false, read_only: true };
const OWNER: FieldDef = { api_name: 'Owner', field_label: 'Owner', data_type: 'ownerlookup', kind: 'lookup', custom_field: false, lookup: 'users' };
const CREATED: FieldDef = { api_name: 'Created_Time', field_label: 'Created Time', data_type: 'datetime', kind: 'datetime', custom_field: false, read_only: true };
const MODIFIED: FieldDef = { api_name: 'Modified_Time', field_label: 'Modified Time', data_type: 'datetime', kind: 'datetime', custom_field: false, read_only: true };
const STAGE_VALUES = Object.values(LIFECYCLE_STAGE_LABELS);
const LIFECYCLE = picklist('Lifecycle_Stage', 'Lifecycle Stage', STAGE_VALUES, {
  custom_field: true,
  tooltip: 'Lifecycle stage: where the person is in the customer lifecycle (Subscriber … Customer, Evangelist).',
});

const PERSON_COMMON: FieldDef[] = [
  ID,
  OWNER,
  text('First_Name', 'First Name', { length: 40 }),
  text('Last_Name', 'Last Name', { length: 80, system_mandatory: true }),
  text('Full_Name', 'Full Name', { read_only: true }),
  { ...text('Email', 'Email', { length: 100 }), data_type: 'email' },
  picklist('Lead_Source', 'Lead Source', LEAD_SOURCES),
  LIFECYCLE,
  CREATED,
  MODIFIED,
];

export const FIELDS: Readonly<Record<ModuleName, readonly FieldDef[]>> = {
  Leads: [
    ...PERSON_COMMON,
    text('Company', 'Company', { length: 200, system_mandatory: true }),
    picklist('Lead_Status', 'Lead Status', [...new Set(Object.values(LEAD_STATUS_OF_STAGE)), 'Junk Lead', 'Lost Lead', 'Not Qualified']),
    text('City', 'City', { length: 100 }),
    text('State', 'State', { length: 100 }),
    text('Country', 'Country', { length: 100 }),
  ],
  Contacts: [
    ...PERSON_COMMON,
    lookup('Account_Name', 'Account Name', 'Accounts'),
    text('Mailing_City', 'Mailing City', { length: 100 }),
    text('Mailing_State', 'Mailing State', { length: 100 }),
    text('Mailing_Country', 'Mailing Country', { length: 100 }),
  ],
  Accounts: [ID, OWNER, text('Account_Name', 'Account Name', { length: 200, system_mandatory: true }), { ...text('Website', 'Website'), data_type: 'website' }, CREATED, MODIFIED],
  Deals: [
    ID,
    OWNER,
    text('Deal_Name', 'Deal Name', { length: 120, system_mandatory: true }),
    picklist('Stage', 'Stage', [...OPEN_DEAL_STAGES, 'Value Proposition', 'Id. Decision Makers', 'Perception Analysis', WON_STAGE, LOST_STAGE, 'Closed Lost to Competition'], { system_mandatory: true }),
    { api_name: 'Amount', field_label: 'Amount', data_type: 'currency', kind: 'number', custom_field: false },
    { api_name: 'Closing_Date', field_label: 'Closing Date', data_type: 'date', kind: 'date', custom_field: false, system_mandatory: true },
    lookup('Contact_Name', 'Contact Name', 'Contacts'),
    lookup('Account_Name', 'Account Name', 'Accounts'),
    CREATED,
    MODIFIED,
  ],
};

const BY_NAME = new Map<ModuleName, Map<string, FieldDef>>(MODULES.map((m) => [m, new Map(FIELDS[m].map((f) => [f.api_name, f]))]));

export function fieldOf(module: ModuleName, apiName: string): FieldDef | undefined {
  return BY_NAME.get(module)?.get(apiName);
}

export function isModule(name: string): name is ModuleName {
  return (MODULES as readonly string[]).includes(name);
}

/** Module → its API name in lower case (the fields API and scopes use it). */
export const MODULE_SCOPE_NAME: Record<ModuleName, string> = { Leads: 'leads', Contacts: 'contacts', Accounts: 'accounts', Deals: 'deals' };

/** Renders a field in the v7 fields API shape (a stable id per module and position). */
export function renderField(module: ModuleName, def: FieldDef, index: number): Record<string, unknown> {
  const moduleIndex = MODULES.indexOf(module) + 1;
  return {
    api_name: def.api_name,
    field_label: def.field_label,
    display_label: def.field_label,
    id: `57257670000${String(moduleIndex).padStart(2, '0')}${String(index + 1).padStart(6, '0')}`,
    data_type: def.data_type,
    json_type: def.kind === 'number' ? 'double' : def.kind === 'lookup' ? 'jsonobject' : 'string',
    custom_field: def.custom_field,
    system_mandatory: def.system_mandatory ?? false,
    read_only: def.read_only ?? false,
    visible: true,
    length: def.length ?? null,
    tooltip: def.tooltip ? { name: 'Info Icon', value: def.tooltip } : null,
    pick_list_values: (def.picklist ?? []).map((v, i) => ({ display_value: v, actual_value: v, sequence_number: i + 1, id: `5725767000009${String(i + 1).padStart(6, '0')}`, type: 'used' })),
    lookup: def.lookup && def.lookup !== 'users' ? { module: { api_name: def.lookup }, display_label: def.field_label, api_name: def.api_name } : {},
    sortable: true,
    searchable: def.kind !== 'lookup',
  };
}
