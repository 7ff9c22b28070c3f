// Keyboard focus stays where the user is (issue 25 item 7): after a question it stays in the question
// box, a page change keeps it on the pager, a dialog returns it to the control that opened it, and a
// toast never takes it. Also the ban dialog's wording and the danger style of destructive confirmations.
import { connectCrm, expect, expectToast, gql, registerUser, test } from './fixtures';
import { ADMIN } from './env';

test('focus stays in the question box after a question, on the pager after a page change', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  await input.click();
  await input.fill('contacts with lifetime value over $100');
  await input.press('Enter');
  await expectToast(page, 'Search completed');
  await expect(input).toBeFocused();
  await expect(input).toHaveValue('');

  const pages = page.getByRole('navigation', { name: 'Pages' });
  const next = pages.getByRole('button', { name: 'Next page' });
  await next.focus();
  await page.keyboard.press('Enter');
  await expect(pages.getByRole('button', { name: 'Page 2', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(next).toBeFocused();
  const previous = pages.getByRole('button', { name: 'Previous page' });
  await previous.focus();
  await page.keyboard.press('Enter');
  await expect(pages.getByRole('button', { name: 'Page 1', exact: true })).toHaveAttribute('aria-current', 'page');
  // Previous is unavailable on page 1, and keeps the focus.
  await expect(previous).toBeFocused();
  await expect(previous).toHaveAttribute('aria-disabled', 'true');
});

test('a dialog returns focus to what opened it; a toast does not take it', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  const menu = page.getByRole('button', { name: /User menu/ });
  await menu.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'CRM Integration' }).press('Enter');
  const dialog = page.getByRole('dialog', { name: 'CRM Integration' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(menu).toBeFocused();

  // A toast appears while the user types: the focus stays in the box.
  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  await input.fill('leads in Canada');
  await input.press('Enter');
  await expectToast(page, /Search completed|No results found/);
  await expect(input).toBeFocused();
  await page.keyboard.type('x');
  await expect(input).toHaveValue('x');
});

test('the ban dialog says what the user will see; destructive confirmations are drawn as dangerous', async ({ page }) => {
  const victim = await registerUser(page.request, { firstName: 'Ban', lastName: 'Wording' });
  await page.context().clearCookies();
  await page.addInitScript(() => sessionStorage.setItem('crm.crmModalShown', '1'));
  await gql(page.request, 'mutation($input: LoginInput!) { login(input: $input) { authStatus { authenticated } } }', { input: ADMIN });
  await page.goto('/admin');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(victim.email);
  const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: victim.email });
  const ban = row.getByRole('button', { name: 'Ban Ban Wording' });
  await ban.click();
  const reasonDialog = page.getByRole('dialog', { name: 'Ban Ban Wording' });
  await expect(reasonDialog).toContainText('at sign-in they see that the account is suspended, with this reason');
  await expect(reasonDialog).not.toContainText('kept for administrators');
  await reasonDialog.getByRole('textbox').fill('Chargebacks');
  await reasonDialog.getByRole('button', { name: 'Continue' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Ban user' });
  const button = confirm.getByRole('button', { name: 'Ban' });
  const [r, g, b] = (await button.evaluate((el) => getComputedStyle(el).backgroundColor)).match(/\d+/g)!.map(Number);
  expect(r).toBeGreaterThan(150);
  expect(g).toBeLessThan(100);
  expect(b).toBeLessThan(100);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
});

test('the chip editor refuses a negative amount', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  await input.fill('contacts with lifetime value over $1,000');
  await input.press('Enter');
  await expectToast(page, /Search completed|No results found/);
  const understood = page.getByRole('region', { name: 'How the question was understood' });
  await understood.getByRole('button', { name: 'Edit condition: lifetime value over $1,000', exact: true }).click();
  const editor = page.getByRole('dialog', { name: 'Lifetime value' });
  await editor.getByRole('spinbutton').fill('-5');
  await expect(editor.getByText('An amount cannot be negative')).toBeVisible();
  await expect(editor.getByRole('button', { name: 'Done' })).toBeDisabled();
  await editor.getByRole('spinbutton').fill('5');
  await expect(editor.getByRole('button', { name: 'Done' })).toBeEnabled();
});
