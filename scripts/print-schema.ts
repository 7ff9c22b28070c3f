// Writes schema.graphql from the Pothos schema (sorted). `npm run schema:print`; a test fails when stale.
import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { schema } from '../api/schema/index.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printSchema(schema) + '\n');
console.log('schema.graphql written');
