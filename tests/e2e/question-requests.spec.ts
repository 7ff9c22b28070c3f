// A question from the web form is one round trip (issue 24): the runQuery payload carries the history
// entry, the answer, the first page of results and the usage, so the screen sends exactly one GraphQL
// request per question, none after it; the rest of the customers arrive over the websocket. The same
// for a re-run from the history.
import type { Page, Request } from '@playwright/test';
import { connectCrm, expect, expectToast, registerUser, shot, test } from './fixtures';

/** HTTP requests to /graphql from now on, with their operation names. */
function countGraphQL(page: Page) {
  const seen: string[] = [];
  const listener = (r: Request) => {
    if (new URL(r.url()).pathname !== '/graphql') return;
    const body = r.postData() ?? '';
    seen.push(/(?:query|mutation)\s+(\w+)/.exec(body)?.[1] ?? (r.method() === 'GET' ? 'GET' : 'anonymous'));
  };
  page.on('request', listener);
  return { seen, stop: () => page.off('request', listener) };
}

test('a question from the web form is one GraphQL request; its results complete by subscription', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  await expect(page.getByText('Customer Results')).toBeVisible();
  await expect(page.getByText('Ask a question to see matching customers.')).toBeVisible();
  await page.waitForLoadState('networkidle');

  const table = page.getByRole('table', { name: 'Customers' });
  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  const requests = countGraphQL(page);
  // every one of the sandbox's 600 contacts: three CRM pages, the first answers the question
  await input.fill('customers');
  await input.press('Enter');
  await expectToast(page, 'Search completed', /Found 600 customers/);
  await expect(table.getByRole('row')).toHaveCount(11);
  await expect(page.getByText('1/50')).toBeVisible();
  await expect(page.getByRole('log', { name: 'Conversation' })).toContainText('customers');
  await expect(page.getByText('600 of 600 customers')).toBeVisible();
  // the rest of the customers are stored and announced over the websocket, not read again
  await expect(page.getByText('Storing the rest...')).toHaveCount(0, { timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  expect(requests.seen).toEqual(['RunQueryMutation']);
  await shot(page, 'question-one-request');

  // the last page is among the stored rows
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Page 60' }).click();
  await expect(table.getByRole('row')).toHaveCount(11);

  // a second question, then a re-run from the history: one request each
  requests.seen.length = 0;
  await input.fill('leads in Canada');
  await input.press('Enter');
  await expectToast(page, 'Search completed');
  await expect(page.getByText('2/50')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(requests.seen).toEqual(['RunQueryMutation']);

  requests.seen.length = 0;
  await page.getByRole('button', { name: 'Re-run this query' }).last().click();
  await expectToast(page, 'Query updated');
  await expect(page.getByText('600 of 600 customers')).toBeVisible();
  await expect(page.getByText('Storing the rest...')).toHaveCount(0, { timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  expect(requests.seen).toEqual(['RerunQueryMutation']);
  requests.stop();
});
