// Input validation at the service edge: a zod failure becomes one BAD_USER_INPUT error (400) whose
// message is the first problem and whose `fields` name every field's problem (for forms).
import type { z } from 'zod';
import { AppError } from '../errors.js';

/** Turns a zod failure into one BAD_USER_INPUT error: first problem as message, all in `fields`. */
export function validationError(error: z.ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  const [field, message] = Object.entries(fields)[0] ?? ['_', 'Invalid input'];
  return new AppError('BAD_USER_INPUT', message, { field: field === '_' ? undefined : field, details: { fields } });
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationError(result.error);
  return result.data;
}

