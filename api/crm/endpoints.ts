// Where the product finds each CRM: every registered provider resolves its own endpoints (the real CRM
// when its API URL is configured, otherwise its sandbox mounted in this process).
import type { Config } from '../config.js';
import type { CrmType } from './crm-types.js';
import { HUBSPOT_SANDBOX_PATH } from './hubspot/endpoints.js';
import type { CrmEndpoints } from './provider.js';
import { getProvider, registeredProviders } from './registry.js';

export type { CrmEndpoints } from './provider.js';

/** HubSpot's sandbox mount (the first CRM's; each provider names its own `sandboxPath`). */
export const SANDBOX_PATH = HUBSPOT_SANDBOX_PATH;

/** The endpoints of every registered CRM, resolved once at start-up. */
export function resolveCrmEndpoints(config: Config, appUrl: string): (crmType: CrmType | string) => CrmEndpoints {
  const resolved = new Map(registeredProviders().map((p) => [p.crmType as string, p.resolveEndpoints(config, appUrl)]));
  return (crmType) => {
    const e = resolved.get(crmType);
    if (!e) getProvider(crmType); // throws NOT_SUPPORTED with the user-facing message
    return e!;
  };
}
