/**
 * Writes the HubSpot sandbox's contacts as a CRM export (CSV) to stdout or a file, to try a contacts
 * import by hand:   npm run -s sandbox:csv > contacts.csv
 *                   npm run -s sandbox:csv -- --count 100000 --out big.csv
 * Same people as the sandbox the server mounts (SANDBOX_CONTACTS, SANDBOX_SEED, today's reference date).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { generatePeople } from '../api/crm/synthetic-people/index.js';
import { contactsExportLines } from '../api/crm/synthetic-people/export.js';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const count = Number(opt('count') ?? process.env.SANDBOX_CONTACTS ?? 5000);
const seed = Number(opt('seed') ?? process.env.SANDBOX_SEED ?? 42);
const out = opt('out') ? createWriteStream(opt('out')!) : process.stdout;

for (const line of contactsExportLines(generatePeople({ count, seed }))) {
  if (!out.write(line)) await once(out, 'drain');
}
if (out !== process.stdout) out.end();
