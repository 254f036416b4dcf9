import { browserTestsOnStack, recordErrors, screenshot } from '../helpers/browser';

const e2e = browserTestsOnStack();

test('the prerendered landing page opens in Chromium, served by the local stack', async () => {
  const page = await e2e.browser.newPage();
  const errors = recordErrors(page);
  const response = await page.goto(e2e.stack.urls.web);
  expect(response?.status()).toBe(200);
  await expect(page.locator('h1').textContent()).resolves.toBeTruthy();
  expect(await page.getAttribute('html', 'lang')).toBe('en');
  await screenshot(page, 'smoke-landing');
  expect(errors).toEqual([]);
  await page.close();
});

test('the client-rendered app shell hydrates', async () => {
  const page = await e2e.browser.newPage();
  const errors = recordErrors(page);
  const response = await page.goto(`${e2e.stack.urls.web}/app/auth/login`);
  expect(response?.status()).toBe(200);
  await page.waitForFunction(() => (window as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined);
  await expect(page.locator('h1').textContent()).resolves.toBeTruthy();
  expect(errors).toEqual([]);
  await page.close();
});
