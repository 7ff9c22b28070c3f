// Text and nesting no request may carry, checked at the edge (REST bodies, GraphQL documents and
// variables) before any service sees them: U+0000 (PostgreSQL text cannot hold it), unpaired UTF-16
// surrogates (not text at all) and nesting deeper than any real payload. One clear 400 /
// BAD_USER_INPUT instead of a database error deep inside a request that may already have spent quota.
import { z } from 'zod';

export const MAX_INPUT_DEPTH = 32;

// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A text value no field accepts. */
export const cleanText = z
  .string()
  .refine((s) => !NUL.test(s), 'must not contain NUL characters')
  .refine((s) => !LONE_SURROGATE.test(s), 'must not contain unpaired surrogate characters');

export interface InputProblem {
  path: string;
  message: string;
}

/** The first problem in a JSON-like value (strings, keys, depth), or null. Iterative: no stack overflow. */
export function findInputProblem(value: unknown, maxDepth = MAX_INPUT_DEPTH): InputProblem | null {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: '', depth: 0 }];
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const r = cleanText.safeParse(v);
      if (!r.success) return { path, message: `${path || 'Input'} ${r.error.issues[0].message}` };
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (depth >= maxDepth) return { path, message: `Input is nested too deeply (more than ${maxDepth} levels)` };
    for (const [k, child] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
      const childPath = path ? `${path}.${k}` : String(k);
      if (typeof k === 'string') {
        const r = cleanText.safeParse(k);
        if (!r.success) return { path: childPath, message: `A field name ${r.error.issues[0].message}` };
      }
      stack.push({ v: child, path: childPath, depth: depth + 1 });
    }
  }
  return null;
}
