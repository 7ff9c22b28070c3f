import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { crmLabel, getProvider, isCrmSupported } from '../index.js';
import { startPipedriveSandboxServer, type RunningPipedriveSandbox } from '../pipedrive-sandbox/server.js';
import type { CrmEndpoints } from '../provider.js';
import { PipedriveConnector } from './connector.js';

const provider = getProvider('pipedrive');

describe('the Pipedrive provider', () => {
  it('is registered under its sign-up label, with its sandbox path and connector', () => {
    expect(isCrmSupported('pipedrive')).toBe(true);
    expect(crmLabel('pipedrive')).toBe('PipeDrive');
    expect(provider.sandboxPath).toBe('/pipedrive-sandbox');
    expect(provider.createConnector({ getAccessToken: () => 'x' })).toBeInstanceOf(PipedriveConnector);
    expect(provider.tokenMethod.fields.map((f) => f.name)).toEqual(['token']);
  });

  it('finds the real Pipedrive when configured, the in-process sandbox otherwise', () => {
    const embedded = provider.resolveEndpoints(loadConfig({ NODE_ENV: 'test' }), 'http://127.0.0.1:3000');
    expect(embedded).toMatchObject({
      sandbox: true,
      apiBaseUrl: 'http://127.0.0.1:3000/pipedrive-sandbox',
      authBaseUrl: 'http://127.0.0.1:3000/pipedrive-sandbox',
      redirectUri: 'http://127.0.0.1:3000/api/auth/pipedrive/callback',
    });
    expect(embedded.clientId).toBeTruthy();
    const real = provider.resolveEndpoints(
      loadConfig({ NODE_ENV: 'test', PIPEDRIVE_API_BASE_URL: 'https://api.pipedrive.com/', PUBLIC_URL: 'https://app.example.com' }),
      'http://10.0.0.5:3000',
    );
    expect(real).toMatchObject({
      sandbox: false, apiBaseUrl: 'https://api.pipedrive.com', authBaseUrl: 'https://oauth.pipedrive.com', tokenBaseUrl: 'https://oauth.pipedrive.com',
      clientId: undefined, redirectUri: 'https://app.example.com/api/auth/pipedrive/callback',
    });
  });
});

describe('Pipedrive OAuth through the provider (against the sandbox)', () => {
  let running: RunningPipedriveSandbox;
  let endpoints: CrmEndpoints;
  beforeAll(async () => {
    running = await startPipedriveSandboxServer({ personCount: 20, seed: 2, redirectUris: ['http://app.test/api/auth/pipedrive/callback'] });
    const { clientId, clientSecret } = running.sandbox.config;
    endpoints = { sandbox: true, apiBaseUrl: running.url, authBaseUrl: running.url, tokenBaseUrl: running.url, clientId, clientSecret, scopes: [], redirectUri: 'http://app.test/api/auth/pipedrive/callback' };
  });
  afterAll(async () => {
    await running?.close();
  });

  it('authorizes, exchanges the code (api_domain as the instance URL), refreshes and revokes', async () => {
    const url = new URL(provider.oauth!.authorizeUrl(endpoints, { state: 's-1' }));
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: endpoints.clientId, redirect_uri: endpoints.redirectUri, state: 's-1' });
    const consent = await fetch(url, { redirect: 'manual' });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const tokens = await provider.oauth!.exchangeCode(endpoints, { code, callback: {} });
    expect(tokens).toMatchObject({ expiresIn: 3599, instanceUrl: running.url, scopes: ['base', 'deals:read', 'contacts:full', 'users:read'] });
    await expect(provider.oauth!.exchangeCode(endpoints, { code, callback: {} })).rejects.toMatchObject({ code: 'UNAUTHORIZED', revoked: true });
    const refreshed = await provider.oauth!.refresh(endpoints, { refreshToken: tokens.refreshToken! });
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    await provider.oauth!.revoke!(endpoints, { token: tokens.refreshToken! });
    await expect(provider.oauth!.refresh(endpoints, { refreshToken: tokens.refreshToken! })).rejects.toMatchObject({ code: 'UNAUTHORIZED', revoked: true });
    await expect(provider.oauth!.refresh({ ...endpoints, clientSecret: 'wrong' }, { refreshToken: 'x' })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
