/** Public entry of the Zoho CRM sandbox. */
export { createZohoSandbox, DEFAULT_ZOHO_CREDENTIALS, ZOHO_READ_SCOPES, ZOHO_SANDBOX_PATH } from './app.js';
export type { ZohoSandbox, ZohoSandboxOptions, IssuedZohoToken, SandboxClock } from './app.js';
export { toZohoDataset, generateZohoDataset, personRecordId, personIdOfRecord, isContactPerson, LIFECYCLE_STAGE_LABELS, WON_STAGE } from './data.js';
export type { ZohoDataset, ZohoRecord, StoredValue } from './data.js';
export { FIELDS, MODULES, type ModuleName, type FieldDef } from './fields.js';
export { parseCoql, type CoqlQuery } from './coql/parse.js';
export { executeCoql } from './coql/execute.js';
export { ZohoApiError } from './errors.js';
export { startZohoSandboxServer, type RunningZohoSandbox } from './server.js';
export { createZohoSandboxFaults, ZohoSandboxFaults, FAULT_KINDS, type FaultKind, type FaultRule } from './faults.js';
