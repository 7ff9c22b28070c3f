// Every screen at the three laptop widths of issue 25 (1024×700, 1280×800, 1680×900): axe finds no
// serious or critical problem, nothing overflows sideways, and a screenshot of each is kept in
// tests/e2e/artifacts (screen-<name>-<width>.png).
import { adminApi, connectCrm, expect, expectAccessible, generateSegments, gql, registerUser, shot, test } from './fixtures';

const SIZES = [
  [1024, 700],
  [1280, 800],
  [1680, 900],
] as const;

for (const [width, height] of SIZES) {
  test(`every screen at ${width}×${height}: accessible, no sideways overflow, screenshot`, async ({ page, playwright, baseURL }) => {
    await page.setViewportSize({ width, height });
    const check = async (name: string) => {
      await expectAccessible(page, `${name} at ${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} overflows at ${width}`).toBeLessThanOrEqual(width);
      await shot(page, `screen-${name}-${width}`);
    };
    await page.goto('/auth');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await check('auth');

    const user = await registerUser(page.request);
    await connectCrm(page.request);
    await gql(page.request, 'mutation { runQuery(input: { naturalLanguage: "customers in Europe" }) { resultCount } }');
    await page.goto('/');
    await expect(page.getByRole('table', { name: 'Customers' })).toBeVisible();
    await check('assistant');
    await page.goto('/segments');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await check('segments');
    await page.goto('/smart-segments');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await check('smart-segments');
    await page.goto('/profile');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await check('profile');

    const admin = await adminApi(playwright, baseURL!);
    // An unlocked Smart Segment's customers (/smart-segments/:id).
    await generateSegments(admin, user.id);
    const { dailySegments } = await gql(page.request, '{ dailySegments(first: 100) { edges { node { id segmentId customerCount preset { category { isLocked } } } } } }');
    const free = dailySegments.edges.map((e: { node: { id: string; segmentId: string; customerCount: number; preset: { category: { isLocked: boolean } } } }) => e.node).find((d: { customerCount: number; preset: { category: { isLocked: boolean } } }) => !d.preset.category.isLocked && d.customerCount > 0);
    await gql(page.request, 'mutation($id: ID!) { unlockSmartSegment(input: { id: $id }) { dailySegment { isUnlocked } } }', { id: free.id });
    await page.goto(`/smart-segments/${free.segmentId}`);
    await expect(page.getByRole('table', { name: 'Customers' })).toBeVisible();
    await check('smart-segment-customers');
    await page.context().clearCookies();
    await page.context().addCookies((await admin.storageState()).cookies);
    await admin.dispose();
    await page.goto('/admin');
    // The administrator has no CRM connected: the CRM Integration dialog opens first; close it.
    const crm = page.getByRole('dialog', { name: 'CRM Integration' });
    await expect(crm).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(crm).toBeHidden();
    await expect(page.getByRole('tab', { name: 'Users' })).toBeVisible();
    await check('admin-users');
  });
}
