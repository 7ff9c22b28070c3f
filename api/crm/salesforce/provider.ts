/** Registers Salesforce (imported once from api/crm/index.ts). */
import { AppError } from '../../errors.js';
import { createSalesforceSandbox } from '../salesforce-sandbox/app.js';
import type { CrmProvider } from '../provider.js';
import { registerProvider } from '../registry.js';
import { SalesforceConnector } from './connector.js';
import { checkInstanceUrl, resolveSalesforceEndpoints, SALESFORCE_SANDBOX_PATH } from './endpoints.js';
import { toCrmError } from './errors.js';
import { SALESFORCE_FIELD_MAP } from './field-map.js';
import { authorizeUrl, exchangeCode, refresh, revoke } from './oauth.js';
import type { Config } from '../../config.js';

/** Requests per second the product allows itself per org (Salesforce's limits are daily and on concurrency). */
export const SALESFORCE_PACE = { requests: 10, windowMs: 1000 };

type Settings = Pick<Config['salesforce'], 'apiVersion' | 'instanceHosts' | 'apiReserve'>;
/** The configuration's defaults until the app resolves the endpoints with its configuration (which sets them). */
let settings: Settings = { apiVersion: '62.0', instanceHosts: ['salesforce.com', 'force.com', 'salesforce.mil', 'cloudforce.com', 'database.com'], apiReserve: 0.1 };
const sf = () => settings;

export const salesforceProvider: CrmProvider = {
  crmType: 'salesforce',
  label: 'Salesforce',
  sandboxPath: SALESFORCE_SANDBOX_PATH,
  resolveEndpoints: (config, appUrl) => {
    settings = config.salesforce;
    return resolveSalesforceEndpoints(config, appUrl);
  },
  createSandbox: (config, endpoints) =>
    createSalesforceSandbox({
      contactCount: config.sandbox.contacts,
      seed: config.sandbox.seed,
      redirectUris: [endpoints.redirectUri],
      timeZone: config.salesforce.sandboxTimeZone,
    }),
  fieldMapDefaults: SALESFORCE_FIELD_MAP,
  limits: SALESFORCE_PACE,
  callPolicy: {
    toCrmError,
    isExpiredToken: (err) => err.code === 'UNAUTHORIZED' && err.category === 'INVALID_SESSION_ID',
  },
  oauth: {
    authorizeUrl: (e, { state }) => authorizeUrl(e, state),
    exchangeCode: (e, { code }) => exchangeCode(e, code),
    refresh: (e, { refreshToken }) => refresh(e, refreshToken),
    revoke: (e, { token }) => revoke(e, token),
  },
  tokenMethod: {
    label: 'Access token and instance URL',
    help: 'A session ID of a user with API access and the org\'s instance URL, e.g. from `sf org display --target-org <alias>` (Access Token and Instance Url).',
    fields: [
      { name: 'token', label: 'Access token', placeholder: '00D…!AQ…', secret: true, required: true },
      { name: 'instanceUrl', label: 'Instance URL', placeholder: 'https://yourcompany.my.salesforce.com', required: true },
    ],
    credentials: async (e, input) => {
      const instanceUrl = checkInstanceUrl(input.instanceUrl ?? '', sf().instanceHosts, e.sandbox ? [e.apiBaseUrl, e.authBaseUrl] : []);
      if (!instanceUrl) {
        throw new AppError('BAD_USER_INPUT', 'Enter your org\'s instance URL, e.g. https://yourcompany.my.salesforce.com.', { field: 'instanceUrl', title: 'Invalid instance URL' });
      }
      return { accessToken: input.token, refreshToken: null, expiresIn: null, instanceUrl };
    },
  },
  recordUrl: ({ endpoints, instanceUrl }, id) => (instanceUrl && !endpoints.sandbox ? `${instanceUrl.replace(/\/$/, '')}/lightning/r/Contact/${encodeURIComponent(id)}/view` : null),
  createConnector: (options) =>
    new SalesforceConnector({
      ...options,
      instanceUrl: options.instanceUrl,
      apiVersion: sf().apiVersion,
      allocationReserve: sf().apiReserve,
      requestsPerSecond: SALESFORCE_PACE.requests,
    }),
};

registerProvider(salesforceProvider);
