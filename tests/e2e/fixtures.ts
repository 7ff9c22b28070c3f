// Shared pieces of the browser tests: a page that fails the test on any console error or warning,
// the Paddle CDN blocked (as on our machines), API helpers for setup, axe checks and screenshots.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { parse } from 'csv-parse/sync';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, SANDBOX_TOKEN } from './env';

export const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** Console messages a test may expect (e.g. the blocked payment CDN); anything else fails the test. */
const EXPECTED_CONSOLE = [/paddle\.com/i];

export const test = base.extend<{ consoleProblems: string[]; allowConsole: (pattern: RegExp) => void }>({
  consoleProblems: [
    async ({ page }, use, testInfo) => {
    const problems: string[] = [];
    const traffic = recordTraffic(page);
    const allowed: RegExp[] = [...EXPECTED_CONSOLE];
    (page as Page & { __allowConsole?: RegExp[] }).__allowConsole = allowed;
    page.on('console', (m) => {
      if (m.type() !== 'error' && m.type() !== 'warning') return;
      const text = `${m.type()}: ${m.text()} ${m.location().url}`;
      if (!allowed.some((a) => a.test(text))) problems.push(text);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    if (process.env.E2E_DEBUG) page.on('response', (r) => r.status() >= 400 && console.log('DEBUG', r.status(), r.url(), (r.request().postData() ?? '').slice(0, 120)));
    await page.route(/https:\/\/([a-z-]+\.)?paddle\.com\//, (route) => route.abort());
    await use(problems);
    // A failure in CI leaves only this output behind (no trace viewer there): what the page showed and
    // what it was waiting for.
    if (testInfo.status !== testInfo.expectedStatus) await printFailureContext(page, traffic).catch((e) => console.log(`(no failure context: ${e})`));
    expect(problems, 'console errors and warnings').toEqual([]);
    },
    { auto: true },
  ],
  allowConsole: async ({ page }, use) => {
    await use((pattern) => (page as Page & { __allowConsole?: RegExp[] }).__allowConsole?.push(pattern));
  },
});
export { expect };

interface Exchange {
  method: string;
  url: string;
  operation?: string;
  started: number;
  ended?: number;
  status?: number | string;
}

/** Every request of the page with its timing, to print when a test fails. */
function recordTraffic(page: Page) {
  const exchanges = new Map<object, Exchange>();
  const t0 = Date.now();
  page.on('request', (r) => {
    const body = r.method() === 'POST' ? (r.postData() ?? '') : '';
    exchanges.set(r, { method: r.method(), url: r.url().replace(/^https?:\/\/[^/]+/, ''), operation: body.match(/(?:query|mutation)\s+(\w+)/)?.[1], started: Date.now() - t0 });
  });
  page.on('requestfinished', async (r) => {
    const x = exchanges.get(r);
    if (!x) return;
    x.ended = Date.now() - t0;
    x.status = (await r.response().catch(() => null))?.status() ?? '?';
  });
  page.on('requestfailed', (r) => {
    const x = exchanges.get(r);
    if (x) Object.assign(x, { ended: Date.now() - t0, status: r.failure()?.errorText ?? 'failed' });
  });
  page.on('websocket', (ws) => {
    const x: Exchange = { method: 'WS', url: ws.url().replace(/^wss?:\/\/[^/]+/, ''), started: Date.now() - t0 };
    exchanges.set(ws, x);
    ws.on('close', () => Object.assign(x, { ended: Date.now() - t0, status: 'closed' }));
  });
  return { exchanges, t0 };
}

async function printFailureContext(page: Page, traffic: ReturnType<typeof recordTraffic>) {
  if (page.isClosed()) return;
  const now = Date.now() - traffic.t0;
  const lines = [...traffic.exchanges.values()]
    .filter((x) => !/\.(css|woff2?|svg|png|ico)$/.test(x.url))
    .slice(-25)
    .map((x) => `  ${String(x.started).padStart(6)} ms ${x.method} ${x.url}${x.operation ? ` ${x.operation}` : ''} -> ${x.ended === undefined ? `${x.method === 'WS' ? 'open' : 'PENDING'} for ${now - x.started} ms` : `${x.status} in ${x.ended - x.started} ms`}`);
  const state = await page.evaluate(() => ({
    url: location.pathname + location.search,
    focus: document.activeElement ? `${document.activeElement.tagName} ${document.activeElement.getAttribute('aria-label') ?? ''}` : null,
    toasts: [...document.querySelectorAll('.fui-Toast')].map((t) => t.textContent),
    toaster: Boolean(document.querySelector('[data-toaster-position]')),
    box: (document.querySelector('textarea') as HTMLTextAreaElement | null)?.value ?? null,
    chat: document.querySelector('[role="log"]')?.textContent?.slice(-300) ?? null,
  }));
  console.log(`--- failure context at ${now} ms\n${JSON.stringify(state, null, 1)}\n--- requests (last 25)\n${lines.join('\n')}`);
}

let counter = 0;
export const uniqueEmail = (prefix = 'e2e') => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;

export async function gql<T = any>(request: APIRequestContext, query: string, variables?: Record<string, unknown>): Promise<T> {
  const r = await request.post('/graphql', { data: { query, variables } });
  const body = await r.json();
  if (body.errors?.length) throw new Error(`${body.errors[0].message} (${body.errors[0].extensions?.code})`);
  return body.data as T;
}

/** Registers a user through the API with the browser context's cookies (so the page is signed in). */
export async function registerUser(request: APIRequestContext, opts: { firstName?: string; lastName?: string } = {}) {
  const email = uniqueEmail();
  const password = 'pw-e2e-123456';
  const data = await gql<{ register: { viewer: { id: string } } }>(
    request,
    'mutation($input: RegisterInput!) { register(input: $input) { viewer { id } } }',
    { input: { firstName: opts.firstName ?? 'Grace', lastName: opts.lastName ?? 'Hopper', email, crmType: 'hubspot', industry: 'it_software', password, confirmPassword: password } },
  );
  return { email, password, id: data.register.viewer.id };
}

export async function connectCrm(request: APIRequestContext) {
  await gql(request, 'mutation($t: String!) { saveCrmToken(input: { token: $t }) { crmConnection { connected } } }', { t: SANDBOX_TOKEN });
}

/** An administrator's API session, separate from the page's. */
export async function adminApi(playwright: { request: { newContext(o: { baseURL: string }): Promise<APIRequestContext> } }, baseURL: string) {
  const request = await playwright.request.newContext({ baseURL });
  await gql(request, 'mutation($input: LoginInput!) { login(input: $input) { authStatus { authenticated } } }', { input: ADMIN });
  return request;
}

export interface GenerationRunFigures {
  users: number;
  completedUsers: number;
  totalSegments: number;
  successCount: number;
  failedCount: number;
}

/**
 * An administrator generates one user's Smart Segments: the run is queued on the job worker (in the
 * server's process) and read until it has ended; its final figures.
 */
export async function generateSegments(admin: APIRequestContext, userId: string): Promise<GenerationRunFigures> {
  const started = await gql(admin, 'mutation($id: ID!) { generateSmartSegments(input: { userId: $id }) { stats { runId } } }', { id: userId });
  const runId = started.generateSmartSegments.stats.runId as string;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
    const { generationRun: run } = await gql(admin, 'query($id: ID!) { generationRun(id: $id) { users completedUsers totalSegments successCount failedCount done } }', { id: runId });
    if (run.done) return run;
  }
  throw new Error(`generation run ${runId} did not end within 60 s`);
}

/** Runs axe over the page: no serious or critical violation. */
export async function expectAccessible(page: Page, label: string) {
  // A toast fading in or out is measured against a half-transparent background: wait until toasts are opaque and
  // their animations have ended.
  const toastsSettled = () =>
    page.waitForFunction(() =>
      [...document.querySelectorAll('.fui-Toast')].every((el) => {
        for (let n: Element | null = el; n; n = n.parentElement) if (getComputedStyle(n).opacity !== '1') return false;
        return el.getAnimations({ subtree: true }).every((a) => a.playState !== 'running');
      }),
    );
  await toastsSettled();
  // Fluent UI's focus-trap sentinels (tabster "dummy" elements) are aria-hidden on purpose and pass
  // focus on at once; axe reports them as focusable hidden content.
  const scan = () => new AxeBuilder({ page }).exclude('[data-tabster-dummy]').analyze();
  let results = await scan();
  // a toast that appeared while axe was reading the page was measured mid-animation: settle and read again
  if (results.violations.some((v) => v.id === 'color-contrast' && v.nodes.some((n) => n.target.join(' ').includes('toast')))) {
    await toastsSettled();
    await page.waitForTimeout(500);
    await toastsSettled();
    results = await scan();
  }
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
  expect(bad, `axe serious/critical violations on ${label}`).toEqual([]);
}

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** Waits for a toast with this title (and body text, when given). */
export async function expectToast(page: Page, title: string | RegExp, body?: string | RegExp) {
  const toast = page.locator('.fui-Toast').filter({ hasText: title }).last();
  await expect(toast).toBeVisible();
  if (body) await expect(toast).toContainText(body);
  return toast;
}

/**
 * An administrator generates the signed-in user's Smart Segments from their CRM; the user unlocks the free
 * "Recent buyers" segment and downloads it: the CSV has as many rows as the card counts. Screenshot as `name`.
 */
export async function unlockAndDownloadSmartSegment(page: Page, admin: APIRequestContext, name: string) {
  const viewer = await gql(page.request, '{ viewer { id } }');
  const generated = await generateSegments(admin, viewer.viewer.id);
  expect(generated.failedCount).toBe(0);
  await page.goto('/smart-segments');
  await expect(page.getByRole('heading', { name: 'Smart Segments', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Free' }).click();
  const recent = page.getByRole('list', { name: 'Segment presets' }).getByRole('article').filter({ hasText: 'Recent buyers' });
  await recent.getByRole('button', { name: 'View Customers' }).click();
  await expectToast(page, 'Segment unlocked!');
  const [csv] = await Promise.all([page.waitForEvent('download'), recent.getByRole('button', { name: 'Download Customer List' }).click()]);
  const count = Number((await recent.getByText(/^[\d,]+$/).first().textContent())!.replace(/,/g, ''));
  expect(parse(readFileSync(await csv.path(), 'utf8'), { columns: true, bom: true })).toHaveLength(count);
  await shot(page, name);
}
