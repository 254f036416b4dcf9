import type { Browser } from 'playwright-core';
import type { LocalStack } from '../../local/stack';
import { launchBrowser, screenshot } from '../helpers/browser';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
let browser: Browser;
beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack({ web: true }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

test('the prerendered landing page opens in Chromium, served by the local stack', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const response = await page.goto(stack.urls.web);
  expect(response?.status()).toBe(200);
  await expect(page.locator('h1').textContent()).resolves.toBeTruthy();
  expect(await page.getAttribute('html', 'lang')).toBe('en');
  await screenshot(page, 'smoke-landing');
  expect(errors).toEqual([]);
  await page.close();
});

test('the client-rendered app shell hydrates', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const response = await page.goto(`${stack.urls.web}/app/auth/login`);
  expect(response?.status()).toBe(200);
  await page.waitForFunction(() => (window as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined);
  await expect(page.locator('h1').textContent()).resolves.toBeTruthy();
  expect(errors).toEqual([]);
  await page.close();
});
