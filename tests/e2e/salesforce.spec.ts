// A Salesforce user in the browser: the CRM Integration dialog names Salesforce and offers its two
// methods, connects with an access token and the instance URL, then switches to OAuth (with the
// warning) through the embedded Salesforce sandbox; a question gives results.
import { expect, expectAccessible, expectToast, gql, shot, test, uniqueEmail } from './fixtures';

const SF_TOKEN = '00DHx0000000001!AQ4AQSandboxStaticSessionId.8xKq2Vd7Lm3Np9Rt5Wy1Zb6Cf4Gh0Jk';

test('a Salesforce user connects by token and instance URL, then by OAuth, and asks', async ({ page, baseURL, allowConsole }) => {
  allowConsole(/status of 400/); // the refused instance URL's HTTP status
  const password = 'pw-e2e-123456';
  await gql(page.request, 'mutation($input: RegisterInput!) { register(input: $input) { viewer { id } } }', {
    input: { firstName: 'Ada', lastName: 'Lovelace', email: uniqueEmail('sf'), crmType: 'salesforce', industry: 'it_software', password, confirmPassword: password },
  });
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: 'CRM Integration' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Salesforce').first()).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'OAuth (sign in to Salesforce)' })).toBeVisible();

  await dialog.getByRole('radio', { name: 'Access token and instance URL' }).check();
  await dialog.getByRole('textbox', { name: 'Access token' }).fill(SF_TOKEN);
  await dialog.getByRole('textbox', { name: 'Instance URL' }).fill('https://example.com');
  await dialog.getByRole('button', { name: 'Save token' }).click();
  await expectToast(page, 'Failed to save token', /instance URL/);
  await dialog.getByRole('textbox', { name: 'Instance URL' }).fill(`${baseURL}/salesforce-sandbox`);
  await expectAccessible(page, 'Salesforce CRM modal');
  await shot(page, 'salesforce-crm-modal');
  await dialog.getByRole('button', { name: 'Save token' }).click();
  await expectToast(page, 'CRM Token saved');
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Hi! I'm your CRM Assistant for Salesforce.", { exact: false })).toBeVisible();

  // A question, answered from the org's Leads and Contacts.
  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  await input.fill('customers in North America');
  await input.press('Enter');
  await expectToast(page, 'Search completed', /Found \d+ customers matching your criteria\./);
  await expect(page.getByRole('table', { name: 'Customers' }).getByRole('row').nth(1)).toBeVisible();

  // Switching to OAuth warns, then goes through Salesforce's authorize page and back.
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'CRM Integration' }).click();
  await expect(dialog.getByText('Connected via API token')).toBeVisible();
  await dialog.getByRole('radio', { name: 'OAuth (sign in to Salesforce)' }).check();
  await expect(dialog.getByText(/replaces the current connection/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Connect with Salesforce' }).click();
  await page.waitForURL((u) => u.pathname === '/' && !u.search.includes('oauth=error'));
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'CRM Integration' }).click();
  await expect(dialog.getByText('Connected via OAuth')).toBeVisible();
});
