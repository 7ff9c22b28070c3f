// Formats shared by the GraphQL schema and the REST presenters.
import { Prisma } from '@prisma/client';

/** Money and scores are decimal strings with two decimals, as the spec shows them ("49.00"). */
export const decimalString = (v: Prisma.Decimal | string | number | null | undefined): string | null =>
  v === null || v === undefined ? null : new Prisma.Decimal(v).toFixed(2);

/** A calendar date (a `@db.Date` column) as YYYY-MM-DD. */
export const isoDay = (d: Date): string => d.toISOString().slice(0, 10);
