import { readFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { expect, it } from 'vitest';
import { schema } from '../../api/schema/index.js';

it('schema.graphql is up to date (run `npm run schema:print`)', () => {
  const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
  expect(committed).toBe(printSchema(schema) + '\n');
});
