// The signed-in frame: the sidebar (collapsed by default, remembered, expands on hover, "Coming soon"
// entries, Admin for admins only) with the usage panel, keyboard use, live data without polling, the
// polling fallback, the first-load size of the sign-in screen and the 1024 px layout.
import type { Page } from '@playwright/test';
import { connectCrm, expect, expectAccessible, gql, registerUser, shot, test } from './fixtures';
import { ADMIN } from './env';

test('sidebar: collapsed by default, remembered, hover expands, entries and usage panel', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  const nav = page.getByRole('complementary', { name: 'Main navigation' });
  await expect(page.getByText('Customer Results')).toBeVisible();
  expect(await nav.evaluate((el) => el.getBoundingClientRect().width)).toBe(64);
  await expectAccessible(page, 'main (sidebar collapsed)');
  await shot(page, 'sidebar-collapsed');
  await nav.hover();
  await expect(nav.getByText('CRM', { exact: true })).toBeVisible();
  await expect.poll(() => nav.evaluate((el) => el.getBoundingClientRect().width)).toBe(224); // after the transition
  await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Whatsapp Campaigns' }).hover();
  await expect(page.getByRole('tooltip', { name: 'Coming soon' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Email Campaigns' })).toHaveAttribute('aria-disabled', 'true');
  await expect(nav.getByText("Today's usage")).toBeVisible();
  await expect(nav.getByText('0/10')).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Upgrade Plan' })).toBeVisible(); // the free tier always sees it
  // Keep it open: remembered after a reload.
  await nav.getByRole('button', { name: 'Keep the sidebar open' }).click();
  await page.mouse.move(900, 400);
  await page.reload();
  await expect(page.getByText('Customer Results')).toBeVisible();
  expect(await nav.evaluate((el) => el.getBoundingClientRect().width)).toBe(224);
  const main = page.getByRole('main');
  expect(await main.evaluate((el) => getComputedStyle(el).marginLeft)).toBe('224px');
  await expectAccessible(page, 'main (sidebar expanded)');
  await shot(page, 'sidebar-expanded');
  await nav.getByRole('button', { name: 'Collapse the sidebar' }).click();
});

test('administrators see the Admin entry', async ({ page }) => {
  await gql(page.request, 'mutation($input: LoginInput!) { login(input: $input) { authStatus { authenticated } } }', { input: ADMIN });
  await page.goto('/');
  // The admin has no CRM connected, so the CRM Integration modal opens first: close it.
  const dialog = page.getByRole('dialog', { name: 'CRM Integration' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  const nav = page.getByRole('complementary', { name: 'Main navigation' });
  await nav.hover();
  await expect(nav.getByRole('link', { name: 'Admin' })).toBeVisible();
});

test('keyboard: the user menu opens, closes with Escape and returns focus', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  const trigger = page.getByRole('button', { name: /User menu/ });
  await trigger.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'CRM Integration' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(trigger).toBeFocused();
  // A dialog traps focus and gives it back.
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'CRM Integration' }).press('Enter');
  const dialog = page.getByRole('dialog', { name: 'CRM Integration' });
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('an idle signed-in screen makes no HTTP requests while the websocket is up', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  const requests: string[] = [];
  page.on('request', (r) => {
    if (/\/(graphql|api)\b/.test(r.url()) && r.resourceType() !== 'websocket') requests.push(r.url());
  });
  await page.clock.install();
  await page.goto('/');
  await expect(page.getByText('Customer Results')).toBeVisible();
  await page.getByRole('dialog', { name: 'CRM Integration' }).waitFor({ state: 'hidden' }).catch(() => {});
  const loaded = requests.length;
  await page.clock.runFor(60_000); // a minute of timers
  expect(requests.length - loaded, 'requests in an idle minute').toBeLessThanOrEqual(2);
});

test('with the websocket down, usage and segments fall back to polling', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.routeWebSocket(/\/graphql$/, (ws) => ws.close({ code: 1011, reason: 'test: no websocket' }));
  const polls: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/graphql') && (r.postData() ?? '').includes('SignedInLayoutQuery')) polls.push(r.url());
  });
  await page.goto('/');
  await expect(page.getByText('Customer Results')).toBeVisible();
  const before = polls.length;
  // Usage every 3 s and segments every 5 s: real timers (the websocket client's retry timers and the
  // polling intervals are set up asynchronously, which a fake clock started beforehand misses).
  await expect.poll(() => polls.length - before, { timeout: 20_000, intervals: [500] }).toBeGreaterThanOrEqual(3);
});

/** Every response of a page load with its bytes over the wire (headers and encoded body) and encoding. */
function recordResponses(page: Page) {
  const seen: Promise<{ url: string; type: string; bytes: number; encoding: string }>[] = [];
  page.on('requestfinished', (request) => {
    seen.push(
      (async () => {
        const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
        return {
          url: new URL(request.url()).pathname,
          type: request.resourceType(),
          bytes: sizes.responseHeadersSize + sizes.responseBodySize,
          encoding: (await response?.allHeaders())?.['content-encoding'] ?? '',
        };
      })(),
    );
  });
  return () => Promise.all(seen);
}

test('the sign-in screen: at most 260 kB over the wire, brotli, hashed files cached for a year', async ({ page }) => {
  const responses = recordResponses(page);
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const all = await responses();
  const bytes = all.reduce((a, r) => a + r.bytes, 0);
  const scripts = all.filter((r) => r.type === 'script');
  test.info().annotations.push({ type: 'sign-in screen over the wire', description: `${(bytes / 1024).toFixed(1)} kB in ${all.length} responses (${scripts.length} scripts)` });
  console.log(`sign-in screen over the wire: ${(bytes / 1024).toFixed(1)} kB in ${all.length} responses (${scripts.length} scripts)`);
  expect(scripts.length).toBeGreaterThan(0);
  // Chromium accepts brotli; files under 1 kB are not worth compressing (web/precompress.ts).
  for (const s of scripts.filter((r) => r.bytes > 2048)) expect(s.encoding, s.url).toBe('br');
  expect(bytes).toBeLessThanOrEqual(260 * 1024);
  // Hashed files are immutable for a year; the page itself is revalidated on every load.
  const asset = await page.request.get(scripts.find((r) => r.bytes > 2048)!.url, { headers: { 'accept-encoding': 'gzip' } });
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers()['content-encoding']).toBe('gzip');
  expect(asset.headers()['vary']).toBe('Accept-Encoding');
  const html = await page.request.get('/auth');
  expect(html.headers()['cache-control']).toBe('no-cache');
});

test('opening / signed out downloads no signed-in screen before the redirect', async ({ page }) => {
  const responses = recordResponses(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const scripts = (await responses()).filter((r) => r.type === 'script').map((r) => r.url);
  expect(scripts.filter((u) => /\/(SignedInLayout|MainPage|SegmentsPage|SmartSegmentsPage|AdminPage|ProfilePage|NotFoundPage)-/.test(u))).toEqual([]);
  // Signing in then loads them.
  await registerUser(page.request);
  await page.goto('/');
  await expect(page.getByText('Customer Results')).toBeVisible();
});

test('1024 px wide: nothing overflows', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await registerUser(page.request);
  await connectCrm(page.request);
  await gql(page.request, 'mutation { runQuery(input: { naturalLanguage: "customers in Europe" }) { resultCount } }');
  await page.goto('/');
  await expect(page.getByRole('table', { name: 'Customers' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  await shot(page, 'main-1024');
});

test('the live connection drops: "Reconnecting..." over the same page, gone once it is back', async ({ page }) => {
  // The websocket goes through a route the test can cut, as a server restart would.
  let down = false;
  let acknowledged = false;
  const open: { close: (o: { code: number; reason: string }) => Promise<void> }[] = [];
  await page.routeWebSocket(/\/graphql$/, (ws) => {
    if (down) return void ws.close({ code: 1001, reason: 'server restarting' });
    const server = ws.connectToServer();
    // Passed on as they come; the server's connection_ack is when the page counts the socket as up.
    server.onMessage((m) => {
      if (String(m).includes('"connection_ack"')) acknowledged = true;
      ws.send(m);
    });
    open.push(ws);
  });
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  await expect(page.getByText('Customer Results')).toBeVisible();
  // Cut only a connection the page had up: one cut before its acknowledgement is a failed connect, not a loss.
  await expect.poll(() => acknowledged).toBe(true);
  const banner = page.getByText('Reconnecting...');
  await expect(banner).toBeHidden();
  const navigations: string[] = [];
  page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));

  down = true;
  for (const ws of open.splice(0)) await ws.close({ code: 1001, reason: 'server restarting' });
  await expect(banner).toBeVisible();
  await expect(page.getByText('Customer Results')).toBeVisible();
  await expectAccessible(page, 'reconnecting');
  await shot(page, 'reconnecting');
  down = false;
  // graphql-ws retries with backoff; the banner goes once a connection is acknowledged again.
  await expect(banner).toBeHidden({ timeout: 45_000 });
  expect(open.length).toBeGreaterThan(0);
  expect(navigations, 'no reload').toEqual([]);
});
