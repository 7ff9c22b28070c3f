/**
 * The CRMs the product speaks, keyed by crmType. A CRM is one folder whose `provider.ts` calls
 * `registerProvider(provider)` at import time and is imported once from `api/crm/index.ts`. Asking for a
 * CRM nobody registered is a NOT_SUPPORTED CrmError with a user-facing message, never a crash; users of
 * such a CRM (and "Other") connect through a contacts file instead (api/crm/imported/).
 */
import { CRM_LABELS, CRM_TYPES, type CrmType } from './crm-types.js';
import { CrmError } from './errors.js';
import type { CrmProvider } from './provider.js';

const providers = new Map<string, CrmProvider>();

export function registerProvider(provider: CrmProvider): void {
  providers.set(provider.crmType, provider);
}

export function isKnownCrmType(value: unknown): value is CrmType {
  return typeof value === 'string' && (CRM_TYPES as readonly string[]).includes(value);
}

/** Whether the CRM has a native connector (else its users import contacts from a file). */
export function isCrmSupported(crmType: unknown): boolean {
  return typeof crmType === 'string' && providers.has(crmType);
}

export function supportedCrmTypes(): CrmType[] {
  return CRM_TYPES.filter((t) => providers.has(t));
}

export function registeredProviders(): CrmProvider[] {
  return supportedCrmTypes().map((t) => providers.get(t)!);
}

/** The CRM's name as the product writes it ("HubSpot", "Salesforce"; "your CRM" for Other). */
export function crmLabel(crmType: unknown): string {
  const p = typeof crmType === 'string' ? providers.get(crmType) : undefined;
  if (p) return p.label;
  return isKnownCrmType(crmType) && crmType !== 'other' ? CRM_LABELS[crmType] : 'your CRM';
}

export function notSupportedMessage(crmType: unknown): string {
  const name = isKnownCrmType(crmType) && crmType !== 'other' ? CRM_LABELS[crmType] : 'This CRM';
  return `${name} cannot be connected directly yet. Import your contacts from a CSV or Excel export instead.`;
}

/** The provider of a CRM, or a NOT_SUPPORTED CrmError. */
export function getProvider(crmType: unknown): CrmProvider {
  const p = typeof crmType === 'string' ? providers.get(crmType) : undefined;
  if (!p) throw new CrmError('NOT_SUPPORTED', notSupportedMessage(crmType), { details: { crmType } });
  return p;
}
