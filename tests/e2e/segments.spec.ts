// Saved segments that live (/segments): each shows its latest customer count and when it was counted,
// counts again on demand (and when added), is renamed and its description edited in a dialog (a description the
// parser cannot run is refused on the field, nothing changes), and runs with one click onto the
// assistant screen. The store is updated from the mutations' payloads: no screen query is read again.
import { connectCrm, expect, expectAccessible, expectToast, gql, registerUser, shot, test } from './fixtures';

test('saved segments: count, rename, edit the description (refused, then saved), run on the assistant screen', async ({ page, allowConsole }) => {
  allowConsole(/status of 400/); // the server's refusal of a description it cannot run
  await registerUser(page.request);
  await connectCrm(page.request);
  await gql(page.request, 'mutation { createSavedSegment(input: { description: "leads in Canada" }) { savedSegment { id } } }');
  const screenQueries: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/graphql') && /SegmentsPageQuery/.test(r.postData() ?? '')) screenQueries.push(r.url());
  });

  await page.goto('/segments');
  const main = page.getByRole('main');
  const item = main.getByRole('listitem').filter({ hasText: 'leads in Canada' });
  await expect(item).toContainText('Not counted yet');
  await expect.poll(() => screenQueries.length).toBeGreaterThan(0);
  const readsBefore = screenQueries.length;

  // Count now: the count and when it was counted, as the server recorded it.
  await item.getByRole('button', { name: 'Count now' }).click();
  const counted = async () => {
    const d = await gql(page.request, '{ savedSegments { edges { node { description latestResult { customerCount } } } } }');
    return d.savedSegments.edges[0].node.latestResult?.customerCount as number | undefined;
  };
  await expect.poll(counted).toBeDefined();
  const canada = (await counted())!;
  await expect(item).toContainText(`${canada.toLocaleString('en-US')} ${canada === 1 ? 'customer' : 'customers'} · counted`);

  // Rename and edit: a description the parser does not fully understand is refused on its field.
  await item.getByRole('button', { name: 'Rename or edit segment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit segment' });
  await dialog.getByLabel('Name').fill('Canadian prospects');
  await dialog.getByLabel('Description').fill('VIP clients in Germany');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(/Part of the description was not understood: "VIP"/)).toBeVisible();
  await expect(dialog.getByLabel('Description')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'edit segment (refused)');
  await shot(page, 'segments-edit-refused');
  // Nothing was changed by the refusal.
  const unchanged = await gql(page.request, '{ savedSegments { edges { node { name description } } } }');
  expect(unchanged.savedSegments.edges[0].node).toEqual({ name: null, description: 'leads in Canada' });

  await dialog.getByLabel('Description').fill('  customers in Germany  ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Segment updated', 'Canadian prospects');
  await expect(dialog).toBeHidden();
  const renamed = main.getByRole('listitem').filter({ hasText: 'Canadian prospects' });
  await expect(renamed).toContainText('customers in Germany');
  const after = await gql(page.request, '{ savedSegments { edges { node { name description latestResult { customerCount } } } } }');
  const germany = after.savedSegments.edges[0].node;
  expect(germany).toMatchObject({ name: 'Canadian prospects', description: 'customers in Germany' });
  // The new description was counted at once, and the screen shows that count from the payload.
  await expect(renamed).toContainText(`${germany.latestResult.customerCount.toLocaleString('en-US')} ${germany.latestResult.customerCount === 1 ? 'customer' : 'customers'} · counted`);
  expect(screenQueries.length, 'no screen query read again after a change').toBe(readsBefore);
  await expect(page.getByText('leads in Canada')).toHaveCount(0);
  // A segment added here is counted at once: its customers, or why they cannot be counted.
  await page.getByPlaceholder('Describe your segment...').fill('VIP clients in Germany');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, 'Segment created');
  const vip = main.getByRole('listitem').filter({ hasText: 'VIP clients in Germany' });
  await expect(vip).toContainText('Could not be counted: Part of the description was not understood: "VIP"');
  await page.getByPlaceholder('Describe your segment...').fill('subscribers in Germany');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const subscribers = main.getByRole('listitem').filter({ hasText: 'subscribers in Germany' });
  await expect(subscribers).toContainText(/\d+ customers? · counted/);
  expect(screenQueries.length, 'no screen query read again after adding').toBe(readsBefore);
  await expectAccessible(page, 'segments (live)');
  await shot(page, 'segments-live');

  // Run: one click, the answer on the assistant screen.
  await renamed.getByRole('button', { name: 'Run' }).click();
  await expect(page).toHaveURL(/\/\?query=/);
  await expect(page.getByText(`of ${germany.latestResult.customerCount.toLocaleString('en-US')} customers`)).toBeVisible();
  await expect(page.getByText('customers in Germany').first()).toBeVisible();
  await shot(page, 'segments-run-answer');
});
