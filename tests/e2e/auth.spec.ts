// The authentication screen (spec §2, §5, §8): register and log in through the form, validation,
// failure toasts and the 10-second suspension notice.
import { adminApi, expect, expectAccessible, expectToast, gql, registerUser, shot, test, uniqueEmail } from './fixtures';

test('register through the form, with the spec\'s validation, then land on the assistant', async ({ page, allowConsole }) => {
  allowConsole(/status of 400/); // the server's refusal of a common password
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
  // the password policy's message (a common password) shows on the password field
  await page.getByLabel(/^Password/).fill('password1');
  await page.getByLabel(/^Confirm password/).fill('password1');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('form', { name: 'Register' }).getByText('This password is too common. Choose one that is harder to guess.')).toBeVisible();
  await expect(page.getByLabel(/^Password/)).toHaveAttribute('aria-invalid', 'true');
  await expectToast(page, 'Registration failed', 'This password is too common. Choose one that is harder to guess.');
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

test('forgot password: a link by mail (the outbox), a new password, sign in with it', async ({ page, playwright, baseURL, allowConsole }) => {
  allowConsole(/status of 400/); // the server's refusal of a short password
  const { email } = await registerUser(page.request);
  await page.request.post('/api/auth/logout');
  await page.goto('/auth');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const form = page.getByRole('form', { name: 'Reset your password' });
  await expect(form.getByLabel(/^Email/)).toHaveValue(email); // carried over from the login form
  await expectAccessible(page, 'forgot password');
  await form.getByRole('button', { name: 'Send reset link' }).click();
  await expect(form.getByRole('status')).toHaveText(/^If an account exists for that email, we've sent it a link/);
  await shot(page, 'auth-forgot-password');

  const admin = await adminApi(playwright, baseURL!);
  let link = '';
  await expect
    .poll(async () => {
      const { messages } = (await (await admin.get('/api/admin/outbox')).json()) as { messages: { to: string; text: string }[] };
      link = /http\S+\/reset-password#token=[\w-]+/.exec(messages.find((m) => m.to === email)?.text ?? '')?.[0] ?? '';
      return link;
    })
    .not.toBe('');
  await page.goto(new URL(link).pathname + new URL(link).hash);
  await expect(page).toHaveURL(/\/reset-password$/); // the token leaves the address bar
  await expectAccessible(page, 'reset password');
  await page.getByLabel(/^New password/).fill('short');
  await page.getByLabel(/^Confirm new password/).fill('short');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await page.getByLabel(/^New password/).fill('a-new-pass-2026');
  await page.getByLabel(/^Confirm new password/).fill('a-new-pass-2026');
  await shot(page, 'auth-reset-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expectToast(page, 'Password changed');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByLabel(/^Email/)).toHaveValue(email);
  await page.getByRole('textbox', { name: 'Password' }).fill('a-new-pass-2026');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/$/);
  await admin.dispose();
});
