import { expect, test } from '@playwright/test'
import { seo } from '../lib/site'

test('an unknown path answers 404 with a way home, and logs the path', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })

  const response = await page.goto('/no/such/page')
  expect(response?.status()).toBe(404)
  await expect(page).toHaveTitle('Page not found · Collably')
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible()
  await expect(page.getByText('Oops! Page not found')).toBeVisible()
  // The page's own line, logged once it has hydrated; the browser's "404 (Not Found)" comes first.
  await expect
    .poll(() => errors)
    .toContainEqual('404 Error: User attempted to access non-existent route: /no/such/page')

  await page.getByRole('link', { name: 'Return to Home' }).click()
  await expect(page).toHaveURL('/')
  await expect(page).toHaveTitle(seo.title)
  await expect(page.getByRole('heading', { name: 'Get VIP Early Access' })).toBeVisible()
})
