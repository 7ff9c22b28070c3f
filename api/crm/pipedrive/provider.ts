/** Registers Pipedrive (imported once from api/crm/index.ts). */
import { CRM_LABELS } from '../crm-types.js';
import { createPipedriveSandbox } from '../pipedrive-sandbox/app.js';
import type { CrmEndpoints, CrmProvider } from '../provider.js';
import { registerProvider } from '../registry.js';
import { ERROR_CATEGORIES, toPipedriveCrmError } from './client.js';
import { PipedriveConnector } from './connector.js';
import { PIPEDRIVE_SANDBOX_PATH, resolvePipedriveEndpoints } from './endpoints.js';
import { PIPEDRIVE_FIELD_MAP } from './field-map.js';
import { BURST_WINDOW_MS } from './model/index.js';
import { buildPipedriveAuthorizeUrl, exchangePipedriveCode, refreshPipedriveToken, revokePipedriveToken, type PipedriveOAuthApp } from './oauth.js';

const app = (e: CrmEndpoints): PipedriveOAuthApp => ({
  oauthBaseUrl: e.tokenBaseUrl ?? e.authBaseUrl,
  clientId: e.clientId!,
  clientSecret: e.clientSecret!,
  redirectUri: e.redirectUri,
});

export const pipedriveProvider: CrmProvider = {
  crmType: 'pipedrive',
  label: CRM_LABELS.pipedrive,
  sandboxPath: PIPEDRIVE_SANDBOX_PATH,
  resolveEndpoints: resolvePipedriveEndpoints,
  createSandbox: (config, endpoints) =>
    createPipedriveSandbox({ personCount: config.sandbox.contacts, seed: config.sandbox.seed, redirectUris: [endpoints.redirectUri] }),
  fieldMapDefaults: PIPEDRIVE_FIELD_MAP,
  // The lowest plan's burst limit for an API token (Lite: 20 requests per 2 s); the connector follows
  // the x-ratelimit-limit header once Pipedrive has answered.
  limits: { requests: 20, windowMs: BURST_WINDOW_MS },
  callPolicy: {
    toCrmError: (raw, op) => toPipedriveCrmError(raw, op, 'oauth'),
    isExpiredToken: (err) => err.code === 'UNAUTHORIZED' && err.category === ERROR_CATEGORIES.oauthToken,
  },
  oauth: {
    authorizeUrl: (e, { state }) => buildPipedriveAuthorizeUrl({ oauthBaseUrl: e.authBaseUrl, clientId: e.clientId!, redirectUri: e.redirectUri }, state),
    exchangeCode: async (e, { code }) => {
      const t = await exchangePipedriveCode(app(e), code);
      return { accessToken: t.accessToken, refreshToken: t.refreshToken, expiresIn: t.expiresIn, instanceUrl: t.apiDomain, scopes: t.scopes };
    },
    refresh: async (e, { refreshToken }) => {
      const t = await refreshPipedriveToken(app(e), refreshToken);
      return { accessToken: t.accessToken, refreshToken: t.refreshToken, expiresIn: t.expiresIn, instanceUrl: t.apiDomain, scopes: t.scopes };
    },
    revoke: (e, { token }) => revokePipedriveToken(app(e), token),
  },
  tokenMethod: {
    label: 'Personal API token',
    help: 'In Pipedrive: your profile picture → Personal preferences → API, then copy “Your personal API token”.',
    fields: [{ name: 'token', label: 'Personal API token', placeholder: '40 characters, e.g. 5f2c8a1e…', secret: true, required: true }],
    credentials: async (_e, input) => ({ accessToken: input.token, refreshToken: null, expiresIn: null }),
  },
  recordUrl: ({ endpoints, instanceUrl }, id) => (instanceUrl && !endpoints.sandbox ? `${instanceUrl.replace(/\/$/, '')}/person/${encodeURIComponent(id)}` : null),
  createConnector: (options) => new PipedriveConnector(options),
};

registerProvider(pipedriveProvider);
