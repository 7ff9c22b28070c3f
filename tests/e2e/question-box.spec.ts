// The question box before anything is typed: today's questions against the limit, closed at the
// limit with when it resets (issue 25).
import AxeBuilder from '@axe-core/playwright';
import { connectCrm, expect, expectAccessible, gql, registerUser, shot, test } from './fixtures';

test('the question box tells the limit before typing, and closes at it', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  const ask = (q: string) => gql(page.request, 'mutation($q: String!) { runQuery(input: { naturalLanguage: $q }) { resultCount } }', { q });
  for (const country of ['Germany', 'France', 'Spain', 'Italy', 'Canada', 'Brazil', 'Japan', 'Mexico', 'Norway']) await ask(`customers in ${country}`);
  await page.goto('/');
  const box = page.getByRole('textbox', { name: 'Ask about your customers' });
  await expect(box).toBeEnabled();
  await expect(page.getByRole('status').filter({ hasText: 'used today' })).toHaveText('9 of 10 used today'); // above 80 %
  await ask('customers in Sweden');
  // The usage arrives live (usageUpdated): the box closes without a reload, before anything is typed.
  await expect(page.getByRole('status').filter({ hasText: 'used today' })).toHaveText('10 of 10 used today, resets at midnight UTC');
  await expect(box).toBeDisabled();
  await expect(box).toHaveAttribute('placeholder', 'Daily question limit reached');
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await expectAccessible(page, 'assistant at the question limit');
  await shot(page, 'assistant-question-limit');
});

test("the user menu button's name starts with what it shows (label-content-name-mismatch)", async ({ page }) => {
  const { email } = await registerUser(page.request, { firstName: 'Zoë', lastName: 'Müller' });
  await connectCrm(page.request);
  await page.goto('/');
  const menu = page.getByRole('button', { name: `Zoë Müller ${email} , User menu`, exact: true });
  await expect(menu).toBeVisible();
  const results = await new AxeBuilder({ page }).withRules(['label-content-name-mismatch']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
});
