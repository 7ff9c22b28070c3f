// Prisma client factory over the pg driver adapter (works for real PostgreSQL and embedded PGlite).
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@prisma/client';

export type Db = PrismaClient;

export function createPrismaClient(databaseUrl: string, opts: { max?: number } = {}): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: opts.max ?? 10 });
  return new PrismaClient({ adapter });
}
