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
  await expect.poll(() => errors.join('\n')).toContain('404')
  expect(errors.join('\n')).toContain('/no/such/page')

  await page.getByRole('link', { name: 'Return to Home' }).click()
  await expect(page).toHaveURL('/')
  await expect(page).toHaveTitle(seo.title)
  await expect(page.getByRole('heading', { name: 'Get VIP Early Access' })).toBeVisible()
})
