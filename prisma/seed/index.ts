// `npm run seed`: seeds the configured database (DATABASE_URL or the embedded one) and prints the
// credentials of accounts it created.
import { loadConfig } from '../../api/config.js';
import { openDatabase } from '../../api/db/database.js';
import { seed } from './seed.js';

const config = loadConfig();
const db = await openDatabase(config);
try {
  const created = await seed(db.prisma, config.seed);
  for (const a of created) console.log(`Created ${a.role} account: ${a.email} / ${a.password}`);
  if (!created.length) console.log('Seed data is present; nothing to create.');
} finally {
  await db.close();
}
