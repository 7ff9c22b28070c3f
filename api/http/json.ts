// Reading JSON request bodies with a clear 400 on anything else.
import type { Context } from 'hono';
import { AppError } from '../errors.js';

export async function readJson(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new AppError('BAD_USER_INPUT', 'Request body must be a JSON object', { title: 'Invalid request body' });
}
