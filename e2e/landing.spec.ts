import { expect, test, type Locator } from '@playwright/test'
import { REVEAL_VISIBILITY_THRESHOLD, features, hero, notFound, site } from '../lib/site'
import { holdScripts, opacityAsDrawn, revealOpacities, waitlistForm } from './waitlist-page'

test('shows the copy: forms, stats, the six features and the footer year', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `${hero.headline} ${hero.headlineAccent}`,
  )
  await expect(page.getByRole('heading', { name: 'Get VIP Early Access' })).toBeVisible()
  await expect(page.getByPlaceholder('Enter your email address', { exact: true })).toHaveAttribute(
    'type',
    'email',
  )
  await expect(page.getByRole('button', { name: 'Join the Revolution', exact: true })).toBeVisible()
  for (const stat of hero.stats)
    await expect(page.getByText(stat.value, { exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: features.title })).toBeAttached()
  for (const card of features.cards)
    await expect(page.getByRole('heading', { name: card.title, exact: true })).toBeAttached()
  await expect(page.getByPlaceholder('Your email address', { exact: true })).toBeAttached()
  await expect(page.getByRole('button', { name: 'Get VIP Access', exact: true })).toBeAttached()
  await expect(page.getByRole('contentinfo')).toContainText(String(site.footerYear))
})

test('on a 375 x 812 phone the hero form, its field and its button, is on the first screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 812 })
  await page.goto('/')
  await expect(page.getByPlaceholder('Enter your email address', { exact: true })).toBeInViewport({
    ratio: 1,
  })
  await expect(
    page.getByRole('button', { name: 'Join the Revolution', exact: true }),
  ).toBeInViewport({ ratio: 1 })
})

/** Resolves once `section` is next revealed, with the transitions its reveal started. */
function nextReveal(section: Locator): Promise<string[]> {
  return section.evaluate(
    (el) =>
      new Promise<string[]>((resolve) =>
        new MutationObserver((_, observer) => {
          if (el.getAttribute('data-reveal') !== 'shown') return
          observer.disconnect()
          resolve(el.getAnimations().map((a) => (a as CSSTransition).transitionProperty))
        }).observe(el, { attributes: true }),
      ),
  )
}

// Scrolls `share` of `section` over the bottom edge and resolves after the page's observers hear of
// it: observers report in the order they were made, so theirs before the one made here.
function scrollToShow(section: Locator, share: number): Promise<void> {
  return section.evaluate((el, share) => {
    const { top, height } = el.getBoundingClientRect()
    window.scrollBy({ top: top - window.innerHeight + share * height, behavior: 'instant' })
    return new Promise<void>((told) => {
      const observer = new IntersectionObserver(() => {
        observer.disconnect()
        told()
      })
      observer.observe(el)
    })
  }, share)
}

test('a section below the fold when the scripts run fades in once a tenth of it is in view, the page refusing nothing under its policy', async ({
  page,
}) => {
  const refused: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
  })
  await page.setViewportSize({ width: 390, height: 700 })
  await page.goto('/')
  expect(
    await page.getByRole('heading', { level: 1 }).evaluate((el) => el.closest('[data-reveal]')),
  ).toBeNull()
  const heading = page.getByRole('heading', { name: features.title })
  const section = page.locator('[data-reveal]').filter({ has: heading })
  await expect(section).toHaveAttribute('data-reveal', 'hidden')
  expect(await heading.evaluate(opacityAsDrawn)).toBe(0)

  const revealed = nextReveal(section)
  await scrollToShow(section, REVEAL_VISIBILITY_THRESHOLD / 2)
  await expect(section).toHaveAttribute('data-reveal', 'hidden')
  await scrollToShow(section, REVEAL_VISIBILITY_THRESHOLD * 1.5)
  expect(await revealed).toEqual(expect.arrayContaining(['opacity', 'transform']))
  await expect.poll(() => heading.evaluate(opacityAsDrawn)).toBe(1)
  expect(refused).toEqual([])
})

test('with the scripts held back, every section is there when scrolled to, and stays when they run', async ({
  page,
}) => {
  await page.setViewportSize({ width: 412, height: 823 })
  const scripts = await holdScripts(page)
  await page.goto('/', { waitUntil: 'domcontentloaded' })
  const cta = waitlistForm(page, 'cta')
  const footer = page.getByRole('contentinfo').getByText(String(site.footerYear))
  const seen = [
    page.getByRole('heading', { name: features.title }),
    page.getByRole('heading', { name: features.cards.at(-1)!.title }),
    cta.email,
    cta.button,
    footer,
  ]
  for (const text of seen) {
    await text.scrollIntoViewIfNeeded()
    expect(await text.evaluate(opacityAsDrawn)).toBe(1)
  }

  // A visitor reading the features when the scripts arrive: not one frame of them fades.
  const onScreen = page.getByRole('heading', { name: features.title })
  await onScreen.scrollIntoViewIfNeeded()
  const lowest = onScreen.evaluate(
    (el) =>
      new Promise<number>((resolve) => {
        let min = 1
        const sample = () => {
          for (let node: Element | null = el; node; node = node.parentElement)
            min = Math.min(min, Number(getComputedStyle(node).opacity))
          if (document.querySelector('footer [data-reveal="hidden"]')) resolve(min)
          else requestAnimationFrame(sample)
        }
        sample()
      }),
  )
  scripts.release()
  expect(await lowest).toBe(1)
  expect(await onScreen.evaluate(opacityAsDrawn)).toBe(1)

  // What was below the fold then is revealed as it is scrolled to.
  await footer.scrollIntoViewIfNeeded()
  await expect.poll(() => footer.evaluate(opacityAsDrawn)).toBe(1)
})

test('with reduced motion requested, everything is shown without scrolling', async ({
  browser,
}) => {
  const context = await browser.newContext({ reducedMotion: 'reduce' })
  const page = await context.newPage()
  await page.goto('/')
  // The scripts have run: the footer, below the fold, is marked hidden, and shown all the same.
  await expect(page.locator('footer [data-reveal]')).toHaveAttribute('data-reveal', 'hidden')
  const opacities = await revealOpacities(page)
  expect(opacities.length).toBeGreaterThan(0)
  expect(opacities.every((o) => o === 1)).toBe(true)
  await context.close()
})

test('an unknown route shows the not-found page, logs the 404, and links home', async ({
  page,
}) => {
  const logged: string[] = []
  page.on('console', (message) => logged.push(message.text()))
  const response = await page.goto('/no/such/page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: notFound.code })).toBeVisible()
  await expect(page.getByText(notFound.message)).toBeVisible()
  await expect
    .poll(() => logged)
    .toContain('404 Error: User attempted to access non-existent route: /no/such/page')
  await page.getByRole('link', { name: notFound.homeLink }).click()
  await expect(page).toHaveURL('/')
})

for (const path of ['/', '/no/such/page']) {
  test(`${path} carries the security headers`, async ({ request }) => {
    const headers = (await request.get(path)).headers()
    const csp = Object.fromEntries(
      (headers['content-security-policy'] ?? '').split('; ').map((d) => [d.split(' ')[0], d]),
    )
    expect(csp['default-src']).toBe("default-src 'self'")
    expect(csp['script-src']).toBe("script-src 'self' 'unsafe-inline'")
    expect(csp['connect-src']).toBe("connect-src 'self'")
    for (const directive of [
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ]) {
      expect(Object.values(csp)).toContain(directive)
    }
    expect(csp['style-src'] && csp['img-src'] && csp['font-src']).toBeTruthy()
    expect(
      Number(/max-age=(\d+)/.exec(headers['strict-transport-security'] ?? '')?.[1]),
    ).toBeGreaterThanOrEqual(31_536_000)
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['x-frame-options']).toBe('DENY')
    expect(headers['x-powered-by']).toBeUndefined()
  })

  test(`${path} carries its stylesheet in the page, and keeps it through hydration without a request`, async ({
    page,
    request,
  }) => {
    const html = await (await request.get(path)).text()
    const css = /<style[^>]*data-href="[^"]+\.css"[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? ''
    expect(css.length).toBeGreaterThan(10_000)

    const stylesheets: string[] = []
    page.on('request', (sent) => {
      if (sent.resourceType() === 'stylesheet') stylesheets.push(sent.url())
    })
    await page.goto(path)
    // Hydrated: React has claimed the heading.
    await page.waitForFunction(() =>
      Object.keys(document.querySelector('h1') ?? {}).some((key) => key.startsWith('__react')),
    )
    const kept = await page.evaluate(() =>
      [...document.querySelectorAll('style[data-href]')].map((style) => style.textContent),
    )
    expect(kept).toEqual([css])
    expect(stylesheets).toEqual([])
  })
}
