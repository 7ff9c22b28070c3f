// A Smart Segment's customers in the app (/smart-segments/:id): after "View Customers" unlocks a free
// segment, "Open Customers" shows them in the assistant's customers table, sorted and paged on the
// server; a locked segment says how to unlock it and reads nothing, and another user's is not found.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { adminApi, connectCrm, expect, expectAccessible, expectToast, gql, generateSegments, registerUser, shot, test } from './fixtures';

interface Daily {
  id: string;
  segmentId: string;
  date: string;
  customerCount: number;
  preset: { name: string; category: { name: string; isLocked: boolean } };
}

const tableEmails = (page: Page) =>
  page
    .getByRole('table', { name: 'Customers' })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('*')].find((e) => e.children.length === 0 && /^\S+@\S+$/.test(e.textContent ?? ''))?.textContent ?? null));

test("a Smart Segment's customers open in the app after unlocking: sorted and paged on the server; locked and others' refused", async ({ page, browser, playwright, baseURL }) => {
  const user = await registerUser(page.request);
  await connectCrm(page.request);
  const admin = await adminApi(playwright, baseURL!);
  await generateSegments(admin, user.id);
  const { dailySegments } = await gql<{ dailySegments: { edges: { node: Daily }[] } }>(
    page.request,
    '{ dailySegments(first: 100) { edges { node { id segmentId date customerCount preset { name category { name isLocked } } } } } }',
  );
  const all = dailySegments.edges.map((e) => e.node);
  const free = all.filter((d) => !d.preset.category.isLocked && d.customerCount > 10).sort((a, b) => b.customerCount - a.customerCount)[0];
  const premium = all.find((d) => d.preset.category.isLocked && d.customerCount > 0)!;
  expect(free, 'a free segment with more than one page of customers').toBeTruthy();

  // A locked segment's page says how to unlock it; its customers are not read.
  const customerReads: string[] = [];
  page.on('request', (r) => /SmartSegmentCustomers(Table|Refetch)Query/.test(r.postData() ?? '') && customerReads.push(r.url()));
  await page.goto(`/smart-segments/${premium.segmentId}`);
  await expect(page.getByRole('heading', { name: premium.preset.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Segment locked' })).toBeVisible();
  await expect(page.getByText(`Unlock this segment on the Smart Segments screen to see its ${premium.customerCount.toLocaleString('en-US')} customers`)).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  expect(customerReads).toEqual([]);
  await expectAccessible(page, 'smart segment customers (locked)');
  await shot(page, 'smart-segment-customers-locked');

  // The card: "View Customers" unlocks, then "Open Customers" opens them in the app.
  await page.getByRole('main').getByRole('link', { name: 'Smart Segments' }).click();
  await expect(page).toHaveURL(/\/smart-segments$/);
  await page.getByRole('tab', { name: 'Free' }).click();
  const card = page.getByRole('list', { name: 'Segment presets' }).getByRole('article').filter({ hasText: free.preset.name });
  await expect(card.getByRole('button', { name: 'Open Customers' })).toHaveCount(0);
  await card.getByRole('button', { name: 'View Customers' }).click();
  await expectToast(page, 'Segment unlocked!');
  await expect(card.getByRole('button', { name: 'Download Customer List' })).toBeVisible();
  await shot(page, 'smart-segments-unlocked-card');
  await card.getByRole('button', { name: 'Open Customers' }).click();
  await expect(page).toHaveURL(new RegExp(`/smart-segments/${free.segmentId}$`));
  await expect(page.getByRole('heading', { name: free.preset.name, level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Customers' });
  await expect(table.locator('tbody tr')).toHaveCount(10);
  const count = free.customerCount.toLocaleString('en-US');
  await expect(page.getByText(new RegExp(`^${count} of ${count} customers · read from HubSpot`))).toBeVisible();

  // Sorted on the server over every stored customer, continued on the next page.
  const sorted: string[] = [];
  for (;;) {
    const r = await gql(page.request, 'query($id: ID!, $offset: Int) { node(id: $id) { ... on DailySegment { customers(first: 100, offset: $offset, orderBy: { field: lifetimeValue, direction: desc }) { edges { node { email } } } } } }', {
      id: free.id,
      offset: sorted.length,
    });
    sorted.push(...r.node.customers.edges.map((e: { node: { email: string } }) => e.node.email));
    if (r.node.customers.edges.length < 100) break;
  }
  expect(sorted).toHaveLength(free.customerCount);
  const header = table.getByRole('columnheader', { name: /Lifetime value/ });
  await header.click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await header.click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => tableEmails(page)).toEqual(sorted.slice(0, 10));
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Page 2', exact: true }).click();
  await expect.poll(() => tableEmails(page)).toEqual(sorted.slice(10, 20));
  await expectAccessible(page, 'smart segment customers');
  await shot(page, 'smart-segment-customers');
  // The whole segment downloads from here too, as from the card.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Customer List' }).click()]);
  expect(download.suggestedFilename()).toBe(`smart-segment-customers-${free.segmentId}-${free.date}.csv`);
  const rows = parse(readFileSync(await download.path(), 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
  expect(rows).toHaveLength(free.customerCount);
  await expectToast(page, 'Download Complete');

  // Another user: not found, nothing shown.
  const other = await browser.newContext({ baseURL });
  try {
    const otherPage = await other.newPage();
    await registerUser(otherPage.request);
    await connectCrm(otherPage.request); // (no CRM dialog over the screen)
    await otherPage.goto(`/smart-segments/${free.segmentId}`);
    await expect(otherPage.getByRole('heading', { name: 'Segment not found' })).toBeVisible();
    await expect(otherPage.getByRole('table')).toHaveCount(0);
    await expect(otherPage.getByText(free.preset.name)).toHaveCount(0);
  } finally {
    await other.close();
  }
});
