/**
 * What the product knows about HubSpot, in one place: the search API's wire types and limits, the
 * contact properties the product reads (and their types), the lifecycle-stage mapping and the order of
 * search results. The connector, the sandbox, the segmentation compiler, the in-memory evaluator and
 * the segment runner all read it; it imports nothing outside this folder.
 */
export * from './lifecycle.js';
export * from './order.js';
export * from './properties.js';
export * from './values.js';
export * from './wire.js';
