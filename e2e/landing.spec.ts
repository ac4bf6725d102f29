import { expect, test } from '@playwright/test'
import { features, hero, site } from '../lib/site'
import { revealOpacities } from './waitlist-page'

const revealOpacity = (el: Element) =>
  Number(getComputedStyle(el.closest('[data-reveal]') ?? el).opacity)

test('shows the spec copy: forms, stats, the six features and the footer year', async ({
  page,
}) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Get VIP Early Access' })).toBeVisible()
  await expect(page.getByPlaceholder('Enter your email address', { exact: true })).toHaveAttribute(
    'type',
    'email',
  )
  await expect(page.getByRole('button', { name: 'Join the Revolution' })).toBeVisible()
  for (const stat of hero.stats)
    await expect(page.getByText(stat.value, { exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: features.title })).toBeAttached()
  for (const card of features.cards) {
    await expect(page.getByRole('heading', { name: card.title, exact: true })).toBeAttached()
  }
  await expect(page.getByPlaceholder('Your email address', { exact: true })).toBeAttached()
  await expect(page.getByRole('button', { name: 'Get VIP Access' })).toBeAttached()
  await expect(page.getByRole('contentinfo')).toContainText(String(site.footerYear))
  await expect(page.getByText('No spam, unsubscribe anytime.').first()).toBeVisible()
})

test('sections below the fold reveal when scrolled to', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 700 })
  await page.goto('/')
  const heading = page.getByRole('heading', { name: features.title })
  const before = await heading.evaluate(revealOpacity)
  expect(before).toBeLessThan(1)
  await heading.scrollIntoViewIfNeeded()
  await expect.poll(() => heading.evaluate(revealOpacity)).toBe(1)
})

test('with reduced motion requested, everything is shown without scrolling', async ({
  browser,
}) => {
  const context = await browser.newContext({ reducedMotion: 'reduce' })
  const page = await context.newPage()
  await page.goto('/')
  const opacities = await revealOpacities(page)
  expect(opacities.length).toBeGreaterThan(0)
  expect(opacities.every((o) => o === 1)).toBe(true)
  await context.close()
})

test('the hero is visible at first paint: nothing above the fold waits for script', async ({
  page,
}) => {
  await page.goto('/')
  const h1 = page.getByRole('heading', { level: 1 })
  expect(await h1.evaluate((el) => el.closest('[data-reveal]'))).toBeNull()
})

test('the first paint waits for no stylesheet, and the page is styled once', async ({
  page,
  request,
}) => {
  // Next writes the stylesheet into the page (experimental.inlineCss in next.config.ts).
  const html = await (await request.get('/')).text()
  const head = html.slice(0, html.indexOf('</head>'))
  expect(head).toMatch(/<style\b[^>]*\bdata-precedence="next"[^>]*>[^<]*\.bg-ink\{/)
  expect(head).not.toMatch(/<link\b[^>]*\brel="stylesheet"/)

  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto('/')
  // Revealing the footer takes a hydrated page: React has seen the stylesheet by then.
  await page.locator('footer').scrollIntoViewIfNeeded()
  await expect(page.locator('footer [data-reveal="shown"]')).toBeVisible()
  // React adopted the inlined rules rather than fetching the file as well.
  await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0)
  await expect(page.locator('style[data-precedence="next"]')).toHaveCount(1)
  expect(errors).toEqual([])
})
