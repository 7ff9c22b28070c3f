/**
 * The sandbox org's object model: the standard objects the product reads (Lead, Contact, Account,
 * Opportunity, OpportunityContactRole) plus User and Organization, with Salesforce's field names,
 * types, picklists, relationships and capabilities. One definition serves `describe`, the SOQL engine
 * (name resolution, type checks, filterable / sortable / groupable) and record rendering.
 */
import { CONTACT_STAGE_FIELD, CONTACT_STAGE_OPTIONS, LEAD_STATUSES, LOST_STAGE, OPEN_STAGES, WON_STAGE } from '../salesforce/model/org.js';
import { KEY_PREFIXES } from '../salesforce/model/ids.js';

export type SfFieldType =
  | 'id' | 'reference' | 'string' | 'email' | 'phone' | 'url' | 'picklist' | 'textarea'
  | 'boolean' | 'int' | 'double' | 'currency' | 'percent' | 'date' | 'datetime' | 'address';

export interface PicklistEntry {
  value: string;
  label?: string;
  default?: boolean;
}

export interface FieldDef {
  name: string;
  label: string;
  type: SfFieldType;
  nillable: boolean;
  length: number;
  referenceTo: string[];
  relationshipName: string | null;
  picklist: readonly PicklistEntry[];
  custom: boolean;
  calculated: boolean;
  createable: boolean;
  updateable: boolean;
  filterable: boolean;
  sortable: boolean;
  groupable: boolean;
  aggregatable: boolean;
  nameField: boolean;
  unique: boolean;
  inlineHelpText: string | null;
  precision: number;
  scale: number;
  defaultedOnCreate: boolean;
}

export interface ChildRelationship {
  relationshipName: string;
  childSObject: string;
  field: string;
}

export interface ObjectDef {
  name: string;
  label: string;
  labelPlural: string;
  keyPrefix: string;
  fields: FieldDef[];
  childRelationships: ChildRelationship[];
}

type FieldSpec = Partial<Omit<FieldDef, 'name' | 'label' | 'type'>> & { name: string; label: string; type: SfFieldType };

const TEXT_TYPES = new Set<SfFieldType>(['id', 'reference', 'string', 'email', 'phone', 'url', 'picklist', 'textarea']);
export const isTextType = (t: SfFieldType) => TEXT_TYPES.has(t);
export const isNumberType = (t: SfFieldType) => t === 'int' || t === 'double' || t === 'currency' || t === 'percent';

function field(spec: FieldSpec): FieldDef {
  const t = spec.type;
  const readOnly = t === 'id' || spec.calculated === true;
  return {
    nillable: true,
    length: t === 'id' || t === 'reference' ? 18 : isTextType(t) ? 255 : 0,
    referenceTo: [],
    relationshipName: null,
    picklist: [],
    custom: spec.name.endsWith('__c'),
    calculated: false,
    createable: !readOnly,
    updateable: !readOnly,
    filterable: t !== 'address' && t !== 'textarea',
    sortable: t !== 'address' && t !== 'textarea',
    groupable: t === 'int' || (t !== 'address' && t !== 'textarea' && t !== 'datetime' && !isNumberType(t)),
    aggregatable: t !== 'address' && t !== 'textarea' && t !== 'boolean',
    nameField: false,
    unique: false,
    inlineHelpText: null,
    precision: t === 'currency' ? 18 : t === 'double' || t === 'percent' ? 18 : 0,
    scale: t === 'currency' || t === 'percent' ? 2 : 0,
    defaultedOnCreate: false,
    ...spec,
  };
}

const USER = 'User';
const systemFields = (owner: boolean): FieldDef[] => [
  field({ name: 'Id', label: `Record ID`, type: 'id', nillable: false, defaultedOnCreate: true }),
  field({ name: 'IsDeleted', label: 'Deleted', type: 'boolean', nillable: false, createable: false, updateable: false, defaultedOnCreate: true }),
  ...(owner ? [field({ name: 'OwnerId', label: 'Owner ID', type: 'reference', nillable: false, referenceTo: [USER], relationshipName: 'Owner', defaultedOnCreate: true })] : []),
  field({ name: 'CreatedDate', label: 'Created Date', type: 'datetime', nillable: false, createable: false, updateable: false, defaultedOnCreate: true }),
  field({ name: 'CreatedById', label: 'Created By ID', type: 'reference', nillable: false, referenceTo: [USER], relationshipName: 'CreatedBy', createable: false, updateable: false, defaultedOnCreate: true }),
  field({ name: 'LastModifiedDate', label: 'Last Modified Date', type: 'datetime', nillable: false, createable: false, updateable: false, defaultedOnCreate: true }),
  field({ name: 'LastModifiedById', label: 'Last Modified By ID', type: 'reference', nillable: false, referenceTo: [USER], relationshipName: 'LastModifiedBy', createable: false, updateable: false, defaultedOnCreate: true }),
  field({ name: 'SystemModstamp', label: 'System Modstamp', type: 'datetime', nillable: false, createable: false, updateable: false, defaultedOnCreate: true }),
];

const picklist = (values: readonly string[], defaultValue?: string): PicklistEntry[] =>
  values.map((value) => ({ value, label: value, default: value === defaultValue }));

const LEAD_SOURCES = picklist(['Web', 'Phone Inquiry', 'Partner Referral', 'Purchased List', 'Other']);

const personName = [
  field({ name: 'LastName', label: 'Last Name', type: 'string', nillable: false, length: 80 }),
  field({ name: 'FirstName', label: 'First Name', type: 'string', length: 40 }),
  field({ name: 'Name', label: 'Full Name', type: 'string', nillable: false, length: 121, nameField: true, createable: false, updateable: false }),
];

export interface SchemaOptions {
  /** Contact carries the custom lifecycle-stage picklist (default true) */
  contactStageField?: boolean;
  /** Contact carries custom rollups of its won opportunities (default true) */
  rollupFields?: boolean;
}

export function buildSchema(options: SchemaOptions = {}): ObjectDef[] {
  const lead: ObjectDef = {
    name: 'Lead', label: 'Lead', labelPlural: 'Leads', keyPrefix: KEY_PREFIXES.Lead,
    fields: [
      ...systemFields(true),
      ...personName,
      field({ name: 'Title', label: 'Title', type: 'string', length: 128 }),
      field({ name: 'Company', label: 'Company', type: 'string', nillable: false, length: 255 }),
      field({ name: 'City', label: 'City', type: 'string', length: 40 }),
      field({ name: 'State', label: 'State/Province', type: 'string', length: 80 }),
      field({ name: 'Country', label: 'Country', type: 'string', length: 80 }),
      field({ name: 'Address', label: 'Address', type: 'address', createable: false, updateable: false }),
      field({ name: 'Email', label: 'Email', type: 'email', length: 80 }),
      field({ name: 'LeadSource', label: 'Lead Source', type: 'picklist', length: 255, picklist: LEAD_SOURCES }),
      field({
        name: 'Status', label: 'Status', type: 'picklist', nillable: false, defaultedOnCreate: true,
        picklist: LEAD_STATUSES.map((s) => ({ value: s.value, label: s.value, default: s.default === true })),
      }),
      field({ name: 'IsConverted', label: 'Converted', type: 'boolean', nillable: false, createable: false, updateable: false, defaultedOnCreate: true }),
      field({ name: 'ConvertedDate', label: 'Converted Date', type: 'date', createable: false, updateable: false }),
      field({ name: 'ConvertedAccountId', label: 'Converted Account ID', type: 'reference', referenceTo: ['Account'], relationshipName: 'ConvertedAccount', createable: false, updateable: false }),
      field({ name: 'ConvertedContactId', label: 'Converted Contact ID', type: 'reference', referenceTo: ['Contact'], relationshipName: 'ConvertedContact', createable: false, updateable: false }),
      field({ name: 'ConvertedOpportunityId', label: 'Converted Opportunity ID', type: 'reference', referenceTo: ['Opportunity'], relationshipName: 'ConvertedOpportunity', createable: false, updateable: false }),
      field({ name: 'IsUnreadByOwner', label: 'Unread By Owner', type: 'boolean', nillable: false, defaultedOnCreate: true }),
    ],
    childRelationships: [],
  };

  const contactFields = [
    ...systemFields(true),
    field({ name: 'AccountId', label: 'Account ID', type: 'reference', referenceTo: ['Account'], relationshipName: 'Account' }),
    ...personName,
    field({ name: 'Title', label: 'Title', type: 'string', length: 128 }),
    field({ name: 'MailingCity', label: 'Mailing City', type: 'string', length: 40 }),
    field({ name: 'MailingState', label: 'Mailing State/Province', type: 'string', length: 80 }),
    field({ name: 'MailingCountry', label: 'Mailing Country', type: 'string', length: 80 }),
    field({ name: 'MailingAddress', label: 'Mailing Address', type: 'address', createable: false, updateable: false }),
    field({ name: 'Email', label: 'Email', type: 'email', length: 80 }),
    field({ name: 'LeadSource', label: 'Lead Source', type: 'picklist', picklist: LEAD_SOURCES }),
  ];
  if (options.contactStageField !== false) {
    contactFields.push(
      field({
        name: CONTACT_STAGE_FIELD, label: 'Lifecycle Stage', type: 'picklist', custom: true,
        picklist: CONTACT_STAGE_OPTIONS.map((o) => ({ value: o.value, label: o.value })),
        inlineHelpText: 'Where the contact is in the customer lifecycle (Subscriber to Customer), kept in sync by marketing automation.',
      }),
    );
  }
  if (options.rollupFields !== false) {
    contactFields.push(
      field({ name: 'Lifetime_Value__c', label: 'Lifetime Value', type: 'currency', custom: true, createable: false, updateable: false, inlineHelpText: 'Sum of the Amount of closed-won opportunities on which this contact has a contact role. Rolled up nightly.' }),
      field({ name: 'Last_Purchase_Date__c', label: 'Last Purchase Date', type: 'date', custom: true, createable: false, updateable: false, inlineHelpText: 'Close date of the most recent closed-won opportunity on which this contact has a contact role. Rolled up nightly.' }),
      field({ name: 'Last_Purchase_Amount__c', label: 'Last Purchase Amount', type: 'currency', custom: true, createable: false, updateable: false, inlineHelpText: 'Amount of the most recent closed-won opportunity on which this contact has a contact role. Rolled up nightly.' }),
    );
  }
  const contact: ObjectDef = {
    name: 'Contact', label: 'Contact', labelPlural: 'Contacts', keyPrefix: KEY_PREFIXES.Contact,
    fields: contactFields,
    childRelationships: [{ relationshipName: 'OpportunityContactRoles', childSObject: 'OpportunityContactRole', field: 'ContactId' }],
  };

  const account: ObjectDef = {
    name: 'Account', label: 'Account', labelPlural: 'Accounts', keyPrefix: KEY_PREFIXES.Account,
    fields: [
      ...systemFields(true),
      field({ name: 'Name', label: 'Account Name', type: 'string', nillable: false, nameField: true }),
      field({ name: 'Type', label: 'Account Type', type: 'picklist', picklist: picklist(['Prospect', 'Customer - Direct', 'Customer - Channel', 'Channel Partner / Reseller', 'Installation Partner', 'Technology Partner', 'Other']) }),
      field({ name: 'Website', label: 'Website', type: 'url' }),
      field({ name: 'BillingCity', label: 'Billing City', type: 'string', length: 40 }),
      field({ name: 'BillingState', label: 'Billing State/Province', type: 'string', length: 80 }),
      field({ name: 'BillingCountry', label: 'Billing Country', type: 'string', length: 80 }),
    ],
    childRelationships: [
      { relationshipName: 'Contacts', childSObject: 'Contact', field: 'AccountId' },
      { relationshipName: 'Opportunities', childSObject: 'Opportunity', field: 'AccountId' },
    ],
  };

  const opportunity: ObjectDef = {
    name: 'Opportunity', label: 'Opportunity', labelPlural: 'Opportunities', keyPrefix: KEY_PREFIXES.Opportunity,
    fields: [
      ...systemFields(true),
      field({ name: 'AccountId', label: 'Account ID', type: 'reference', referenceTo: ['Account'], relationshipName: 'Account' }),
      field({ name: 'Name', label: 'Name', type: 'string', nillable: false, length: 120, nameField: true }),
      field({ name: 'StageName', label: 'Stage', type: 'picklist', nillable: false, picklist: picklist([...OPEN_STAGES, WON_STAGE, LOST_STAGE]) }),
      field({ name: 'Amount', label: 'Amount', type: 'currency' }),
      field({ name: 'Probability', label: 'Probability (%)', type: 'percent', precision: 3, scale: 0 }),
      field({ name: 'CloseDate', label: 'Close Date', type: 'date', nillable: false }),
      field({ name: 'Type', label: 'Opportunity Type', type: 'picklist', picklist: picklist(['Existing Customer - Upgrade', 'Existing Customer - Replacement', 'Existing Customer - Downgrade', 'New Customer']) }),
      field({ name: 'LeadSource', label: 'Lead Source', type: 'picklist', picklist: LEAD_SOURCES }),
      field({ name: 'IsClosed', label: 'Closed', type: 'boolean', nillable: false, createable: false, updateable: false, defaultedOnCreate: true }),
      field({ name: 'IsWon', label: 'Won', type: 'boolean', nillable: false, createable: false, updateable: false, defaultedOnCreate: true }),
      field({ name: 'ForecastCategoryName', label: 'Forecast Category', type: 'picklist', picklist: picklist(['Omitted', 'Pipeline', 'Best Case', 'Commit', 'Closed']) }),
    ],
    childRelationships: [{ relationshipName: 'OpportunityContactRoles', childSObject: 'OpportunityContactRole', field: 'OpportunityId' }],
  };

  const contactRole: ObjectDef = {
    name: 'OpportunityContactRole', label: 'Opportunity Contact Role', labelPlural: 'Opportunity Contact Roles', keyPrefix: KEY_PREFIXES.OpportunityContactRole,
    fields: [
      ...systemFields(false),
      field({ name: 'OpportunityId', label: 'Opportunity ID', type: 'reference', nillable: false, referenceTo: ['Opportunity'], relationshipName: 'Opportunity' }),
      field({ name: 'ContactId', label: 'Contact ID', type: 'reference', nillable: false, referenceTo: ['Contact'], relationshipName: 'Contact' }),
      field({ name: 'Role', label: 'Role', type: 'picklist', picklist: picklist(['Business User', 'Decision Maker', 'Economic Buyer', 'Economic Decision Maker', 'Evaluator', 'Executive Sponsor', 'Influencer', 'Technical Buyer', 'Other']) }),
      field({ name: 'IsPrimary', label: 'Primary', type: 'boolean', nillable: false, defaultedOnCreate: true }),
    ],
    childRelationships: [],
  };

  const user: ObjectDef = {
    name: 'User', label: 'User', labelPlural: 'Users', keyPrefix: KEY_PREFIXES.User,
    fields: [
      ...systemFields(false),
      field({ name: 'Username', label: 'Username', type: 'string', nillable: false, length: 80, unique: true }),
      ...personName,
      field({ name: 'Email', label: 'Email', type: 'email', nillable: false, length: 128 }),
      field({ name: 'IsActive', label: 'Active', type: 'boolean', nillable: false }),
      field({ name: 'TimeZoneSidKey', label: 'Time Zone', type: 'picklist', nillable: false }),
      field({ name: 'LocaleSidKey', label: 'Locale', type: 'picklist', nillable: false }),
      field({ name: 'LanguageLocaleKey', label: 'Language', type: 'picklist', nillable: false }),
    ],
    childRelationships: [],
  };

  const organization: ObjectDef = {
    name: 'Organization', label: 'Organization', labelPlural: 'Organizations', keyPrefix: KEY_PREFIXES.Organization,
    fields: [
      field({ name: 'Id', label: 'Organization ID', type: 'id', nillable: false }),
      field({ name: 'Name', label: 'Name', type: 'string', nillable: false, length: 80, nameField: true }),
      field({ name: 'OrganizationType', label: 'Edition', type: 'picklist', createable: false, updateable: false }),
      field({ name: 'InstanceName', label: 'Instance Name', type: 'string', createable: false, updateable: false }),
      field({ name: 'IsSandbox', label: 'Is Sandbox', type: 'boolean', nillable: false, createable: false, updateable: false }),
      field({ name: 'TimeZoneSidKey', label: 'Default Time Zone', type: 'picklist', nillable: false }),
      field({ name: 'DefaultLocaleSidKey', label: 'Default Locale', type: 'picklist', nillable: false }),
      field({ name: 'LanguageLocaleKey', label: 'Default Language', type: 'picklist', nillable: false }),
      field({ name: 'FiscalYearStartMonth', label: 'Fiscal Year Start Month', type: 'int', createable: false, updateable: false }),
      field({ name: 'CreatedDate', label: 'Created Date', type: 'datetime', nillable: false, createable: false, updateable: false }),
    ],
    childRelationships: [],
  };

  return [lead, contact, account, opportunity, contactRole, user, organization];
}

/** Case-insensitive lookups over a schema (SOQL names are case-insensitive). */
export class Schema {
  private readonly objects = new Map<string, ObjectDef>();
  private readonly fields = new Map<string, Map<string, FieldDef>>();
  private readonly relationships = new Map<string, Map<string, FieldDef>>();
  private readonly children = new Map<string, Map<string, ChildRelationship>>();

  constructor(readonly defs: ObjectDef[]) {
    for (const d of defs) {
      const key = d.name.toLowerCase();
      this.objects.set(key, d);
      this.fields.set(key, new Map(d.fields.map((f) => [f.name.toLowerCase(), f])));
      this.relationships.set(key, new Map(d.fields.filter((f) => f.relationshipName).map((f) => [f.relationshipName!.toLowerCase(), f])));
      this.children.set(key, new Map(d.childRelationships.map((r) => [r.relationshipName.toLowerCase(), r])));
    }
  }

  object(name: string): ObjectDef | undefined {
    return this.objects.get(name.toLowerCase());
  }

  field(object: ObjectDef, name: string): FieldDef | undefined {
    return this.fields.get(object.name.toLowerCase())?.get(name.toLowerCase());
  }

  /** The reference field whose relationship name is `name` (e.g. Contact + "Account" → AccountId). */
  relationship(object: ObjectDef, name: string): FieldDef | undefined {
    return this.relationships.get(object.name.toLowerCase())?.get(name.toLowerCase());
  }

  child(object: ObjectDef, relationshipName: string): ChildRelationship | undefined {
    return this.children.get(object.name.toLowerCase())?.get(relationshipName.toLowerCase());
  }

  objectByPrefix(id: string): ObjectDef | undefined {
    return this.defs.find((d) => id.startsWith(d.keyPrefix));
  }
}
