// The Admin console (spec §2, §5, §6, §8): who may see it, and each tab used the way an
// administrator would — users (ban with reason and confirmation, the banned user's open page and
// sign-in refused, unban), statistics with the chart, pricing with inline-edit validation, smart
// segment content with live generation seen on a user's screen in a second browser, cleanup and
// maintenance, and the audit log. Screenshots of every tab go to tests/e2e/artifacts/.
import type { Browser, Page } from '@playwright/test';
import { ADMIN } from './env';
import { connectCrm, expect, expectAccessible, expectToast, gql, registerUser, shot, test } from './fixtures';

const LOGIN = 'mutation($input: LoginInput!) { login(input: $input) { authStatus { authenticated } } }';

/** Signs the page in as the administrator, with the once-per-session CRM modal already seen. */
async function signInAdmin(page: Page) {
  await page.addInitScript(() => sessionStorage.setItem('crm.crmModalShown', '1'));
  await gql(page.request, LOGIN, { input: ADMIN });
}

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
}

/** A second browser, signed in as a new user with a CRM connection, on the Smart Segments screen. */
async function userOnSmartSegments(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.route(/https:\/\/([a-z-]+\.)?paddle\.com\//, (route) => route.abort());
  const user = await registerUser(page.request, { firstName: 'Live', lastName: 'Viewer' });
  await connectCrm(page.request);
  const subscribed = new Promise<void>((resolve) =>
    page.on('websocket', (ws) => ws.on('framesent', (f) => String(f.payload).includes('SmartSegmentsPageSubscription') && resolve())),
  );
  await page.goto('/smart-segments');
  await expect(page.getByRole('heading', { name: 'Smart Segments', level: 1 })).toBeVisible();
  await subscribed;
  return { context, page, user };
}

test('signed out: /admin redirects to /auth; a user who is not an administrator sees Access Denied', async ({ page }) => {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/auth$/);
  await registerUser(page.request);
  await page.addInitScript(() => sessionStorage.setItem('crm.crmModalShown', '1'));
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText('You need administrator privileges to access this page.')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Users' })).toHaveCount(0);
  await expectAccessible(page, 'admin (access denied)');
  await shot(page, 'admin-access-denied');
  await page.getByRole('button', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  // The server refuses the admin data too, whatever the screen shows.
  await expect(gql(page.request, '{ usageStats { totalUsers } }')).rejects.toThrow(/FORBIDDEN/);
});

test('users: search, ban with a reason and confirmation (open page ends, sign-in refused), unban', async ({ page, browser, baseURL, allowConsole }) => {
  // The banned user's second browser: the refused sign-in's status.
  allowConsole(/status of 403/);
  const victimContext = await browser.newContext({ baseURL });
  const victimPage = await victimContext.newPage();
  const victim = await registerUser(victimPage.request, { firstName: 'Mallory', lastName: 'Banks' });
  await connectCrm(victimPage.request);
  await victimPage.goto('/');
  await expect(victimPage.getByText('Customer Results')).toBeVisible();

  await signInAdmin(page);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Console' })).toBeVisible();
  const tabs = ['Users', 'Statistics', 'Pricing', 'Smart Segments', 'Maintenance', 'Audit Log'];
  for (const [i, name] of tabs.entries()) await expect(page.getByRole('tab').nth(i)).toHaveAccessibleName(name);
  await expect(page.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');

  const table = page.getByRole('table', { name: 'Users' });
  await expect(table).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search users' }).fill(victim.email);
  await expect(page.getByText(`1 user matches "${victim.email}"`)).toBeVisible();
  const row = table.getByRole('row').filter({ hasText: victim.email });
  await expect(row).toContainText('Mallory Banks');
  await expect(row).toContainText(/[0-9a-f]{8}\.\.\./);
  await expect(row).toContainText('HubSpot');
  await expect(row).toContainText('IT & Software');
  await expect(row).toContainText('Free Plan');
  await expect(row).toContainText('10/3 limits');
  await expect(row).toContainText('Queries: 0/10');
  await expect(row).toContainText('Active');
  await expectAccessible(page, 'admin users');
  await shot(page, 'admin-users');

  // An empty reason stops the ban, as a cancelled prompt does.
  await row.getByRole('button', { name: 'Ban Mallory Banks' }).click();
  const prompt = page.getByRole('dialog', { name: 'Ban Mallory Banks' });
  await expect(prompt.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await prompt.getByRole('button', { name: 'Cancel' }).click();
  await expect(prompt).toBeHidden();
  await expect(row).toContainText('Active');

  await row.getByRole('button', { name: 'Ban Mallory Banks' }).click();
  await prompt.getByLabel('Reason for the ban').fill('Chargeback fraud');
  await prompt.getByRole('button', { name: 'Continue' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Ban user' });
  await expect(confirm).toContainText('Are you sure you want to ban Mallory Banks?');
  await expect(confirm).toContainText('Chargeback fraud');
  await expect(prompt).toBeHidden(); // its closing animation is over
  await shot(page, 'admin-users-ban-confirm');
  await confirm.getByRole('button', { name: 'Ban', exact: true }).click();
  await expectToast(page, 'User banned', 'User has been successfully banned from the platform');
  await expect(row).toContainText('Banned');
  await expect(row).toContainText('Reason: Chargeback fraud');

  // The banned user's open page stops working: the server ends the session and the page says so.
  await expect(victimPage).toHaveURL(/\/auth$/, { timeout: 20_000 });
  await expectToast(victimPage, 'Signed out');
  await victimPage.getByLabel(/^Email/).fill(victim.email);
  await victimPage.getByLabel(/^Password/).fill(victim.password);
  await victimPage.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(victimPage, 'Account Suspended', 'Chargeback fraud');
  await victimContext.close();

  await row.getByRole('button', { name: 'Unban Mallory Banks' }).click();
  const unban = page.getByRole('alertdialog', { name: 'Unban user' });
  await expect(unban).toContainText('Are you sure you want to unban Mallory Banks?');
  await unban.getByRole('button', { name: 'Unban', exact: true }).click();
  await expectToast(page, 'User unbanned', 'Mallory Banks can now access the platform');
  await expect(row).toContainText('Active');

  // No match: the empty state.
  await page.getByRole('searchbox', { name: 'Search users' }).fill('nobody-has-this-name');
  await expect(page.getByText('No users found')).toBeVisible();
});

test('statistics: the four cards and the 30-day chart', async ({ page }) => {
  await signInAdmin(page);
  await page.goto('/admin?tab=statistics');
  for (const label of ['Total Users', 'Active Users', 'Total Queries', 'Total Segments']) await expect(page.getByText(label, { exact: true })).toBeVisible();
  const stats = (await gql(page.request, '{ usageStats { totalUsers totalChatQueries } }')).usageStats;
  await expect(page.getByLabel(`Total Users: ${stats.totalUsers}`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Daily usage, last 30 days' })).toBeVisible();
  // The chart draws both series (the e2e server seeds usage over the last 30 days).
  await expect(page.getByRole('option', { name: 'Chat queries' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Segment unlocks' })).toBeVisible();
  expect(await page.locator('svg path').count()).toBeGreaterThan(30); // two lines with a dot per day
  await expect(page.getByText(/\d+ chat queries and \d+ segment unlocks in 30 days/)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Daily usage, last 30 days' }).getByRole('row')).toHaveCount(31);
  await expectAccessible(page, 'admin statistics');
  await shot(page, 'admin-statistics');
});

test('audit log: the newest administrative action first', async ({ page }) => {
  await signInAdmin(page);
  const tier = `audit${Date.now().toString(36)}`;
  await gql(
    page.request,
    'mutation($input: CreatePricingTierInput!) { createPricingTier(input: $input) { pricingTier { id } } }',
    { input: { name: tier, displayName: 'Audit Tier', chatQueryLimit: 5, smartSegmentLimit: 1, priceMonthly: '1.00', priceYearly: '10.00' } },
  );
  await page.goto('/admin?tab=audit');
  const table = page.getByRole('table', { name: 'Audit log' });
  const first = table.getByRole('row').nth(1);
  // In words, not the action's code or JSON.
  await expect(first).toContainText('Pricing tier created');
  await expect(first).toContainText(ADMIN.email);
  await expect(first).not.toContainText('{');
  await expectAccessible(page, 'admin audit log');
  await shot(page, 'admin-audit-log');
});

/** The GraphQL operations the page sends from now on (issue 24: an admin change is its mutation alone, no list is read again). */
function graphqlOperations(page: import('@playwright/test').Page) {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/graphql') seen.push(/(?:query|mutation)\s+(\w+)/.exec(r.postData() ?? '')?.[1] ?? 'anonymous');
  });
  return seen;
}

test('smart segment content: create a category, a preset and a formula; generated segments appear live on a user\'s screen; clear; delete', async ({ page, browser, baseURL, allowConsole }) => {
  allowConsole(/status of 409/); // deleting a category that still has presets
  const suffix = Date.now().toString(36);
  const category = `vip-${suffix}`;
  const preset = `Big spenders ${suffix}`;
  const viewer = await userOnSmartSegments(browser, baseURL!);
  const before = (await gql(viewer.page.request, '{ smartSegmentPresets { id } }')).smartSegmentPresets.length;

  await signInAdmin(page);
  await page.goto('/admin');
  await openTab(page, 'Smart Segments');
  const content = page.getByRole('tablist', { name: 'Smart segment content' });
  for (const [i, name] of ['Categories', 'Presets', 'Impact Formulas'].entries()) await expect(content.getByRole('tab').nth(i)).toHaveAccessibleName(name);
  await expectAccessible(page, 'admin smart segments (categories)');
  await shot(page, 'admin-smart-segments-categories');

  // Category: required fields, then created (locked by default).
  const operations = graphqlOperations(page);
  await page.getByRole('button', { name: 'Create Category' }).click();
  let dialog = page.getByRole('dialog', { name: 'Create Category' });
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog.getByText('Name is required', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Display name is required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(category);
  await dialog.getByLabel('Display Name').fill('VIP Watch');
  await dialog.getByLabel('Description').fill('Customers worth a personal call.');
  await expect(dialog.getByLabel('Sort Order')).toHaveValue('0');
  await dialog.getByLabel('Sort Order').fill('9');
  await expect(dialog.getByRole('checkbox', { name: 'Locked (Premium)' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expectToast(page, 'Category created');
  const catRow = page.getByRole('table', { name: 'Categories' }).getByRole('row').filter({ hasText: category });
  await expect(catRow).toContainText('VIP Watch');
  await expect(catRow).toContainText('Locked');
  expect(operations).toEqual(['CreateSmartSegmentCategoryMutation']);

  // Preset in that category; the category filter shows it alone.
  await content.getByRole('tab', { name: 'Presets' }).click();
  await page.getByRole('button', { name: 'Create Preset' }).click();
  dialog = page.getByRole('dialog', { name: 'Create Preset' });
  await expect(dialog.getByLabel('Description')).toHaveAttribute('placeholder', 'High-value customers with recent activity');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(preset);
  await dialog.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'VIP Watch' });
  // The parser reads the criteria as they are typed: what it cannot run is refused before saving.
  const criteria = dialog.getByLabel('Description');
  await criteria.fill('customers with lifetime value over $5k and open support tickets');
  await expect(dialog.getByText(/^Part of the description was not understood: ".*tickets.*"/)).toBeVisible();
  await expect(dialog.getByText(/Understood so far: Customers .*lifetime value over \$5,000/)).toBeVisible();
  await expect(criteria).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'admin create preset (criteria not understood)');
  await shot(page, 'admin-smart-segments-preset-invalid');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog).toBeVisible();
  expect(operations.filter((o) => o === 'CreateSmartSegmentPresetMutation')).toEqual([]);
  await criteria.fill('customers with lifetime value over $5k');
  await expect(dialog.getByText(/^Understood: Customers .*lifetime value over \$5,000\.$/)).toBeVisible();
  await shot(page, 'admin-smart-segments-preset-understood');
  await page.setViewportSize({ width: 1024, height: 700 });
  await shot(page, 'admin-smart-segments-preset-understood-1024');
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expectToast(page, 'Preset created');
  await expect(dialog).toBeHidden(); // while it closes, the page's own "Category" filter is hidden behind it
  await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'VIP Watch' });
  const presets = page.getByRole('table', { name: 'Presets' });
  await expect(presets.getByRole('row')).toHaveCount(2);
  await expect(presets.getByRole('row').nth(1)).toContainText(preset);
  await expectAccessible(page, 'admin smart segments (presets)');
  await shot(page, 'admin-smart-segments-presets');

  // Formula: the server's verdict shows while typing, before saving.
  await content.getByRole('tab', { name: 'Impact Formulas' }).click();
  await page.getByRole('button', { name: 'Create Formula' }).click();
  dialog = page.getByRole('dialog', { name: 'Create Formula' });
  await expect(dialog).toContainText('customerCount');
  await expect(dialog).toContainText('marketingCost');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(`VIP value ${suffix}`);
  await dialog.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'VIP Watch' });
  const formula = dialog.getByRole('textbox', { name: 'Formula', exact: true });
  await formula.fill('customerCount * bogusVariable');
  await expect(dialog.getByText(/bogusVariable/)).toBeVisible();
  await shot(page, 'admin-smart-segments-formula-invalid');
  await formula.fill('customerCount * 0.3 + revenuePerCustomer * 0.7');
  await expect(dialog.getByText('Uses: customerCount, revenuePerCustomer')).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'Set as active formula for this category' }).check();
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expectToast(page, 'Formula created');
  const formulaRow = page.getByRole('table', { name: 'Impact formulas' }).getByRole('row').filter({ hasText: `VIP value ${suffix}` });
  await expect(formulaRow).toContainText('customerCount * 0.3 + revenuePerCustomer * 0.7');
  await expect(formulaRow).toContainText('Active');
  await expectAccessible(page, 'admin smart segments (formulas)');
  await shot(page, 'admin-smart-segments-formulas');

  // Retrieve: live progress here, and the user's open screen fills in without a reload.
  const navigations: string[] = [];
  viewer.page.on('framenavigated', (f) => f === viewer.page.mainFrame() && navigations.push(f.url()));
  await page.getByRole('button', { name: 'Retrieve Segments' }).click();
  await expect(page.getByRole('button', { name: 'Generating...' })).toBeDisabled();
  await expect(page.getByRole('progressbar', { name: 'Generation progress' })).toBeVisible();
  await shot(page, 'admin-smart-segments-generating');
  await expectToast(page, 'Segments Generated!', /Successfully generated \d+ segments? for \d+ users?/);
  await expect(viewer.page.getByText(`${before + 1} segments today`)).toBeVisible({ timeout: 60_000 });
  await expect(viewer.page.getByRole('tab', { name: 'VIP Watch' })).toBeVisible();
  const card = viewer.page.getByRole('list', { name: 'Segment presets' }).getByRole('article').filter({ hasText: preset });
  await expect(card).not.toContainText('Not generated today');
  await expect(card.getByRole('button', { name: 'Unlock Segment' })).toBeVisible();
  expect(navigations, 'no reload while segments arrive').toEqual([]);
  await shot(viewer.page, 'admin-generated-seen-by-user');
  await viewer.context.close();

  // Clear acts on the first user of the users list, after a confirmation naming them.
  await page.getByRole('button', { name: 'Clear Segments' }).click();
  const clear = page.getByRole('alertdialog', { name: 'Clear segments' });
  await expect(clear).toContainText(ADMIN.email);
  await clear.getByRole('button', { name: 'Clear', exact: true }).click();
  await expectToast(page, 'Segments Cleared!', /Successfully cleared \d+ segments/);

  // Deletes ask first, with the spec's words; a category with presets is refused with the reason.
  await formulaRow.getByRole('button', { name: /^Delete formula/ }).click();
  let confirm = page.getByRole('alertdialog', { name: 'Delete formula' });
  await expect(confirm).toContainText('Are you sure you want to delete this formula?');
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  operations.length = 0;
  await expectToast(page, 'Formula deleted');
  await expect(formulaRow).toHaveCount(0);

  await content.getByRole('tab', { name: 'Categories' }).click();
  await catRow.getByRole('button', { name: `Delete category ${category}` }).click();
  confirm = page.getByRole('alertdialog', { name: 'Delete category' });
  await expect(confirm).toContainText('Are you sure you want to delete this category? This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expectToast(page, 'Failed to delete category', /preset/i);
  await expect(catRow).toBeVisible();

  await content.getByRole('tab', { name: 'Presets' }).click();
  await page.getByRole('table', { name: 'Presets' }).getByRole('row').filter({ hasText: preset }).getByRole('button', { name: /^Delete preset/ }).click();
  confirm = page.getByRole('alertdialog', { name: 'Delete preset' });
  await expect(confirm).toContainText('Are you sure you want to delete this preset?');
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expectToast(page, 'Preset deleted');
  await expect(page.getByText('No presets found. Create your first preset to get started.')).toBeVisible();
  // the formula's and the preset's deletions and the refused category: their payloads, no list read again
  // (deleting the category below resets the filters that named it: that reads the unfiltered lists)
  expect(operations.filter((o) => !o.endsWith('Mutation'))).toEqual([]);

  await content.getByRole('tab', { name: 'Categories' }).click();
  await catRow.getByRole('button', { name: `Delete category ${category}` }).click();
  await page.getByRole('alertdialog', { name: 'Delete category' }).getByRole('button', { name: 'Delete', exact: true }).click();
  await expectToast(page, 'Category deleted');
  await expect(catRow).toHaveCount(0);
});

test('pricing: create a tier; inline edit refuses bad input with "Invalid Input" and saves good input', async ({ page }) => {
  const name = `e2e${Date.now().toString(36)}`;
  await signInAdmin(page);
  await page.goto('/admin?tab=pricing');
  const form = page.getByRole('form', { name: 'Create New Pricing Tier' });
  await expect(form).toBeVisible();
  const operations = graphqlOperations(page);
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute('placeholder', 'free, pro, enterprise');
  await expect(form.getByLabel('Monthly Price ($)')).toHaveAttribute('step', '0.01');
  await form.getByRole('button', { name: 'Create Tier' }).click();
  await expect(form.getByText('Name is required', { exact: true })).toBeVisible();
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await form.getByLabel('Display Name').fill('E2E Plan');
  await form.getByLabel('Chat Query Limit (Daily)').fill('20');
  await form.getByLabel('Smart Segment Limit (Daily)').fill('5');
  await form.getByLabel('Monthly Price ($)').fill('9.99');
  await form.getByLabel('Yearly Price ($)').fill('99.9');
  await form.getByRole('button', { name: 'Create Tier' }).click();
  await expectToast(page, 'Pricing tier created successfully');
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('');
  const row = page.getByRole('table', { name: 'Existing Pricing Tiers' }).getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('20 chat / 5 segments per day');
  await expect(row).toContainText('$9.99/mo · $99.90/yr');
  await expect(row).toContainText('Active');
  expect(operations).toEqual(['CreatePricingTierMutation']); // the payload's tier joined the table
  await expectAccessible(page, 'admin pricing');
  await shot(page, 'admin-pricing');

  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const field = (label: string) => page.getByLabel(`${label} of ${name}`);
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await field('Display name').fill('   ');
  await save.click();
  await expectToast(page, 'Invalid Input', 'Display name cannot be empty');
  await field('Display name').fill('E2E Plan Plus');
  await field('Chat query limit').fill('-1');
  await save.click();
  await expectToast(page, 'Invalid Input', 'Chat query limit must be a valid positive number');
  await field('Chat query limit').fill('30');
  await field('Yearly price').fill('-5');
  await save.click();
  await expectToast(page, 'Invalid Input', 'Yearly price must be a valid positive number');
  await shot(page, 'admin-pricing-edit');
  // Nothing was sent: the stored tier is unchanged.
  const stored = async () => (await gql(page.request, '{ pricingTiers { name displayName chatQueryLimit priceYearly } }')).pricingTiers.find((t: { name: string }) => t.name === name);
  expect(await stored()).toMatchObject({ displayName: 'E2E Plan', chatQueryLimit: 20, priceYearly: '99.90' });
  await field('Yearly price').fill('120');
  await save.click();
  await expectToast(page, 'Pricing tier updated successfully');
  await expect(row).toContainText('E2E Plan Plus');
  await expect(row).toContainText('30 chat / 5 segments per day');
  await expect(row).toContainText('$120.00/yr');
  expect(await stored()).toMatchObject({ displayName: 'E2E Plan Plus', chatQueryLimit: 30, priceYearly: '120.00' });
});

test('maintenance: cleanup statistics follow the retention period; cleanup and daily maintenance run', async ({ page }) => {
  await signInAdmin(page);
  await page.goto('/admin?tab=maintenance');
  const retention = page.getByLabel('Retention Period (Days)');
  await expect(retention).toHaveValue('90');
  // The e2e server seeds six usage records older than 90 days.
  await expect(page.getByText('Records older than 90 days: 6')).toBeVisible();
  await expect(page.getByText('Would delete: 6 records')).toBeVisible();
  await expectAccessible(page, 'admin maintenance');
  await shot(page, 'admin-maintenance');

  await retention.fill('400');
  await expect(page.getByText('Retention days must be between 1 and 365')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run Cleanup' })).toBeDisabled();
  await retention.fill('365');
  await expect(page.getByText('Records older than 365 days: 0')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run Cleanup' })).toBeDisabled();

  await retention.fill('90');
  await expect(page.getByText('Would delete: 6 records')).toBeVisible();
  await page.getByRole('button', { name: 'Run Cleanup' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Run cleanup' });
  await expect(confirm).toContainText('6 usage records older than 90 days');
  await confirm.getByRole('button', { name: 'Delete records' }).click();
  await expectToast(page, 'Cleanup Completed', /6/);
  await expect(page.getByText('Would delete: 0 records')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run Cleanup' })).toBeDisabled();

  await page.getByRole('button', { name: 'Run Daily Maintenance' }).click();
  await expectToast(page, 'Maintenance Completed', 'Daily maintenance tasks completed successfully');
});
