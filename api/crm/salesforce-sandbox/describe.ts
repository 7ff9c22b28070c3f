/** `describe` and `describeGlobal` in the REST API's shapes, from the schema. */
import type { FieldDef, ObjectDef, Schema } from './schema.js';

const SOAP_TYPES: Record<FieldDef['type'], string> = {
  id: 'tns:ID', reference: 'tns:ID', string: 'xsd:string', email: 'xsd:string', phone: 'xsd:string', url: 'xsd:string',
  picklist: 'xsd:string', textarea: 'xsd:string', boolean: 'xsd:boolean', int: 'xsd:int', double: 'xsd:double',
  currency: 'xsd:double', percent: 'xsd:double', date: 'xsd:date', datetime: 'xsd:dateTime', address: 'urn:address',
};

function objectUrls(version: string, name: string) {
  const base = `/services/data/v${version}/sobjects/${name}`;
  return { sobject: base, describe: `${base}/describe`, rowTemplate: `${base}/{ID}` };
}

function objectSummary(def: ObjectDef, version: string) {
  return {
    activateable: false,
    createable: def.name !== 'Organization',
    custom: false,
    customSetting: false,
    deletable: def.name !== 'Organization' && def.name !== 'User',
    deprecatedAndHidden: false,
    feedEnabled: def.name !== 'OpportunityContactRole' && def.name !== 'Organization',
    hasSubtypes: false,
    isSubtype: false,
    keyPrefix: def.keyPrefix,
    label: def.label,
    labelPlural: def.labelPlural,
    layoutable: def.name !== 'Organization',
    mergeable: def.name === 'Lead' || def.name === 'Contact' || def.name === 'Account',
    mruEnabled: def.name !== 'OpportunityContactRole' && def.name !== 'Organization',
    name: def.name,
    queryable: true,
    replicateable: true,
    retrieveable: true,
    searchable: def.name !== 'OpportunityContactRole' && def.name !== 'Organization',
    triggerable: def.name !== 'Organization',
    undeletable: def.name !== 'Organization' && def.name !== 'User',
    updateable: true,
    urls: objectUrls(version, def.name),
  };
}

export function renderField(f: FieldDef) {
  return {
    aggregatable: f.aggregatable,
    autoNumber: false,
    byteLength: f.length * 3,
    calculated: f.calculated,
    calculatedFormula: null,
    cascadeDelete: false,
    caseSensitive: false,
    compoundFieldName: null,
    controllerName: null,
    createable: f.createable,
    custom: f.custom,
    defaultValue: f.picklist.find((p) => p.default)?.value ?? null,
    defaultValueFormula: null,
    defaultedOnCreate: f.defaultedOnCreate,
    dependentPicklist: false,
    deprecatedAndHidden: false,
    digits: f.type === 'int' ? 9 : 0,
    displayLocationInDecimal: false,
    encrypted: false,
    externalId: false,
    extraTypeInfo: f.type === 'textarea' ? 'plaintextarea' : null,
    filterable: f.filterable,
    filteredLookupInfo: null,
    groupable: f.groupable,
    highScaleNumber: false,
    htmlFormatted: false,
    idLookup: f.type === 'id' || f.type === 'email' || f.unique,
    inlineHelpText: f.inlineHelpText,
    label: f.label,
    length: f.type === 'reference' || f.type === 'id' ? 18 : f.length,
    mask: null,
    maskType: null,
    name: f.name,
    nameField: f.nameField,
    namePointing: false,
    nillable: f.nillable,
    permissionable: f.nillable && !f.calculated && f.type !== 'id',
    picklistValues: f.picklist.map((p) => ({ active: true, defaultValue: p.default === true, label: p.label ?? p.value, validFor: null, value: p.value })),
    polymorphicForeignKey: f.relationshipName === 'Owner',
    precision: f.precision,
    queryByDistance: false,
    referenceTargetField: null,
    referenceTo: f.referenceTo,
    relationshipName: f.relationshipName,
    relationshipOrder: null,
    restrictedDelete: false,
    restrictedPicklist: false,
    scale: f.scale,
    searchPrefilterable: false,
    soapType: SOAP_TYPES[f.type],
    sortable: f.sortable,
    type: f.type,
    unique: f.unique,
    updateable: f.updateable,
    writeRequiresMasterRead: false,
  };
}

export function renderDescribe(def: ObjectDef, version: string) {
  return {
    ...objectSummary(def, version),
    actionOverrides: [],
    childRelationships: def.childRelationships.map((r) => ({
      cascadeDelete: false,
      childSObject: r.childSObject,
      deprecatedAndHidden: false,
      field: r.field,
      junctionIdListNames: [],
      junctionReferenceTo: [],
      relationshipName: r.relationshipName,
      restrictedDelete: false,
    })),
    compactLayoutable: true,
    defaultImplementation: null,
    extendedBy: null,
    extendsInterfaces: null,
    fields: def.fields.map(renderField),
    implementedBy: null,
    implementsInterfaces: null,
    isInterface: false,
    listviewable: null,
    lookupLayoutable: null,
    namedLayoutInfos: [],
    networkScopeFieldName: null,
    recordTypeInfos: [],
    searchLayoutable: true,
    sobjectDescribeOption: 'FULL',
    supportedScopes: [{ label: 'All', name: 'everything' }, { label: 'Mine', name: 'mine' }],
  };
}

export function renderGlobalDescribe(schema: Schema, version: string) {
  return { encoding: 'UTF-8', maxBatchSize: 200, sobjects: schema.defs.map((d) => objectSummary(d, version)) };
}

export function renderObjectInfo(def: ObjectDef, version: string) {
  return { objectDescribe: objectSummary(def, version), recentItems: [] };
}
