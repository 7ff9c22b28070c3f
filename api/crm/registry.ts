/**
 * Connector registry keyed by crmType. A CRM integration is one file that calls
 * `registerConnector(factory)` at import time (see hubspot/provider.ts) and is imported once from
 * `api/crm/index.ts` — the same pattern as the schema index. Asking for a CRM nobody registered is a
 * NOT_SUPPORTED CrmError with a user-facing message, never a crash.
 */
import { CRM_LABELS, CRM_TYPES, type CrmConnectorFactory, type CrmConnectorOptions, type CrmType } from './connector.js';
import { CrmError } from './errors.js';

const factories = new Map<string, CrmConnectorFactory<any>>();

export function registerConnector(factory: CrmConnectorFactory<any>): void {
  factories.set(factory.crmType, factory);
}

export function isKnownCrmType(value: unknown): value is CrmType {
  return typeof value === 'string' && (CRM_TYPES as readonly string[]).includes(value);
}

export function isCrmSupported(crmType: unknown): boolean {
  return typeof crmType === 'string' && factories.has(crmType);
}

export function supportedCrmTypes(): CrmType[] {
  return CRM_TYPES.filter((t) => factories.has(t));
}

export function notSupportedMessage(crmType: unknown): string {
  const name = isKnownCrmType(crmType) ? (crmType === 'other' ? 'This CRM' : CRM_LABELS[crmType]) : 'This CRM';
  return `${name} is not yet supported. HubSpot is the supported CRM today.`;
}

/** The factory for a CRM, or a NOT_SUPPORTED CrmError. */
export function getConnectorFactory<O extends CrmConnectorOptions = CrmConnectorOptions>(crmType: unknown): CrmConnectorFactory<O> {
  const f = typeof crmType === 'string' ? factories.get(crmType) : undefined;
  if (!f) throw new CrmError('NOT_SUPPORTED', notSupportedMessage(crmType), { details: { crmType } });
  return f as CrmConnectorFactory<O>;
}
