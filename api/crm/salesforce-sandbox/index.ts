/** Public entry of the Salesforce-compatible sandbox. */
export { createSalesforceSandbox, DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS } from './app.js';
export type { SalesforceSandbox, SalesforceSandboxOptions, IssuedTestToken, SandboxClock } from './app.js';
export { buildOrg, buildOrgFromPeople, isContactPerson, type OrgData, type OrgIdentity, type Row, type Value } from './data.js';
export { buildSchema, Schema, type ObjectDef, type FieldDef } from './schema.js';
export { compileSoql, type CompiledQuery } from './soql/compile.js';
export { executeQuery, OrgStore, renderRecord } from './soql/run.js';
export { dateLiteralRange, weekStartOf, type DateContext } from '../salesforce/model/date-literals.js';
export { SalesforceApiError } from './errors.js';
export { startSalesforceSandboxServer, type RunningSalesforceSandbox } from './server.js';
export { createSandboxFaults, SandboxFaults, FAULT_KINDS, type FaultKind, type FaultRule } from './faults.js';
