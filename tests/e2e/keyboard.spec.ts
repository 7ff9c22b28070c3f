// Keyboard only (issue 25): sign in, connect the CRM, ask, sort, open a contact, page and export without
// the mouse. Every step moves focus with Tab / Shift+Tab and acts with Enter, Space, arrows or Escape, as a
// keyboard user does; a control that cannot be reached that way fails the test.
import type { Locator, Page } from '@playwright/test';
import { SANDBOX_TOKEN } from './env';
import { expect, expectToast, registerUser, shot, test } from './fixtures';

/** Presses Tab (or Shift+Tab) until `target` has focus; fails when it is not reached within `max` presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`not reachable by ${back ? 'Shift+Tab' : 'Tab'} within ${max} presses: ${target}`);
}

test('keyboard only: sign in, connect, ask, sort, open a contact, page and export', async ({ page, playwright, baseURL }) => {
  // The account exists (made elsewhere); this browser signs in by keyboard.
  const other = await playwright.request.newContext({ baseURL });
  const { email, password } = await registerUser(other);
  await other.dispose();

  await page.goto('/auth');
  const emailBox = page.getByLabel(/^Email/);
  await tabTo(page, emailBox);
  await page.keyboard.type(email);
  await tabTo(page, page.getByLabel(/^Password/));
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');

  // The CRM Integration dialog opens on the first signed-in screen: choose the token method with the arrows.
  const dialog = page.getByRole('dialog', { name: 'CRM Integration' });
  await expect(dialog).toBeVisible();
  const tokenRadio = dialog.getByRole('radio', { name: /API token/ });
  await tabTo(page, dialog.getByRole('radio').first());
  for (let i = 0; i < 4 && !(await tokenRadio.isChecked()); i++) await page.keyboard.press('ArrowDown');
  await expect(tokenRadio).toBeChecked();
  await tabTo(page, dialog.getByLabel('Private app access token'));
  await page.keyboard.type(SANDBOX_TOKEN);
  await tabTo(page, dialog.getByRole('button', { name: 'Save token' }));
  await page.keyboard.press('Enter');
  await expectToast(page, 'CRM Token saved');
  await expect(dialog).toBeHidden();
  // F8 reaches the toast (spec §9); Tab leaves it again: a toast never traps focus.
  const inToast = () => page.evaluate(() => !!document.activeElement?.closest('[data-toaster-position]'));
  await page.keyboard.press('F8');
  await expect.poll(inToast).toBe(true);
  await page.keyboard.press('Tab');
  await expect.poll(inToast).toBe(false);

  // Ask.
  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  await tabTo(page, input);
  await page.keyboard.type('customers with lifetime value over $1,000');
  await page.keyboard.press('Enter');
  await expectToast(page, /Search completed/, /Found [\d,]+ customers/);
  await expect(input).toBeFocused();
  const table = page.getByRole('table', { name: 'Customers' });
  await expect(table.locator('tbody tr').first()).toBeVisible();

  // Sort by lifetime value from its column header.
  const header = table.getByRole('columnheader', { name: /Lifetime value/ });
  await tabTo(page, header);
  await page.keyboard.press('Enter');
  await expect(header).toHaveAttribute('aria-sort', /ascending|descending/);

  // Open the first contact, then close it: focus returns to the name that opened it.
  const name = table.locator('tbody tr').first().getByRole('button');
  await tabTo(page, name);
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: /^Contact / });
  await expect(drawer).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(name).toBeFocused();

  // Next page.
  const pages = page.getByRole('navigation', { name: 'Pages' });
  await tabTo(page, pages.getByRole('button', { name: 'Page 2', exact: true }));
  await page.keyboard.press('Enter');
  await expect(pages.getByRole('button', { name: 'Page 2', exact: true })).toHaveAttribute('aria-current', 'page');

  // Export: the button is before the table, so back with Shift+Tab.
  const exportButton = page.getByRole('button', { name: /^Export/ });
  await tabTo(page, exportButton, { back: true });
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  await shot(page, 'keyboard-only');
});
