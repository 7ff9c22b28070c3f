// The connector of a contacts-file connection (user_integrations.provider "file"): the user's active
// import, read through api/crm/imported/. Registered with the connection service (services/crm.ts
// registerConnectionKind), so questions, exports, Smart Segments and saved segments reach imported
// contacts the way they reach a CRM.
import type { User, UserIntegration } from '@prisma/client';
import type { CrmConnector } from '../../crm/connector.js';
import { ImportedContactsConnector, type SqlRunner } from '../../crm/imported/connector.js';
import { AppError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import { importFieldMap, importFields, storedMappingSchema } from './mapping.js';
import { activeImportOf } from './store.js';

export function sqlRunner(deps: Pick<ServiceDeps, 'prisma'>): SqlRunner {
  return <T>(sql: string, params: unknown[]) => deps.prisma.$queryRawUnsafe<T[]>(sql, ...params);
}

export async function openImportedContacts(deps: ServiceDeps, user: User, _integration: UserIntegration): Promise<CrmConnector> {
  const active = await activeImportOf(deps.prisma, user.id);
  const stored = storedMappingSchema.safeParse(active?.mapping);
  if (!active || !stored.success) {
    throw new AppError('CRM_NOT_CONNECTED', 'You have no imported contacts yet. Import a contacts file in CRM Integration first.');
  }
  const { headers, mapping } = stored.data;
  return new ImportedContactsConnector(sqlRunner(deps), {
    importId: active.id,
    fieldMap: importFieldMap(headers, mapping),
    fields: importFields(headers, mapping),
  });
}
