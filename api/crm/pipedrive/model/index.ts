/**
 * What the product knows about Pipedrive's API, in one place: the filter definitions, response
 * envelopes, paging, OAuth and rate-limit headers. The connector and the sandbox both read it; it
 * imports nothing outside this folder.
 */
export * from './wire.js';
