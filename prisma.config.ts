// Prisma CLI configuration. The schema engine runs as WebAssembly through the pg driver adapter, so
// `prisma migrate diff` (how migrations are written, see README) needs no engine download.
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  adapter: async () =>
    new PrismaPg({ connectionString: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' }),
});
