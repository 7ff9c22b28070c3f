/** Public entry of the HubSpot-compatible sandbox. */
export { createHubSpotSandbox, DEFAULT_SANDBOX_CREDENTIALS } from './app.js';
export type { HubSpotSandbox, HubSpotSandboxOptions, IssuedTestToken, SandboxClock } from './app.js';
export { generateContacts, resolveReferenceNow } from './data.js';
export type { SandboxContact, GenerateContactsOptions } from './data.js';
export { executeSearch, countMatches } from './search.js';
export { createContactStore, ContactStore, tokenize, renderContact } from './store.js';
export { HubSpotApiError } from './errors.js';
export type { HubSpotErrorBody } from './errors.js';
export { CONTACT_PROPERTY_DEFS, DEFAULT_SEARCH_PROPERTIES } from './properties.js';
export { COUNTRIES } from '../synthetic-people/geo.js';
export { startHubSpotSandboxServer, type RunningSandbox } from './server.js';
export { createSandboxFaults, SandboxFaults, FAULT_KINDS, type FaultKind, type FaultRule } from './faults.js';
