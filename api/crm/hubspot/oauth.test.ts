import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrmError } from '../errors.js';
import { startHubSpotSandboxServer, type RunningSandbox } from '../hubspot-sandbox/server.js';
import { buildAuthorizeUrl, exchangeCode, refreshAccessToken, revokeRefreshToken } from './oauth.js';

const REDIRECT = 'http://localhost:3000/api/auth/hubspot/callback';
let r: RunningSandbox;

beforeAll(async () => {
  r = await startHubSpotSandboxServer({ contactCount: 10, seed: 1 });
});
afterAll(async () => r?.close());

async function authorizeCode(): Promise<string> {
  const url = buildAuthorizeUrl({ authBaseUrl: r.url, clientId: r.sandbox.config.clientId, redirectUri: REDIRECT, scopes: ['oauth', 'crm.objects.contacts.read'], state: 's1' });
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const loc = new URL(res.headers.get('location')!);
  expect(loc.searchParams.get('state')).toBe('s1');
  return loc.searchParams.get('code')!;
}

const creds = () => ({ apiBaseUrl: r.url, clientId: r.sandbox.config.clientId, clientSecret: r.sandbox.config.clientSecret });

describe('HubSpot OAuth helpers (against the sandbox)', () => {
  it('builds the authorize URL like HubSpot documents it', () => {
    expect(buildAuthorizeUrl({ clientId: 'abc', redirectUri: 'https://app.test/cb', scopes: ['oauth', 'crm.objects.contacts.read'], state: 'x y' })).toBe(
      'https://app.hubspot.com/oauth/authorize?client_id=abc&redirect_uri=https%3A%2F%2Fapp.test%2Fcb&scope=oauth%20crm.objects.contacts.read&state=x%20y',
    );
  });

  it('exchanges a code, refreshes, and reports a revoked refresh token', async () => {
    const now = () => 1_000_000;
    const tokens = await exchangeCode({ ...creds(), redirectUri: REDIRECT, code: await authorizeCode(), now });
    expect(tokens).toMatchObject({ tokenType: 'bearer', expiresIn: 1800, expiresAt: 1_000_000 + 1_800_000 });

    const refreshed = await refreshAccessToken({ ...creds(), refreshToken: tokens.refreshToken });
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.refreshToken).toBe(tokens.refreshToken);

    await revokeRefreshToken({ apiBaseUrl: r.url, refreshToken: tokens.refreshToken });
    const err = await refreshAccessToken({ ...creds(), refreshToken: tokens.refreshToken }).catch((e) => e);
    expect(err).toBeInstanceOf(CrmError);
    expect(err).toMatchObject({ code: 'UNAUTHORIZED', revoked: true, category: 'BAD_REFRESH_TOKEN', status: 400 });
    await expect(revokeRefreshToken({ apiBaseUrl: r.url, refreshToken: tokens.refreshToken })).resolves.toBeUndefined();
  });

  it('maps code and configuration errors', async () => {
    const code = await authorizeCode();
    await expect(exchangeCode({ ...creds(), clientSecret: 'wrong', redirectUri: REDIRECT, code })).rejects.toMatchObject({ code: 'VALIDATION', category: 'BAD_CLIENT_SECRET' });
    await expect(exchangeCode({ ...creds(), redirectUri: 'http://localhost:9/other', code })).rejects.toMatchObject({ code: 'VALIDATION', category: 'BAD_REDIRECT_URI' });
    await exchangeCode({ ...creds(), redirectUri: REDIRECT, code });
    const reused = await exchangeCode({ ...creds(), redirectUri: REDIRECT, code }).catch((e) => e);
    expect(reused).toMatchObject({ code: 'UNAUTHORIZED', category: 'BAD_AUTH_CODE', revoked: false });
  });

  it('reports network failures as UNAVAILABLE', async () => {
    await expect(refreshAccessToken({ apiBaseUrl: 'http://127.0.0.1:9', clientId: 'a', clientSecret: 'b', refreshToken: 'c' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});
