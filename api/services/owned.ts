// "The user's own row, or 404": one rule for every per-user record (queries, saved segments, daily
// segments, access tokens). Someone else's row is "not found" too, so ids are never confirmed to exist.
import type { User } from '@prisma/client';
import { assertId, notFound } from '../errors.js';

export async function findOwned<T>(
  find: (where: { id: string; userId: string }) => Promise<T | null>,
  id: string,
  user: Pick<User, 'id'>,
  what: string,
): Promise<T> {
  assertId(id, what);
  const row = await find({ id, userId: user.id });
  if (!row) throw notFound(`${what} not found`);
  return row;
}
