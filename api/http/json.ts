// Reading JSON request bodies with a clear 400 on anything else (including text no field accepts
// and nesting deeper than any real payload: see input-guard.ts).
import type { Context } from 'hono';
import { AppError } from '../errors.js';
import { findInputProblem } from './input-guard.js';

export async function readJson(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const problem = findInputProblem(value);
      if (problem) throw new AppError('BAD_USER_INPUT', problem.message, { title: 'Invalid request body', field: problem.path || undefined });
      return value as Record<string, unknown>;
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // not JSON: fall through
  }
  throw new AppError('BAD_USER_INPUT', 'Request body must be a JSON object', { title: 'Invalid request body' });
}
