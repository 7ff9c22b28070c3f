// Chooses where the data lives: DATABASE_URL when set, otherwise the embedded PGlite under DATA_DIR.
// Migrations are applied before the client is handed out.
import type { PrismaClient } from '@prisma/client';
import type { Config } from '../config.js';
import { createPrismaClient } from './client.js';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded.js';
import { migrate } from './migrate.js';

export interface Database {
  prisma: PrismaClient;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'embeddedDbPort'>): Promise<Database> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedDatabase({ dataDir: config.dataDir, port: config.embeddedDbPort });
    url = embedded.url;
  }
  try {
    await migrate(url);
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  const prisma = createPrismaClient(url, { max: embedded ? 4 : 10 });
  return {
    prisma,
    url,
    embedded: Boolean(embedded),
    async close() {
      await prisma.$disconnect();
      await embedded?.stop();
    },
  };
}
