/**
 * Everything the product needs of one CRM, registered once (`<crm>/provider.ts`, imported by
 * `api/crm/index.ts`): how it is named, where it lives (the real CRM or its in-process sandbox), how a
 * user connects it (OAuth and the spec's token method, adapted to the CRM), its connector, its field-map
 * defaults and its limits. The connection service (services/crm.ts) and the app (the sandbox mounts)
 * work from this alone, so adding a CRM touches no other file.
 */
import type { Hono } from 'hono';
import type { Config } from '../config.js';
import type { CallPolicyOptions, CrmLimits } from './call-policy.js';
import type { CrmConnector, CrmConnectorOptions } from './connector.js';
import type { CrmType } from './crm-types.js';
import type { FieldMap } from './field-map.js';

/** Where the product finds one CRM: the real service, or its sandbox mounted in this process. */
export interface CrmEndpoints {
  /** true when the embedded sandbox serves this CRM */
  sandbox: boolean;
  /** base URL the server calls (API, and the token endpoint unless `tokenBaseUrl` says otherwise) */
  apiBaseUrl: string;
  /** base URL of the authorize page the browser is sent to */
  authBaseUrl: string;
  /** base URL of the OAuth token endpoint, when it is not the API's (Salesforce's login host, Zoho's accounts host) */
  tokenBaseUrl?: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  scopes: string[];
  redirectUri: string;
}

/** Tokens as a CRM's OAuth token endpoint gives them. */
export interface CrmTokenSet {
  accessToken: string;
  /** null when the CRM issues none (a personal API token) or keeps the previous one on refresh */
  refreshToken: string | null;
  /** seconds; null when the token does not expire (or the CRM does not say) */
  expiresIn: number | null;
  /** the per-account API host the token is for (Salesforce instance URL, Pipedrive api_domain, Zoho api_domain) */
  instanceUrl?: string;
  scopes?: string[];
}

export interface CrmOAuth {
  /** the provider's authorize URL for this state (and, where the CRM has them, the user's region) */
  authorizeUrl(endpoints: CrmEndpoints, input: { state: string; region?: string }): string;
  /** exchanges the callback's code; `callback` carries the query parameters the CRM added (Zoho: accounts-server, location) */
  exchangeCode(endpoints: CrmEndpoints, input: { code: string; region?: string; callback: Record<string, string> }): Promise<CrmTokenSet>;
  refresh(endpoints: CrmEndpoints, input: { refreshToken: string; region?: string }): Promise<CrmTokenSet>;
  /** revokes the grant on disconnect (best effort: a token the CRM no longer knows counts as revoked) */
  revoke?(endpoints: CrmEndpoints, input: { token: string; region?: string }): Promise<void>;
}

/** One input of the token method (the spec's "paste a token", adapted to each CRM). */
export interface TokenMethodField {
  name: 'token' | 'instanceUrl' | 'region';
  label: string;
  placeholder?: string;
  /** shown as a password field, never echoed back */
  secret?: boolean;
  required: boolean;
  options?: { value: string; label: string }[];
}

export interface CrmTokenMethod {
  /** e.g. "Private app token", "Access token and instance URL", "Personal API token", "Self-client grant code" */
  label: string;
  /** one sentence on where the user finds it */
  help: string;
  fields: TokenMethodField[];
  /**
   * Turns what the user pasted into the credentials to store (a Zoho self-client grant code is exchanged
   * for tokens here). Throws AppError/CrmError with a user-facing message when the input is unusable.
   */
  credentials(endpoints: CrmEndpoints, input: Record<string, string>): Promise<CrmTokenSet>;
}

/** What a sandbox mount gives the app: its Hono app (mounted at `path`). */
export interface MountedSandbox {
  app: Hono;
}

/** Where a user's connection lives, for links to its records in the CRM's app. */
export interface CrmRecordLink {
  endpoints: CrmEndpoints;
  /** the account (HubSpot portal) the connection is for */
  accountId: string | null;
  /** the per-account host (Salesforce instance, Pipedrive company domain, Zoho API domain) */
  instanceUrl: string | null;
}

export interface CrmProvider {
  crmType: CrmType;
  /** the CRM's name on screens and in the CLI ("Connect HubSpot to view segments") */
  label: string;
  /** where the embedded sandbox is mounted in this process (e.g. "/hubspot-sandbox") */
  sandboxPath: string;
  resolveEndpoints(config: Config, appUrl: string): CrmEndpoints;
  /** the in-process sandbox for embedded mode (only when `resolveEndpoints` says `sandbox`) */
  createSandbox?(config: Config, endpoints: CrmEndpoints): MountedSandbox;
  fieldMapDefaults: FieldMap;
  limits: CrmLimits;
  /** how this CRM's failures read, for the shared call policy */
  callPolicy?: Pick<CallPolicyOptions, 'toCrmError' | 'isExpiredToken'>;
  oauth?: CrmOAuth;
  tokenMethod: CrmTokenMethod;
  /** The contact's page in the CRM's app (null: none to link to, e.g. a sandbox without pages). */
  recordUrl?(link: CrmRecordLink, id: string): string | null;
  /** `instanceUrl`: the per-connection API host stored with the connection (else the endpoints' apiBaseUrl) */
  createConnector(options: CrmConnectorOptions & { instanceUrl?: string; region?: string }): CrmConnector;
}
