// The authentication screen (spec §2, §5, §8): register and log in through the form, validation,
// failure toasts and the 10-second suspension notice.
import { adminApi, expect, expectAccessible, expectToast, gql, registerUser, shot, test, uniqueEmail } from './fixtures';

test('register through the form, with the spec\'s validation, then land on the assistant', async ({ page }) => {
  await page.goto('/auth');
  await expectAccessible(page, 'auth (login tab)');
  await shot(page, 'auth-login');
  await page.getByRole('tab', { name: 'Register' }).click();
  await expect(page.getByLabel(/^First name/)).toBeVisible();
  await expectAccessible(page, 'auth (register tab)');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Please confirm your password')).toBeVisible();

  await page.getByLabel(/^First name/).fill('Ada');
  await page.getByLabel(/^Last name/).fill('Lovelace');
  await page.getByLabel(/^Email/).fill(uniqueEmail('ada'));
  await page.getByRole('combobox', { name: /CRM system/ }).click();
  const crmOptions = await page.getByRole('option').allTextContents();
  expect(crmOptions).toEqual(['HubSpot', 'PipeDrive', 'Salesforce', 'Zoho', 'Other']);
  await page.getByRole('option', { name: 'HubSpot' }).click();
  await page.getByRole('combobox', { name: /Industry/ }).click();
  expect(await page.getByRole('option').allTextContents()).toEqual([
    'Retail & Ecommerce', 'Hotels & Restaurants', 'IT & Software', 'Logistics & Delivery', 'Finance & Insurance', 'Telecom', 'Healthcare', 'Professional Services',
  ]);
  await page.getByRole('option', { name: 'Telecom' }).click();
  await page.getByLabel(/^Password/).fill('pw-123456');
  await page.getByLabel(/^Confirm password/).fill('pw-654321');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel(/^Confirm password/).fill('pw-123456');
  await shot(page, 'auth-register');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, 'Registration successful!', 'Welcome! You can now use the CRM Assistant.');
  await expect(page).toHaveURL(/\/(\?.*)?$/);
  await expect(page.getByText('Customer Results')).toBeVisible();
});

test('log in: wrong password, then success', async ({ page, allowConsole }) => {
  allowConsole(/status of 401/); // the refused sign-in's HTTP status
  const { email, password } = await registerUser(page.request);
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, 'Login failed', 'Invalid email or password');
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, 'Login successful!', 'Welcome back!');
  await expect(page.getByText('Customer Results')).toBeVisible();
});

test('a suspended account sees "Account Suspended" with the reason for 10 seconds', async ({ page, playwright, baseURL, allowConsole }) => {
  allowConsole(/status of 403/); // the refused sign-in's HTTP status
  const { email, password, id } = await registerUser(page.request);
  await page.context().clearCookies();
  const admin = await adminApi(playwright, baseURL!);
  await gql(admin, 'mutation($id: ID!) { banUser(input: { userId: $id, reason: "Chargeback" }) { user { isBanned } } }', { id });
  await page.goto('/auth');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, 'Account Suspended', 'Chargeback');
  await shot(page, 'auth-suspended');
  // Fluent's toast timer runs as a CSS animation of the toast's own duration: 10 s, not the 5 s default.
  const timer = page.locator('.fui-ToastContainer').filter({ hasText: 'Account Suspended' }).locator('[data-timer-status]');
  await expect(timer).toHaveCSS('animation-duration', '10s');
  await expect(page).toHaveURL(/\/auth$/);
});
