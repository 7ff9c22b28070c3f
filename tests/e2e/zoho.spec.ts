// A Zoho CRM user in the browser (issue 29): sign up choosing Zoho, connect in the CRM Integration dialog
// with a self client's grant code (from the embedded Zoho sandbox's "API console") or with OAuth, ask,
// and download the answer.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { ZOHO_SELF_CLIENT } from './env';
import { expect, expectAccessible, expectToast, gql, shot, test, uniqueEmail } from './fixtures';

const SCOPES = 'ZohoCRM.coql.READ,ZohoCRM.modules.ALL,ZohoCRM.settings.fields.READ,ZohoCRM.org.READ,ZohoCRM.users.READ';

test('sign up with Zoho, connect with a self-client grant code, ask and download', async ({ page }) => {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel(/^First name/).fill('Zara');
  await page.getByLabel(/^Last name/).fill('Ho');
  await page.getByLabel(/^Email/).fill(uniqueEmail('zoho'));
  await page.getByRole('combobox', { name: /CRM system/ }).click();
  await page.getByRole('option', { name: 'Zoho' }).click();
  await page.getByRole('combobox', { name: /Industry/ }).click();
  await page.getByRole('option', { name: 'Telecom' }).click();
  await page.getByLabel(/^Password/).fill('pw-123456');
  await page.getByLabel(/^Confirm password/).fill('pw-123456');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, 'Registration successful!');

  const dialog = page.getByRole('dialog', { name: 'CRM Integration' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Not connected')).toBeVisible();
  await expect(dialog.getByRole('radio', { name: /OAuth \(sign in to Zoho\)/ })).toBeVisible();
  await dialog.getByRole('radio', { name: /Self-client grant code/ }).check();
  await expect(dialog.getByRole('combobox', { name: /Data centre/ })).toBeVisible();
  await expectAccessible(page, 'CRM modal (Zoho)');
  await shot(page, 'zoho-crm-modal');

  // What the user does in Zoho's API console: generate a code for the self client, download its JSON.
  const grant = await (await page.request.post(`/zoho-sandbox/accounts/us/developerconsole/self-client/code?scope=${SCOPES}&duration=10`)).json();
  const selfClient = JSON.stringify({ client_id: ZOHO_SELF_CLIENT.clientId, client_secret: ZOHO_SELF_CLIENT.clientSecret, code: grant.code, grant_type: 'authorization_code' });
  await dialog.getByLabel(/Self client JSON/).fill(selfClient);
  await dialog.getByRole('button', { name: 'Save token' }).click();
  await expectToast(page, 'CRM Token saved');
  await expect(dialog).toBeHidden();

  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  await input.fill('customers in Europe with lifetime value over $1,000');
  await input.press('Enter');
  await expectToast(page, 'Search completed', /Found \d+ customers matching your criteria\./);
  const table = page.getByRole('table', { name: 'Customers' });
  await expect(table.getByRole('row').first()).toBeVisible();
  await shot(page, 'zoho-results');

  const total = Number((await page.getByText(/of \d+ customers/).first().textContent())!.match(/^([\d,]+) of/)![1].replace(/,/g, ''));
  expect(total).toBeGreaterThan(0);
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const download = await downloadPromise;
  const rows = parse(readFileSync((await download.path())!, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
  expect(rows).toHaveLength(total);
  for (const r of rows) {
    expect(r.id).toMatch(/^\d{19}$/);
    expect(Number(r.lifetimeValue)).toBeGreaterThan(1000);
  }
  const status = await gql(page.request, '{ crmConnection { connected crmLabel tokenType } }');
  expect(status.crmConnection).toEqual({ connected: true, crmLabel: 'Zoho', tokenType: 'pat' });
});

test('connect Zoho with OAuth from the dialog', async ({ page }) => {
  const password = 'pw-e2e-123456';
  await gql(page.request, 'mutation($input: RegisterInput!) { register(input: $input) { viewer { id } } }', {
    input: { firstName: 'Oz', lastName: 'Auth', email: uniqueEmail('zoho-oauth'), crmType: 'zoho', industry: 'telecom', password, confirmPassword: password },
  });
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: 'CRM Integration' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: /OAuth/ }).check();
  await dialog.getByRole('button', { name: 'Connect with Zoho' }).click();
  await expect(page).toHaveURL(/oauth=success|\/$/);
  const status = await gql(page.request, '{ crmConnection { connected crmLabel tokenType } }');
  expect(status.crmConnection).toEqual({ connected: true, crmLabel: 'Zoho', tokenType: 'oauth' });
});
