/**
 * Test-only fault injection for the Pipedrive sandbox: the same switchboard as the HubSpot sandbox's
 * (hubspot-sandbox/faults.ts: latency, server errors, 429s, reset connections, slow or cut bodies,
 * expired tokens) with Pipedrive's answers. Only code can pass it to `createPipedriveSandbox({ faults })`;
 * nothing over HTTP turns a fault on, and the sandbox the product mounts has none.
 */
import { RATE_LIMIT_HEADERS } from '../pipedrive/model/index.js';
import { SandboxFaults, type FaultProfile } from '../hubspot-sandbox/faults.js';
import { ERROR_INFO } from './errors.js';

export { SandboxFaults, FAULT_KINDS, type FaultKind, type FaultRule } from '../hubspot-sandbox/faults.js';

const body = (error: string, errorCode: number) => ({ success: false, error, errorCode, error_info: ERROR_INFO, data: null, additional_data: null });

export const PIPEDRIVE_FAULT_PROFILE: FaultProfile = {
  apiPaths: /\/(api\/v[12]|v1)\//,
  serverError: (c, status) => c.json(body('Internal server error', status), status as 503),
  rateLimit: (c, retryAfterSeconds) =>
    c.json(body('Request over limit', 429), 429, {
      'retry-after': String(retryAfterSeconds),
      [RATE_LIMIT_HEADERS.burstRemaining]: '0',
      // (tests may pass fractions, e.g. 0.2 s, to keep retries fast)
      [RATE_LIMIT_HEADERS.burstReset]: String(retryAfterSeconds),
    }),
  expiredToken: (c) => c.json(body('Invalid token: access token has expired', 401), 401),
};

export function createPipedriveSandboxFaults(): SandboxFaults {
  return new SandboxFaults(PIPEDRIVE_FAULT_PROFILE);
}
