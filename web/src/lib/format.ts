// The display rules live in client/format.ts, shared with the CLI.
export * from '../../../client/format.js';
