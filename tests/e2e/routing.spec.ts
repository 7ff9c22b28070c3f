// The route table of spec §2, signed out and signed in, and the error boundaries.
import { expect, registerUser, shot, test } from './fixtures';

test.describe('signed out', () => {
  for (const path of ['/', '/segments', '/smart-segments', '/admin', '/profile', '/no-such-page']) {
    test(`${path} goes to /auth`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    });
  }

  for (const path of ['/login', '/register']) {
    test(`${path} is the authentication screen`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { name: 'CRM Assistant' })).toBeVisible();
      await expect(page.getByText('AI Generated Audiences and Natural Language Customer Segmentation')).toBeVisible();
    });
  }
});

test.describe('signed in', () => {
  test('auth paths go to /, unknown paths show the 404 page', async ({ page }) => {
    await registerUser(page.request);
    for (const path of ['/auth', '/login', '/register']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$|\/\?query=/);
      await expect(page.getByText('Natural Language Customer Segmentation')).toBeVisible();
    }
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await shot(page, 'not-found');
  });

  test('a screen that fails to load shows the error screen with Refresh Page', async ({ page, allowConsole }) => {
    allowConsole(/SegmentsPage|Failed to load resource|Failed to fetch dynamically imported module|React Router caught/);
    await registerUser(page.request);
    await page.goto('/');
    await expect(page.getByText('Customer Results')).toBeVisible();
    await page.route(/\/assets\/SegmentsPage-.*\.js$/, (route) => route.abort());
    await page.goto('/segments');
    await expect(page.getByText('Something went wrong')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Refresh Page' })).toBeVisible();
  });
});
