/**
 * Contact property definitions served by the sandbox (`GET /crm/v3/properties/contacts`) and used by
 * the search engine to decide how a property compares (string / enumeration / number / datetime).
 * Shapes follow HubSpot's v3 Properties API.
 */
import { LIFECYCLE_OPTIONS, PROPERTY_KINDS, type PropertyKind } from '../hubspot/model/index.js';
import type { SandboxContact } from './data.js';

export interface PropertyOption {
  label: string;
  value: string;
  displayOrder: number;
  hidden: boolean;
}

export interface SandboxPropertyDef {
  name: keyof SandboxContact | 'hs_object_id';
  label: string;
  type: PropertyKind;
  fieldType: 'text' | 'radio' | 'number' | 'date' | 'calculation_rollup';
  groupName: string;
  description: string;
  calculated: boolean;
  hasUniqueValue: boolean;
  readOnlyValue: boolean;
  options?: PropertyOption[];
}

/** The type comes from the HubSpot model, so the sandbox compares a property as the product expects. */
const typed = (def: Omit<SandboxPropertyDef, 'type'>): SandboxPropertyDef => ({ ...def, type: PROPERTY_KINDS[def.name] });

const lifecycleOptions: PropertyOption[] = LIFECYCLE_OPTIONS.map(({ value, label }, i) => ({ label, value, displayOrder: i, hidden: false }));

export const CONTACT_PROPERTY_DEFS: SandboxPropertyDef[] = [
  typed({ name: 'hs_object_id', label: 'Record ID', fieldType: 'number', groupName: 'contactinformation', description: 'The unique ID for this record. This value is automatically set by HubSpot.', calculated: false, hasUniqueValue: true, readOnlyValue: true }),
  typed({ name: 'firstname', label: 'First Name', fieldType: 'text', groupName: 'contactinformation', description: "A contact's first name", calculated: false, hasUniqueValue: false, readOnlyValue: false }),
  typed({ name: 'lastname', label: 'Last Name', fieldType: 'text', groupName: 'contactinformation', description: "A contact's last name", calculated: false, hasUniqueValue: false, readOnlyValue: false }),
  typed({ name: 'email', label: 'Email', fieldType: 'text', groupName: 'contactinformation', description: "A contact's email address", calculated: false, hasUniqueValue: false, readOnlyValue: false }),
  typed({ name: 'company', label: 'Company Name', fieldType: 'text', groupName: 'contactinformation', description: 'Name of the contact\'s company. This can be set independently from the name property on the contact\'s associated company.', calculated: false, hasUniqueValue: false, readOnlyValue: false }),
  typed({ name: 'lifecyclestage', label: 'Lifecycle Stage', fieldType: 'radio', groupName: 'contactinformation', description: 'The qualification of contacts to sales readiness. It can be set through imports, forms, workflows, and manually on a per contact basis.', calculated: false, hasUniqueValue: false, readOnlyValue: false, options: lifecycleOptions }),
  typed({ name: 'recent_deal_close_date', label: 'Recent Deal Close Date', fieldType: 'date', groupName: 'deal_information', description: 'Date of the most recent deal closed won for this contact.', calculated: true, hasUniqueValue: false, readOnlyValue: true }),
  typed({ name: 'recent_deal_amount', label: 'Recent Deal Amount', fieldType: 'number', groupName: 'deal_information', description: 'Amount of the most recent deal closed won for this contact.', calculated: true, hasUniqueValue: false, readOnlyValue: true }),
  typed({ name: 'total_revenue', label: 'Total Revenue', fieldType: 'number', groupName: 'deal_information', description: 'Sum of all closed won deal revenue associated with the contact.', calculated: true, hasUniqueValue: false, readOnlyValue: true }),
  typed({ name: 'city', label: 'City', fieldType: 'text', groupName: 'contactinformation', description: "A contact's city of residence", calculated: false, hasUniqueValue: false, readOnlyValue: false }),
  typed({ name: 'state', label: 'State/Region', fieldType: 'text', groupName: 'contactinformation', description: "The contact's state of residence.", calculated: false, hasUniqueValue: false, readOnlyValue: false }),
  typed({ name: 'country', label: 'Country/Region', fieldType: 'text', groupName: 'contactinformation', description: "The contact's country/region of residence.", calculated: false, hasUniqueValue: false, readOnlyValue: false }),
  typed({ name: 'createdate', label: 'Create Date', fieldType: 'date', groupName: 'contactinformation', description: 'The date that a contact entered the system', calculated: false, hasUniqueValue: false, readOnlyValue: true }),
  typed({ name: 'lastmodifieddate', label: 'Last Modified Date', fieldType: 'date', groupName: 'contactinformation', description: 'Most recent timestamp of any property update for this contact.', calculated: false, hasUniqueValue: false, readOnlyValue: true }),
];

export const CONTACT_PROPERTIES_BY_NAME = new Map(CONTACT_PROPERTY_DEFS.map((d) => [d.name as string, d]));

/** Properties HubSpot returns from contacts search when `properties` is omitted. */
export const DEFAULT_SEARCH_PROPERTIES = ['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname'];
/** Properties HubSpot always adds to a contacts search response, whatever was requested. */
export const ALWAYS_RETURNED_PROPERTIES = ['createdate', 'hs_object_id', 'lastmodifieddate'];
/** Properties HubSpot's `query` (full-text) searches on contacts that exist in this sandbox. */
export const DEFAULT_SEARCHABLE_PROPERTIES = ['firstname', 'lastname', 'email', 'company'];

/** Fixed timestamps for the property metadata (HubSpot-defined properties are old). */
const DEFINED_AT = '2019-08-06T02:41:52.000Z';

/** Renders a definition in the v3 Properties API shape. */
export function renderPropertyDefinition(def: SandboxPropertyDef, displayOrder: number): Record<string, unknown> {
  return {
    updatedAt: DEFINED_AT,
    createdAt: DEFINED_AT,
    name: def.name,
    label: def.label,
    type: def.type,
    fieldType: def.fieldType,
    description: def.description,
    groupName: def.groupName,
    options: def.options ?? [],
    displayOrder,
    calculated: def.calculated,
    externalOptions: false,
    hasUniqueValue: def.hasUniqueValue,
    hidden: false,
    hubspotDefined: true,
    modificationMetadata: { archivable: true, readOnlyDefinition: true, readOnlyValue: def.readOnlyValue },
    formField: !def.readOnlyValue,
    dataSensitivity: 'non_sensitive',
  };
}
