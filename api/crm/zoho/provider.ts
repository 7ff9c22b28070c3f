/** Registers Zoho CRM (imported once from api/crm/index.ts). */
import { CrmError } from '../errors.js';
import type { CrmEndpoints, CrmProvider, CrmTokenSet } from '../provider.js';
import { registerProvider } from '../registry.js';
import { createZohoSandbox, ZOHO_SANDBOX_PATH } from '../zoho-sandbox/app.js';
import { isExpiredZohoToken, toZohoCrmError } from './api.js';
import { ZohoConnector } from './connector.js';
import { ZOHO_DATA_CENTRES, ZOHO_DATA_CENTRE_CODES, isZohoDataCentre, type ZohoDataCentre } from './data-centres.js';
import { browserAccountsUrl, dataCentreOf, resolveZohoEndpoints, serverAccountsUrl } from './endpoints.js';
import { ZOHO_FIELD_MAP } from './field-map.js';
import {
  buildZohoAuthorizeUrl, dataCentreOfCallback, decodeZohoGrant, encodeZohoGrant, exchangeZohoCode, refreshZohoToken, revokeZohoToken, type ZohoTokens,
} from './oauth.js';

/**
 * A self client's credentials as the user pastes them: the `self_client.json` the API console downloads
 * (`client_id`, `client_secret`, `code`), or the three values on their own, separated by spaces or lines.
 */
export function parseSelfClientInput(raw: string): { clientId: string; clientSecret: string; code: string } {
  const text = raw.trim();
  if (text.startsWith('{')) {
    try {
      const o = JSON.parse(text) as Record<string, unknown>;
      const clientId = String(o.client_id ?? o.clientId ?? '');
      const clientSecret = String(o.client_secret ?? o.clientSecret ?? '');
      const code = String(o.code ?? o.grant_token ?? '');
      if (clientId && clientSecret && code) return { clientId, clientSecret, code };
    } catch {
      // fall through to the message below
    }
  } else {
    const parts = text.split(/\s+/).filter(Boolean);
    if (parts.length === 3) return { clientId: parts[0], clientSecret: parts[1], code: parts[2] };
  }
  throw new CrmError('VALIDATION', "Paste the self client's JSON (client_id, client_secret, code), or its client ID, client secret and code separated by spaces.");
}

function tokenSet(t: ZohoTokens, refreshToken: string | null): CrmTokenSet {
  return { accessToken: t.accessToken, refreshToken, expiresIn: t.expiresIn, instanceUrl: t.apiDomain, scopes: t.scopes };
}

/**
 * Exchanges a self client's grant code at its data centre: the one the user picked, or each in turn
 * (a code is unknown outside its own data centre, and trying it elsewhere does not use it up).
 */
async function selfClientCredentials(e: CrmEndpoints, input: Record<string, string>): Promise<CrmTokenSet> {
  const { clientId, clientSecret, code } = parseSelfClientInput(input.token ?? '');
  const picked = input.region && isZohoDataCentre(input.region) ? [input.region] : null;
  const first = dataCentreOf(e, undefined);
  const order: ZohoDataCentre[] = picked ?? [first, ...ZOHO_DATA_CENTRE_CODES.filter((d) => d !== first)];
  let last: unknown = null;
  for (const dc of order) {
    try {
      const t = await exchangeZohoCode({ accountsUrl: serverAccountsUrl(e, dc), clientId, clientSecret, code });
      if (!t.refreshToken) throw new CrmError('VALIDATION', 'Zoho gave no refresh token for this code.');
      return tokenSet(t, encodeZohoGrant({ dc, refreshToken: t.refreshToken, selfClient: { clientId, clientSecret } }));
    } catch (err) {
      last = err;
      const wrongPlace = err instanceof CrmError && (err.category === 'invalid_code' || err.category === 'invalid_client');
      if (!wrongPlace || picked) throw err;
    }
  }
  throw last;
}

export const zohoProvider: CrmProvider = {
  crmType: 'zoho',
  label: 'Zoho',
  sandboxPath: ZOHO_SANDBOX_PATH,
  resolveEndpoints: resolveZohoEndpoints,
  createSandbox: (config, endpoints) =>
    createZohoSandbox({
      contactCount: config.sandbox.contacts,
      seed: config.sandbox.seed,
      dataCentre: config.zoho.sandboxDataCentre,
      redirectUris: [endpoints.redirectUri],
    }),
  fieldMapDefaults: ZOHO_FIELD_MAP,
  // Zoho limits calls in flight (and credits per day, budget.ts), not calls per second; the product
  // keeps to ZOHO_CONCURRENCY at once per org.
  limits: { requests: 5, windowMs: 1000 },
  callPolicy: { toCrmError: toZohoCrmError, isExpiredToken: isExpiredZohoToken },
  oauth: {
    authorizeUrl: (e, { state, region }) =>
      buildZohoAuthorizeUrl({ accountsUrl: browserAccountsUrl(e, dataCentreOf(e, region)), clientId: e.clientId!, redirectUri: e.redirectUri, scopes: e.scopes, state }),
    exchangeCode: async (e, { code, region, callback }) => {
      // The callback names the account's data centre (Zoho sends the browser back from it).
      const dc = dataCentreOfCallback(callback, e.authBaseUrl || undefined) ?? dataCentreOf(e, region);
      const t = await exchangeZohoCode({ accountsUrl: serverAccountsUrl(e, dc), clientId: e.clientId!, clientSecret: e.clientSecret!, code, redirectUri: e.redirectUri });
      if (!t.refreshToken) throw new CrmError('VALIDATION', 'Zoho gave no refresh token; connect again.');
      return tokenSet(t, encodeZohoGrant({ dc, refreshToken: t.refreshToken }));
    },
    refresh: async (e, { refreshToken }) => {
      const g = decodeZohoGrant(refreshToken);
      const client = g.selfClient ?? { clientId: e.clientId!, clientSecret: e.clientSecret! };
      const t = await refreshZohoToken({ accountsUrl: serverAccountsUrl(e, g.dc), ...client, refreshToken: g.refreshToken });
      return tokenSet(t, null);
    },
    revoke: async (e, { token }) => {
      const g = decodeZohoGrant(token);
      await revokeZohoToken({ accountsUrl: serverAccountsUrl(e, g.dc), token: g.refreshToken });
    },
  },
  tokenMethod: {
    label: 'Self-client grant code',
    help:
      'In the Zoho API console (api-console.zoho.com for zoho.com accounts), add a Self Client, generate a code with the scopes ' +
      'ZohoCRM.coql.READ, ZohoCRM.modules.ALL, ZohoCRM.settings.fields.READ, ZohoCRM.org.READ and ZohoCRM.users.READ, and paste the ' +
      'downloaded self_client.json (or its client ID, client secret and code) within its time limit.',
    fields: [
      { name: 'token', label: 'Self client JSON (or client ID, client secret and code)', placeholder: '{"client_id":"1000.…","client_secret":"…","code":"1000.…"}', secret: true, required: true },
      {
        name: 'region',
        label: 'Data centre',
        required: false,
        options: [{ value: '', label: 'Detect automatically' }, ...ZOHO_DATA_CENTRE_CODES.map((dc) => ({ value: dc, label: ZOHO_DATA_CENTRES[dc].label }))],
      },
    ],
    credentials: selfClientCredentials,
  },
  // The CRM's app lives next to the data centre's API domain (www.zohoapis.eu → crm.zoho.eu).
  recordUrl: ({ endpoints, instanceUrl }, id) =>
    instanceUrl && !endpoints.sandbox && /^https:\/\/www\.zohoapis\./.test(instanceUrl)
      ? `${instanceUrl.replace('://www.zohoapis.', '://crm.zoho.').replace(/\/$/, '')}/crm/tab/Contacts/${encodeURIComponent(id)}`
      : null,
  createConnector: (options) => new ZohoConnector({ ...options, baseUrl: options.instanceUrl ?? options.baseUrl ?? '' }),
};

registerProvider(zohoProvider);
