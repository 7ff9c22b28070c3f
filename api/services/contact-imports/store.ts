// Where imports live in the database: the contacts of an import written in batches (one statement per
// batch, every value a bind parameter), the switch that makes an import the user's contacts (one
// transaction: the file connection replaces any CRM connection, the import becomes active, the one
// before becomes what undo restores), undo, and removing what is no longer needed.
import type { ContactImport, PrismaClient } from '@prisma/client';
import type { ServiceDeps } from '../deps.js';
import { encryptSecret } from '../../crypto.js';
import { forgetCrmVocabulary } from '../crm-vocabulary.js';
import type { ImportRow } from './mapping.js';

/** The provider name of a contacts-file connection (user_integrations.provider) and its token type. */
export const FILE_PROVIDER = 'file';

export type ImportStatus = 'uploaded' | 'importing' | 'active' | 'previous' | 'failed' | 'superseded' | 'undone';

const COLUMNS = [
  ['id', 'text'], ['id_num', 'float8'], ['first_name', 'text'], ['last_name', 'text'], ['email', 'text'], ['company', 'text'],
  ['city', 'text'], ['state', 'text'], ['country', 'text'], ['first_name_key', 'text'], ['last_name_key', 'text'], ['email_key', 'text'],
  ['company_key', 'text'], ['city_key', 'text'], ['state_key', 'text'], ['country_key', 'text'], ['email_domain_key', 'text'], ['stage_value', 'text'], ['stage', 'text'],
  ['lifecycle_stage', 'text'], ['last_purchase_at', 'timestamptz'], ['last_purchase_amount', 'float8'], ['lifetime_value', 'float8'],
  ['created_at', 'timestamptz'],
] as const;

const INSERT_SQL = `INSERT INTO imported_contacts (import_id, ${COLUMNS.map(([c]) => c).join(', ')})
SELECT $1::uuid, u.* FROM unnest(${COLUMNS.map(([, t], i) => `$${i + 2}::${t}[]`).join(', ')}) AS u
ON CONFLICT (import_id, id) DO NOTHING
RETURNING id`;

const key = (s: string | null) => (s === null ? null : s.toLowerCase());
/** The lower-cased part of an e-mail after its last "@" (null without one). */
export const domainKey = (email: string | null) => {
  const at = email === null ? -1 : email.lastIndexOf('@');
  return at < 0 ? null : email!.slice(at + 1).toLowerCase();
};
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * A bulk statement (large parameters): through node-postgres when the app has it (deps.bulk), since
 * Prisma keeps memory for every large raw query it compiles; else through Prisma.
 */
export async function bulkQuery<T>(deps: Pick<ServiceDeps, 'prisma' | 'bulk'>, sql: string, params: unknown[]): Promise<T[]> {
  if (deps.bulk) return (await deps.bulk.query(sql, params)).rows as T[];
  return deps.prisma.$queryRawUnsafe<T[]>(sql, ...params);
}

/**
 * Writes a batch of contacts (ids unique within the batch); returns the ids written. An id some earlier
 * batch already wrote is not written again (the caller reports it as a duplicate).
 */
export async function insertContacts(deps: Pick<ServiceDeps, 'prisma' | 'bulk'>, importId: string, rows: readonly ImportRow[]): Promise<Set<string>> {
  if (!rows.length) return new Set();
  const values: Record<(typeof COLUMNS)[number][0], unknown[]> = Object.fromEntries(COLUMNS.map(([c]) => [c, []])) as never;
  for (const r of rows) {
    values.id.push(r.id);
    values.id_num.push(r.idNum);
    values.first_name.push(r.firstName);
    values.last_name.push(r.lastName);
    values.email.push(r.email);
    values.company.push(r.company);
    values.city.push(r.city);
    values.state.push(r.state);
    values.country.push(r.country);
    values.first_name_key.push(key(r.firstName));
    values.last_name_key.push(key(r.lastName));
    values.email_key.push(key(r.email));
    values.company_key.push(key(r.company));
    values.city_key.push(key(r.city));
    values.state_key.push(key(r.state));
    values.country_key.push(key(r.country));
    values.email_domain_key.push(domainKey(r.email));
    values.stage_value.push(r.stageValue);
    values.stage.push(r.stage);
    values.lifecycle_stage.push(r.lifecycleStage);
    values.last_purchase_at.push(iso(r.lastPurchaseAt));
    values.last_purchase_amount.push(r.lastPurchaseAmount);
    values.lifetime_value.push(r.lifetimeValue);
    values.created_at.push(iso(r.createdAt));
  }
  const written = await bulkQuery<{ id: string }>(deps, INSERT_SQL, [importId, ...COLUMNS.map(([c]) => values[c])]);
  return new Set(written.map((w) => w.id));
}

/**
 * Makes an import the user's contacts, atomically: the file connection replaces any other connection,
 * the active import becomes the previous one (what undo restores), the previous one is superseded
 * (deleted right after), and the import becomes active. Returns the ids of imports to delete now.
 */
export async function activateImport(deps: ServiceDeps, imp: ContactImport, remember: unknown): Promise<string[]> {
  const now = deps.now();
  // the new contacts' companies and places replace the old ones for the parser and the suggestions
  const superseded = await deps.prisma.$transaction(async (tx) => {
    // One active connection per user, as when a CRM is connected: the file connection replaces the others.
    // Its "token" is only a marker: a file connection has nothing secret to store.
    await tx.userIntegration.deleteMany({ where: { userId: imp.userId, provider: { not: FILE_PROVIDER } } });
    const integration = await tx.userIntegration.upsert({
      where: { userId_provider: { userId: imp.userId, provider: FILE_PROVIDER } },
      create: {
        userId: imp.userId, provider: FILE_PROVIDER, tokenType: 'file', scopes: [],
        accessTokenCiphertext: encryptSecret(FILE_PROVIDER, deps.config.tokenEncryptionKey),
      },
      // its updatedAt marks it the user's latest connection
      update: { isRevoked: false, updatedAt: now },
    });
    const superseded = await tx.contactImport.findMany({ where: { userId: imp.userId, status: 'previous' }, select: { id: true } });
    await tx.contactImport.updateMany({ where: { userId: imp.userId, status: 'previous' }, data: { status: 'superseded' } });
    await tx.contactImport.updateMany({ where: { userId: imp.userId, status: 'active' }, data: { status: 'previous', integrationId: integration.id } });
    await tx.contactImport.update({ where: { id: imp.id }, data: { status: 'active', integrationId: integration.id, completedAt: now } });
    await tx.contactImportMapping.upsert({
      where: { userId: imp.userId },
      create: { userId: imp.userId, mapping: remember as object },
      update: { mapping: remember as object },
    });
    return superseded.map((s) => s.id);
  });
  forgetCrmVocabulary(imp.userId);
  return superseded;
}

/**
 * Undoes the user's last import: the previous one becomes active again, or, when there was none, the
 * file connection ends. Returns the undone import's id (deleted right after), or null when nothing can be undone.
 */
export async function undoImport(deps: ServiceDeps, userId: string): Promise<string | null> {
  const undone = await deps.prisma.$transaction(async (tx) => {
    const active = await tx.contactImport.findFirst({ where: { userId, status: 'active' } });
    if (!active) return null;
    await tx.contactImport.update({ where: { id: active.id }, data: { status: 'undone', integrationId: null } });
    const previous = await tx.contactImport.findFirst({ where: { userId, status: 'previous' } });
    if (previous) {
      await tx.contactImport.update({ where: { id: previous.id }, data: { status: 'active' } });
      if (previous.integrationId) await tx.userIntegration.update({ where: { id: previous.integrationId }, data: { updatedAt: deps.now() } });
    } else {
      await tx.userIntegration.deleteMany({ where: { userId, provider: FILE_PROVIDER } });
    }
    return active.id;
  });
  if (undone) forgetCrmVocabulary(userId);
  return undone;
}

/** Deletes imports with their contacts and file (cascades); a batch of contacts at a time would not help PostgreSQL here. */
export async function deleteImports(deps: ServiceDeps, ids: string[]): Promise<void> {
  if (ids.length) await deps.prisma.contactImport.deleteMany({ where: { id: { in: ids } } });
}

/** The user's active import (what their file connection reads), if any. */
export function activeImportOf(prisma: PrismaClient, userId: string): Promise<ContactImport | null> {
  return prisma.contactImport.findFirst({ where: { userId, status: 'active' } });
}
