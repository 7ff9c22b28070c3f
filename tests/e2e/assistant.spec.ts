// The assistant end to end: the CRM modal opens once per session and connects by token; a question
// gives results that filter, page and export; a chip is edited and re-run; history; saved segments;
// the daily limit toast; the OAuth return toasts; the Paddle CDN failure; accessibility of each screen.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { adminApi, connectCrm, expect, expectAccessible, expectToast, gql, registerUser, shot, test } from './fixtures';
import { SANDBOX_TOKEN } from './env';

test('the CRM modal opens once per session and connects by token', async ({ page }) => {
  await registerUser(page.request);
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: 'CRM Integration' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Not connected')).toBeVisible();
  await expectAccessible(page, 'CRM modal');
  await shot(page, 'crm-modal');
  await dialog.getByRole('radio', { name: /API token/ }).check();
  await dialog.getByRole('button', { name: 'Save token' }).click();
  await expectToast(page, 'Token required');
  await dialog.getByLabel('Private app access token').fill(`  ${SANDBOX_TOKEN}  `);
  await dialog.getByRole('button', { name: 'Save token' }).click();
  await expectToast(page, 'CRM Token saved');
  await expect(dialog).toBeHidden();
  // Once per browser session: not again after a reload.
  await page.reload();
  await expect(page.getByText('Customer Results')).toBeVisible();
  await expect(dialog).toBeHidden();
  // The user menu shows the status and reopens the modal; switching method warns.
  await page.getByRole('button', { name: /User menu/ }).click();
  await expect(page.getByRole('menu').getByText('Connected to CRM')).toBeVisible();
  await page.getByRole('menuitem', { name: 'CRM Integration' }).click();
  await expect(dialog.getByText('Connected via API token')).toBeVisible();
  await dialog.getByRole('radio', { name: /OAuth/ }).check();
  await expect(dialog.getByText(/replaces the current connection/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await expectToast(page, 'Disconnected');
  await expect(dialog.getByText('Not connected')).toBeVisible();
});

test("the CRM's field map: which field holds lifetime value, chosen in the dialog, read by the next question", async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'CRM Integration' }).click();
  const dialog = page.getByRole('dialog', { name: 'CRM Integration' });
  await expect(dialog.getByText('HubSpot', { exact: true })).toBeVisible();
  await expect(dialog.getByText(/Lifetime value ← total_revenue/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Edit field map' }).click();
  const ltv = dialog.getByRole('combobox', { name: 'Lifetime value' });
  await expect(ltv).toBeVisible();
  await expectAccessible(page, 'CRM field map');
  await shot(page, 'crm-field-map');
  await ltv.selectOption('recent_deal_amount');
  await dialog.getByRole('button', { name: 'Save field map' }).click();
  await expectToast(page, 'Field map saved');
  await expect(dialog.getByText(/Lifetime value ← recent_deal_amount/)).toBeVisible();
  const { crmConnection } = await gql<{ crmConnection: { fieldMap: { field: string; crmField: string }[] } }>(page.request, '{ crmConnection { fieldMap { field crmField } } }');
  expect(crmConnection.fieldMap).toContainEqual({ field: 'lifetimeValue', crmField: 'recent_deal_amount' });
  await dialog.getByRole('button', { name: 'Edit field map' }).click();
  await dialog.getByRole('button', { name: "Use HubSpot's defaults" }).click();
  await expect(dialog.getByText(/Lifetime value ← total_revenue/)).toBeVisible();
});

test('ask, filter, page, export, edit a chip and re-run, history', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  await expect(page.getByText('Customer Results')).toBeVisible();
  await shot(page, 'main-empty');

  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  await input.fill('customers in Europe with lifetime value over $1,000');
  await input.press('Enter');
  await expectToast(page, 'Search completed', /Found \d+ customers matching your criteria\./);
  await expect(page.getByRole('log', { name: 'Conversation' })).toContainText('customers in Europe with lifetime value over $1,000');
  const table = page.getByRole('table', { name: 'Customers' });
  await expect(table.getByRole('row')).toHaveCount(11); // header + 10
  await expect(page.getByText(/Query history/)).toBeVisible();
  await expect(page.getByText('1/50')).toBeVisible();
  await expectAccessible(page, 'main with results');
  await shot(page, 'main-results');

  // The chips: how the question was understood.
  const understood = page.getByRole('region', { name: 'How the question was understood' });
  await expect(understood.getByRole('button', { name: 'Edit condition: in Europe (54 countries)', exact: true })).toBeVisible();
  const countText = await page.getByText(/of \d+ customers/).first().textContent();

  // Filters apply in the database; every row matches.
  await page.getByRole('combobox', { name: 'Lifecycle stage' }).click();
  await page.getByRole('option', { name: 'Customer', exact: true }).click();
  await expect(page.getByText(/of \d+ customers/).first()).not.toHaveText(countText!);
  for (const stage of await table.locator('tbody .fui-Badge').allTextContents()) expect(stage).toBe('Customer');
  await page.getByRole('combobox', { name: 'Lifecycle stage' }).click();
  await page.getByRole('option', { name: 'All stages' }).click();

  // Pages of 10: at most 5 page numbers, then "..." and the last.
  const pages = page.getByRole('navigation', { name: 'Pages' });
  const firstRow = await table.locator('tbody tr').first().textContent();
  await pages.getByRole('button', { name: 'Page 2' }).click();
  await expect(pages.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await expect(table.locator('tbody tr').first()).not.toHaveText(firstRow!);
  await pages.getByRole('button', { name: 'Next page' }).click();
  await expect(pages.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');

  // Export: every stored customer, as CSV.
  const total = Number((await page.getByText(/of \d+ customers/).first().textContent())!.match(/^([\d,]+) of/)![1].replace(/,/g, ''));
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.startsWith('\uFEFFid,firstName,')).toBe(true); // UTF-8 with the BOM Excel needs
  const rows = parse(csv, { columns: true, bom: true }) as Record<string, string>[];
  expect(rows).toHaveLength(total);
  expect(Object.keys(rows[0])).toEqual(['id', 'firstName', 'lastName', 'email', 'company', 'lifecycleStage', 'lastPurchaseDate', 'lastPurchaseAmount', 'lifetimeValue', 'city', 'state', 'country']);
  for (const r of rows) expect(Number(r.lifetimeValue)).toBeGreaterThan(1000);
  await expectToast(page, 'Download Complete', `Successfully downloaded ${total.toLocaleString('en-US')} customers`);

  // Edit a chip: lifetime value over $1,000 → over $5,000, then apply (re-runs without retyping).
  await understood.getByRole('button', { name: 'Edit condition: lifetime value over $1,000', exact: true }).click();
  const editor = page.getByRole('dialog', { name: 'Lifetime value' });
  await expect(editor).toBeVisible();
  await expectAccessible(page, 'chip editor');
  await editor.getByRole('spinbutton').fill('5000');
  await editor.getByRole('button', { name: 'Done' }).click();
  await understood.getByRole('button', { name: 'Apply changes' }).click();
  // The edited conditions are a new entry of the history: the original query stays as it was.
  await expectToast(page, /Search completed|No results found/, /Found \d+ customers/);
  await expect(page.getByText('2/50')).toBeVisible();
  await expect(understood.getByRole('button', { name: 'Edit condition: lifetime value over $5,000', exact: true })).toBeVisible();
  const after = Number((await page.getByText(/of \d+ customers/).first().textContent())!.match(/of ([\d,]+) customers/)![1].replace(/,/g, ''));
  expect(after).toBeLessThan(total);
  await shot(page, 'main-edited');

  // Add a condition from the menu of fields, then remove it again.
  await understood.getByRole('button', { name: 'Add condition' }).click();
  await page.getByRole('menuitem', { name: 'Lifecycle stage', exact: true }).click();
  await page.getByRole('dialog', { name: 'Lifecycle stage' }).getByRole('button', { name: 'Done' }).click();
  await expect(understood.getByRole('button', { name: /Remove condition: Lifecycle stage/ })).toBeVisible();
  await understood.getByRole('button', { name: /Remove condition: Lifecycle stage/ }).click();
  await understood.getByRole('button', { name: 'Undo changes' }).click();

  // History: a second question, then re-run the first one from the history.
  await input.fill('leads in Canada');
  await input.press('Enter');
  await expect(page.getByText('3/50')).toBeVisible();
  await page.getByRole('button', { name: 'Re-run this query' }).last().click();
  await expectToast(page, 'Query updated');
});

test('saved segments: create from a question, list, delete with confirmation', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await gql(page.request, 'mutation { runQuery(input: { naturalLanguage: "subscribers in Germany" }) { resultCount } }');
  await page.goto('/');
  await expect(page.getByText('Customer Results')).toBeVisible();
  await page.getByRole('button', { name: 'Create Segment' }).click();
  await expectToast(page, 'Segment created');

  await page.goto('/segments');
  await expect(page.getByRole('heading', { name: 'Segments', level: 1 })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByText('subscribers in Germany', { exact: true })).toBeVisible();
  const add = page.getByPlaceholder('Describe your segment...');
  await expect(page.getByRole('button', { name: 'Add', exact: true })).toBeDisabled();
  await add.fill('  leads with lifetime value over $2k  ');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, 'Segment created');
  await expect(main.getByText('leads with lifetime value over $2k', { exact: true })).toBeVisible();
  await expect(page.getByLabel('2 saved segments')).toBeVisible();
  await expectAccessible(page, 'segments');
  await shot(page, 'segments');
  for (let i = 0; i < 2; i++) {
    await page.getByRole('button', { name: 'Delete segment' }).first().click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Are you sure you want to delete this segment?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Segment deleted');
  }
  await expect(main.getByText('No segments yet')).toBeVisible();
  await shot(page, 'segments-empty');
});

test('at the daily limit the question box closes and says when it resets; a refused question shows used/limit', async ({ page, playwright, baseURL, allowConsole }) => {
  allowConsole(/status of 429/); // the refused question's HTTP status
  allowConsole(/ERR_FAILED|Failed to fetch|WebSocket/); // the stale page's held-back polls and closed websocket
  const admin = await adminApi(playwright, baseURL!);
  const tiers = await gql<{ pricingTiers: { id: string; name: string; chatQueryLimit: number }[] }>(admin, '{ pricingTiers { id name chatQueryLimit } }');
  const free = tiers.pricingTiers.find((t) => t.name === 'free')!;
  await gql(admin, 'mutation($id: ID!) { updatePricingTier(input: { id: $id, chatQueryLimit: 1 }) { pricingTier { id } } }', { id: free.id });
  try {
    await registerUser(page.request);
    await connectCrm(page.request);
    await page.goto('/');
    const input = page.getByRole('textbox', { name: 'Ask about your customers' });
    await input.fill('leads in Canada');
    await input.press('Enter');
    await expectToast(page, /Search completed|No results found/);
    // The box closes at the limit before anything more is typed (usageUpdated), saying when it resets.
    await expect(page.getByRole('status').filter({ hasText: 'used today' })).toHaveText('1 of 1 used today, resets at midnight UTC');
    await expect(input).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Upgrade Required' }).or(page.getByRole('img', { name: /limit reached/ }))).toBeVisible();
    // A page that has not heard of the limit yet (no websocket, its usage polls held back) sends the
    // question: the server's refusal says why.
    const stale = await page.context().newPage();
    await stale.routeWebSocket(/\/graphql$/, (ws) => ws.close({ code: 1011, reason: 'test: no websocket' }));
    let layoutLoaded = false;
    await stale.route('**/graphql', (route) => {
      if (!(route.request().postData() ?? '').includes('SignedInLayoutQuery')) return route.fallback();
      if (layoutLoaded) return route.abort(); // the usage polls: held back
      layoutLoaded = true;
      return route.fallback();
    });
    await page.close();
    await gql(admin, 'mutation($id: ID!) { updatePricingTier(input: { id: $id, chatQueryLimit: 2 }) { pricingTier { id } } }', { id: free.id });
    await stale.goto('/');
    const staleInput = stale.getByRole('textbox', { name: 'Ask about your customers' });
    await expect(staleInput).toBeEnabled();
    await gql(stale.request, 'mutation { runQuery(input: { naturalLanguage: "leads in Spain" }) { resultCount } }');
    await staleInput.fill('leads in France');
    await staleInput.press('Enter');
    await expectToast(stale, "You've reached your daily limit", "You've used 2 of 2 queries today. Upgrade your plan or wait until tomorrow when limits reset.");
    // The refused question stays in the box, to send again later.
    await expect(staleInput).toHaveValue('leads in France');
  } finally {
    await gql(admin, 'mutation($id: ID!) { updatePricingTier(input: { id: $id, chatQueryLimit: 10 }) { pricingTier { id } } }', { id: free.id });
  }
});

test('a question understood in part is asked about in the chat: nothing runs until a choice or the edited chips run it', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  const input = page.getByRole('textbox', { name: 'Ask about your customers' });
  await input.fill('leads in Canada with pink hats');
  await input.press('Enter');
  const log = page.getByRole('log', { name: 'Conversation' });
  const card = log.getByRole('region', { name: 'The assistant asks' });
  await expect(card).toBeVisible();
  await expect(log).toContainText('leads in Canada with pink hats');
  await expect(card).toContainText('I understood: Leads · in Canada');
  await expect(card).toContainText('I didn\'t understand "pink hats".');
  await expect(card).toContainText('Nothing was run and no query was used.');
  const usage = async () => (await gql<{ usage: { chatQueriesUsed: number } }>(page.request, '{ usage { chatQueriesUsed } }')).usage.chatQueriesUsed;
  expect(await usage()).toBe(0);
  await expectAccessible(page, 'chat clarification');
  await shot(page, 'chat-clarification');

  // The understood chips are editable: remove "in Canada", then run the question as edited (one query).
  const chips = card.getByRole('group', { name: 'What I understood' });
  await chips.getByRole('button', { name: /Remove condition: in Canada$/ }).click();
  await chips.getByRole('button', { name: 'Run with these conditions' }).click();
  await expectToast(page, 'Search completed', /Found [\d,]+ customers matching/);
  await expect(card).toBeHidden();
  expect(await usage()).toBe(1);
  const understood = page.getByRole('region', { name: 'How the question was understood' });
  await expect(understood.getByRole('button', { name: 'Edit condition: leads', exact: true })).toBeVisible();
  await expect(understood.getByRole('button', { name: 'Edit condition: in Canada', exact: true })).toHaveCount(0);

  // A contradiction: the choices are buttons; one click runs that reading.
  await input.fill('subscribers who are also paying customers in ohio');
  await input.press('Enter');
  await expect(card).toContainText('cannot both hold');
  await card.getByRole('group', { name: 'Choices' }).getByRole('button', { name: 'Subscribers · in Ohio', exact: true }).click();
  await expectToast(page, /Search completed|No results found/);
  await expect(card).toBeHidden();
  expect(await usage()).toBe(2);
  await expect(page.getByText('2/50')).toBeVisible();

  // Nothing understood: the question and the assistant's reply stay in the conversation (no 27-line toast),
  // nothing runs and no query is used; the next question replaces them.
  await input.fill('purple elephants dancing');
  await input.press('Enter');
  await expectToast(page, 'Question not understood', /reply in the conversation/);
  await expect(log).toContainText('purple elephants dancing');
  await expect(log.getByTestId('not-understood-reply')).toContainText('purple elephants');
  expect(await usage()).toBe(2);
  await expectAccessible(page, 'chat not understood');
  await shot(page, 'chat-not-understood');
});

test('OAuth return toasts, then a clean URL', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/?oauth=success');
  await expectToast(page, 'OAuth Connected');
  await expect(page).not.toHaveURL(/oauth=/);
  await page.goto('/?oauth=error&message=Access%20was%20denied');
  await expectToast(page, 'OAuth Error', 'Access was denied');
  await expect(page).not.toHaveURL(/oauth=/);
  await page.goto('/?oauth=error');
  await expectToast(page, 'OAuth Error', 'Failed to connect to the CRM');
});

test('Pay (sandbox) with the payment CDN unreachable gives the CDN error', async ({ page }) => {
  await registerUser(page.request);
  await connectCrm(page.request);
  await page.goto('/');
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Pay (sandbox)' }).click();
  await expectToast(page, 'Checkout error', 'Failed to load the payment script from CDN');
});

test('profile: name, email, password change and access tokens', async ({ page, allowConsole }) => {
  allowConsole(/status of 400/); // the refused password change's HTTP status
  const { email, password } = await registerUser(page.request, { firstName: 'Alan', lastName: 'Turing' });
  await connectCrm(page.request); // no CRM Integration modal over the screen
  await gql(page.request, 'mutation($input: CreatePersonalAccessTokenInput!) { createPersonalAccessToken(input: $input) { token } }', {
    input: { email, password, name: 'laptop CLI' },
  });
  await page.goto('/profile');
  const account = page.getByRole('region', { name: 'Your account' });
  await expect(account.getByText('Alan Turing')).toBeVisible();
  await expect(account.getByText(email)).toBeVisible();
  await expect(page.getByRole('cell', { name: 'laptop CLI' })).toBeVisible();
  await expectAccessible(page, 'profile');
  await shot(page, 'profile');
  await page.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
  await expectToast(page, 'Token revoked');
  await expect(page.getByText('No tokens yet.')).toBeVisible();
  await page.getByLabel(/^Current password/).fill('wrong-password');
  await page.getByLabel(/^New password/).fill('new-password-1');
  await page.getByLabel(/^Confirm new password/).fill('new-password-1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expectToast(page, 'Password not changed', 'The current password is not correct');
  await page.getByLabel(/^Current password/).fill(password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expectToast(page, 'Password changed');
});

test('logout clears the session and goes to /auth', async ({ page }) => {
  await registerUser(page.request);
  await page.goto('/');
  await page.getByRole('dialog', { name: 'CRM Integration' }).getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => sessionStorage.getItem('crm.crmModalShown'))).toBeNull();
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);
});
