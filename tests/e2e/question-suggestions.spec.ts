// The question box helps before and while typing (issue 25): example questions on an empty conversation
// fill the box to edit before asking; while typing, a list suggests completions of the word being typed
// from the user's own CRM values (one request per session), accepted with the keyboard.
import type { Page, Request } from '@playwright/test';
import { connectCrm, expect, expectAccessible, expectToast, registerUser, shot, test } from './fixtures';

/** Operation names of the GraphQL requests from now on. */
function operations(page: Page) {
  const seen: string[] = [];
  page.on('request', (r: Request) => {
    if (new URL(r.url()).pathname === '/graphql') seen.push(/(?:query|mutation)\s+(\w+)/.exec(r.postData() ?? '')?.[1] ?? 'other');
  });
  return seen;
}

test('example questions on an empty conversation fill the question box, to edit before asking', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto('/');
  const examples = page.getByRole('list', { name: 'Try one of these' });
  await expect(examples.getByRole('button')).toHaveCount(5);
  // the country and the company are the CRM's own
  await expect(examples.getByRole('button', { name: /^leads in \S/ })).toBeVisible();
  await expect(examples.getByRole('button', { name: /^contacts at \S/ })).toBeVisible();
  await expectAccessible(page, 'assistant with example questions');
  await shot(page, 'assistant-examples-1024');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, 'assistant-examples-1280');

  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  await examples.getByRole('button', { name: 'customers with lifetime value over $5k' }).click();
  // filled and focused, not asked
  await expect(input).toHaveValue('customers with lifetime value over $5k');
  await expect(input).toBeFocused();
  await expect(page.getByRole('log', { name: 'Conversation' })).not.toContainText('Found');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('1k');
  await page.keyboard.press('Enter');
  await expectToast(page, /Search completed|No results found/);
  await expect(page.getByRole('log', { name: 'Conversation' })).toContainText('customers with lifetime value over $1k');
  // the conversation is not empty any more
  await expect(page.getByRole('list', { name: 'Try one of these' })).toHaveCount(0);
});

test('typing "leads in ger" suggests Germany, accepted with the keyboard; the values are read once', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  const ops = operations(page);
  await page.goto('/');
  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  await expect(input).toHaveAttribute('aria-autocomplete', 'list');
  await input.click();
  await page.keyboard.type('leads in ger', { delay: 20 });
  const list = page.getByRole('listbox', { name: 'Suggestions' });
  await expect(list).toBeVisible();
  await expect(input).toHaveAttribute('aria-controls', 'question-suggestions');
  const germany = list.getByRole('option', { name: /^Germany/ });
  await expect(germany).toBeVisible();
  await expect(list.getByRole('option').first()).toHaveText(/^Germany/);
  await expect(page.getByText(/\d+ suggestions?: arrow keys to choose/)).toBeAttached();

  // ↓ chooses (the box keeps the focus and points at the option), Enter accepts
  await page.keyboard.press('ArrowDown');
  await expect(germany).toHaveAttribute('aria-selected', 'true');
  await expect(input).toHaveAttribute('aria-activedescendant', (await germany.getAttribute('id'))!);
  await expect(input).toBeFocused();
  await expectAccessible(page, 'question box with suggestions');
  await shot(page, 'question-suggestions-1280');
  await page.setViewportSize({ width: 1024, height: 700 });
  await shot(page, 'question-suggestions-1024');
  await page.keyboard.press('Enter');
  await expect(input).toHaveValue('leads in Germany ');
  await expect(list).toBeHidden();
  await expect(input).not.toHaveAttribute('aria-activedescendant');

  // Escape closes the list; typing opens it again; Tab accepts the first suggestion
  await page.keyboard.type('who bought in the last 90 days or customers in ger');
  await expect(list).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await page.keyboard.type('m');
  await expect(list.getByRole('option').first()).toHaveText(/^Germany/);
  await page.keyboard.press('Tab');
  await expect(input).toHaveValue('leads in Germany who bought in the last 90 days or customers in Germany ');
  await expect(input).toBeFocused();

  // with nothing chosen, Enter asks the question
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  await expectToast(page, /Search completed|No results found/);
  await expect(page.getByRole('log', { name: 'Conversation' })).toContainText('leads in Germany who bought');
  // a word that already is a whole term ("last purchase") keeps Tab for moving on, even with a longer
  // term suggested ("last purchase amount")
  await expect(input).toHaveValue('');
  await input.focus();
  await page.keyboard.type('customers by last purchase');
  await expect(list.getByRole('option', { name: /^last purchase amount/ })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(input).not.toBeFocused();
  await expect(input).toHaveValue('customers by last purchase');
  // one request for the CRM's values, however much was typed
  expect(ops.filter((o) => o === 'useCrmVocabularyQuery')).toHaveLength(1);
});
