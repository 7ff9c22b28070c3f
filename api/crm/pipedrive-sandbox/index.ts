/** Public entry of the Pipedrive-compatible sandbox. */
export { createPipedriveSandbox, DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS } from './app.js';
export type { PipedriveSandbox, PipedriveSandboxOptions, IssuedPipedriveToken, SandboxClock } from './app.js';
export { generateCompany, SANDBOX_LABELS, LIFECYCLE_FIELD_OPTIONS, SANDBOX_USERS } from './data.js';
export type { PdCompanyData, PdPerson, PdOrganization, PdDeal, PdLabel } from './data.js';
export { customFieldKey } from './fields.js';
export { validateConditions, FilterDefinitionError } from './conditions.js';
export { PipedriveApiError } from './errors.js';
export { startPipedriveSandboxServer, type RunningPipedriveSandbox } from './server.js';
export { createPipedriveSandboxFaults, PIPEDRIVE_FAULT_PROFILE, SandboxFaults, FAULT_KINDS, type FaultKind, type FaultRule } from './faults.js';
