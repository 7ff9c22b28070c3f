// The results a sales user works with all day (issue 25): pages forwards and backwards, sorting on
// the server, the contact drawer, export of what is on screen, the table at laptop widths, toasts
// that describe the latest action, and keyboard focus that stays where the user is.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { connectCrm, expect, expectToast, gql, registerUser, shot, test } from './fixtures';
import { SANDBOX_TOKEN } from './env';

const QUESTION = 'contacts with lifetime value over $100';

/** The emails of the stored customers in the server's order (what the pages must show, 10 at a time). */
async function storedEmails(page: Page, queryId: string, orderBy?: { field: string; direction: string }) {
  const emails: string[] = [];
  for (;;) {
    const r = await gql<{ node: { customers: { edges: { node: { email: string } }[] } } }>(
      page.request,
      'query($id: ID!, $offset: Int, $orderBy: CustomerOrder) { node(id: $id) { ... on CustomerQuery { customers(first: 100, offset: $offset, orderBy: $orderBy) { edges { node { email } } } } } }',
      { id: queryId, offset: emails.length, orderBy },
    );
    emails.push(...r.node.customers.edges.map((e) => e.node.email));
    if (r.node.customers.edges.length < 100) return emails;
  }
}

async function ask(page: Page, question: string) {
  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  await input.fill(question);
  await input.press('Enter');
  await expectToast(page, /Search completed|No results found/);
  const { queryHistory } = await gql<{ queryHistory: { edges: { node: { id: string } }[] } }>(page.request, '{ queryHistory(first: 1) { edges { node { id } } } }');
  return queryHistory.edges[0].node.id;
}

/** The emails of the rows on screen, in order. */
const tableEmails = (page: Page) =>
  page
    .getByRole('table', { name: 'Customers' })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('*')].find((e) => e.children.length === 0 && /^\S+@\S+$/.test(e.textContent ?? ''))?.textContent ?? null));

test('pages forwards and backwards: the last page, then Previous, show the stored rows of those pages', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  const id = await ask(page, QUESTION);
  const all = await storedEmails(page, id);
  const total = all.length;
  expect(total).toBeGreaterThan(30);
  const pageCount = Math.ceil(total / 10);
  const expectPage = async (n: number) => {
    await expect(pages.getByRole('button', { name: `Page ${n}`, exact: true })).toHaveAttribute('aria-current', 'page');
    await expect.poll(() => tableEmails(page)).toEqual(all.slice((n - 1) * 10, n * 10));
    await expect(pages.getByText(`${(n - 1) * 10 + 1}–${Math.min(n * 10, total)} of ${total.toLocaleString('en-US')}`)).toBeVisible();
  };
  const pages = page.getByRole('navigation', { name: 'Pages' });
  await expectPage(1);
  await pages.getByRole('button', { name: 'Next page' }).click();
  await expectPage(2);
  await pages.getByRole('button', { name: 'Page 4', exact: true }).click();
  await expectPage(4);
  await pages.getByRole('button', { name: 'Page 3', exact: true }).click();
  await expectPage(3);
  await pages.getByRole('button', { name: `Page ${pageCount}`, exact: true }).click();
  await expectPage(pageCount);
  await pages.getByRole('button', { name: 'Previous page' }).click();
  await expectPage(pageCount - 1);
  await pages.getByRole('button', { name: 'Previous page' }).click();
  await expectPage(pageCount - 2);
});

test('sorting by a column header sorts every stored row on the server; a row opens the contact', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  const id = await ask(page, QUESTION);
  const sorted = await storedEmails(page, id, { field: 'lifetimeValue', direction: 'desc' });
  const table = page.getByRole('table', { name: 'Customers' });
  const header = table.getByRole('columnheader', { name: /Lifetime value/ });
  await header.click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await header.click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => tableEmails(page)).toEqual(sorted.slice(0, 10));
  // The second page continues the sort over every stored row (not a sort of the page on screen).
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Page 2', exact: true }).click();
  await expect.poll(() => tableEmails(page)).toEqual(sorted.slice(10, 20));

  // A row opens the contact with all its fields; closing it returns focus to the name that opened it.
  const name = table.locator('tbody tr').first().getByRole('button');
  const contactName = (await name.textContent())!;
  await name.focus();
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: `Contact ${contactName}` });
  await expect(drawer).toBeVisible();
  for (const term of ['Email', 'Company', 'Lifecycle stage', 'City', 'Country', 'Lifetime value', 'Last purchase', 'Last purchase amount']) await expect(drawer.getByText(term, { exact: true })).toBeVisible();
  await expect(drawer.getByText(sorted[10])).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Open in HubSpot' })).toHaveAttribute('href', /\/contacts\/\d+\/record\/0-1\/\d+$/);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(name).toBeFocused();
  await table.locator('tbody tr').nth(1).locator('td').nth(2).click();
  await expect(page.getByRole('dialog', { name: /^Contact / })).toBeVisible();
});

test('a new toast replaces the one on screen at once', async ({ page }) => {
  await registerUser(page.request);
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: 'CRM Integration' });
  await dialog.getByRole('radio', { name: /API token/ }).check();
  await dialog.getByRole('button', { name: 'Save token' }).click();
  await expectToast(page, 'Token required');
  await dialog.getByLabel('Private app access token').fill(SANDBOX_TOKEN);
  await dialog.getByRole('button', { name: 'Save token' }).click();
  // Not queued behind the first one for its 5 s: on screen within a second, alone.
  await expect(page.locator('.fui-Toast').filter({ hasText: 'CRM Token saved' })).toBeVisible({ timeout: 1500 });
  await expect(page.locator('.fui-Toast').filter({ hasText: 'Token required' })).toHaveCount(0);
});

/** WCAG contrast ratio of an element's text against the first opaque background behind it. */
async function contrastOf(page: Page, selector: ReturnType<Page['locator']>) {
  return selector.evaluate((el) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = ([r, g, b]: number[]) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const fg = rgb(getComputedStyle(el).color);
    let bg = [255, 255, 255];
    for (let n: Element | null = el; n; n = n.parentElement) {
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (c.length >= 3 && (c.length === 3 || c[3] > 0.9)) {
        bg = c;
        break;
      }
    }
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  });
}

test("the CRM dialog's status is readable", async ({ page }) => {
  await registerUser(page.request);
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: 'CRM Integration' });
  const status = dialog.getByText('Not connected', { exact: true });
  await expect(status).toBeVisible();
  await shot(page, 'crm-dialog-status');
  expect(await contrastOf(page, status)).toBeGreaterThanOrEqual(4.5);
  await dialog.getByRole('radio', { name: /API token/ }).check();
  await dialog.getByLabel('Private app access token').fill(SANDBOX_TOKEN);
  await dialog.getByRole('button', { name: 'Save token' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'CRM Integration' }).click();
  const connected = dialog.getByText('Connected via API token');
  await expect(connected).toBeVisible();
  expect(await contrastOf(page, connected)).toBeGreaterThanOrEqual(4.5);
});

test('export writes what the table shows: the filters and search applied, and the button says so', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  await ask(page, QUESTION);
  await expect(page.getByRole('button', { name: 'Export', exact: true })).toBeEnabled();
  const count = page.getByText(/^[\d,]+ of [\d,]+ customers/);
  const before = (await count.textContent())!;
  await page.getByRole('combobox', { name: 'Region' }).click();
  await page.getByRole('option', { name: 'Europe' }).click();
  await expect(count).not.toHaveText(before);
  const shown = Number((await count.textContent())!.match(/^([\d,]+) of/)![1].replace(/,/g, ''));
  const button = page.getByRole('button', { name: `Export ${shown} shown` });
  await expect(button).toBeEnabled();
  const downloading = page.waitForEvent('download');
  await button.click();
  const csv = readFileSync((await (await downloading).path())!, 'utf8');
  const rows = parse(csv, { columns: true, bom: true }) as Record<string, string>[];
  expect(rows).toHaveLength(shown);
  await expectToast(page, 'Download Complete', `Successfully downloaded ${shown} customers`);
});

for (const [width, height] of [
  [1024, 700],
  [1280, 800],
  [1680, 900],
] as const) {
  test(`at ${width}×${height} the table fits: the question's columns first, nothing cut off or broken mid-word`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await registerUser(page.request);
    await connectCrm(page.request);
    await page.goto('/');
    await ask(page, 'contacts in Europe who bought in the last year with lifetime value over $1,000');
    const table = page.getByRole('table', { name: 'Customers' });
    await shot(page, `results-${width}`);
    const headers = await table.getByRole('columnheader').allTextContents();
    // The columns answering the question come right after the customer.
    expect(headers.slice(0, 4)).toEqual(['Customer', 'Location', 'Last purchase', 'Lifetime value']);
    // No horizontal scrolling: every column is on screen, and each header reads whole.
    const wrap = page.getByRole('region', { name: 'Customer table' });
    expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
    const right = await wrap.evaluate((el) => el.getBoundingClientRect().right);
    expect(right).toBeLessThanOrEqual(width);
    for (const h of await table.getByRole('columnheader').all()) {
      expect(await h.evaluate((el) => { const b = el.querySelector('button') ?? el; return b.scrollWidth <= b.clientWidth + 1; })).toBe(true);
    }
    // Cells do not wrap (a long location ends in an ellipsis, with the whole value as its tooltip).
    const heights = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
    expect(Math.max(...heights)).toBeLessThan(60);

    if (width === 1024) {
      // The column chooser: a hidden column stays hidden after a reload.
      await page.getByRole('button', { name: 'Columns' }).click();
      await page.getByRole('menuitemcheckbox', { name: 'Company' }).click();
      await page.keyboard.press('Escape');
      await expect(table.getByRole('columnheader', { name: /Company/ })).toHaveCount(0);
      await page.reload();
      await expect(table.getByRole('columnheader', { name: /Customer/ })).toBeVisible();
      await expect(table.getByRole('columnheader', { name: /Company/ })).toHaveCount(0);
      await page.getByRole('button', { name: 'Columns' }).click();
      await page.getByRole('menuitemcheckbox', { name: 'Company' }).click();
      await page.keyboard.press('Escape');
      await expect(table.getByRole('columnheader', { name: /Company/ })).toHaveCount(1);
    }
  });
}
