import { randomUUID } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { everyForm, waitlistForms, type WaitlistFormName } from '../lib/site'

export type FormName = WaitlistFormName

/** Every form on the page, one per record in lib/site.ts. */
export const forms = Object.keys(waitlistForms) as FormName[]

/** A form other than `name`, to check that it is left alone. */
export const otherThan = (name: FormName): FormName => forms.find((form) => form !== name)!

/** A fresh address per test, so tests never meet each other's signups. */
export function uniqueEmail(prefix = 'visitor'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`
}

/** One waitlist form, found the way a visitor finds it: by its field's placeholder. */
export function waitlistForm(page: Page, name: FormName) {
  const copy = waitlistForms[name]
  const form = page
    .locator('form')
    .filter({ has: page.getByPlaceholder(copy.placeholder, { exact: true }) })
  return {
    copy,
    form,
    email: form.getByRole('textbox', { name: everyForm.emailLabel }),
    button: form.getByRole('button'),
    status: form.getByRole('status'),
    async join(address: string) {
      await this.email.fill(address)
      await this.button.click()
    },
  }
}

export function toast(page: Page, title: string): Locator {
  return page.locator('[data-sonner-toast]').filter({ hasText: title })
}

/** Counts the toasts titled `title` shown from now on, even those sonner has dismissed since. */
export async function toastsShown(page: Page, title: string): Promise<() => Promise<number>> {
  type Counted = Window & { toastsShown?: Set<Element> }
  await page.evaluate((title) => {
    const seen = new Set<Element>()
    ;(window as Counted).toastsShown = seen
    new MutationObserver(() => {
      for (const shown of document.querySelectorAll('[data-sonner-toast]'))
        if (shown.textContent?.includes(title)) seen.add(shown)
    }).observe(document.body, { childList: true, subtree: true, characterData: true })
  }, title)
  return () => page.evaluate(() => (window as Counted).toastsShown!.size)
}

/** The opacity of every scroll-reveal wrapper on the page, as the browser computes it now. */
export function revealOpacities(page: Page): Promise<number[]> {
  return page
    .locator('[data-reveal]')
    .evaluateAll((els) => els.map((el) => Number(getComputedStyle(el).opacity)))
}

/** Opacity as drawn, own times every ancestor's: Playwright's `toBeVisible` passes at opacity 0. */
export function opacityAsDrawn(el: Element): number {
  let opacity = 1
  for (let node: Element | null = el; node; node = node.parentElement)
    opacity *= Number(getComputedStyle(node).opacity)
  return opacity
}

/** Every script chunk of the build, as a `page.route` pattern. */
export const scriptChunks = '**/_next/static/chunks/*.js'

/** Holds back the scripts that `which` picks (all, by default) until `release` is called. */
export async function holdScripts(page: Page, which?: (body: string) => boolean) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let requested = false
  await page.route(scriptChunks, async (route) => {
    if (!which) return released.then(() => route.continue())
    const response = await route.fetch()
    const body = await response.text()
    if (which(body)) {
      requested = true
      await released
    }
    await route.fulfill({ response, body })
  })
  return { release, requested: () => requested }
}

/** Hands the page's next `count` signup posts to `handle`; every later one goes through. */
export async function interceptSignups(
  page: Page,
  handle: (route: import('@playwright/test').Route) => Promise<void>,
  count = 1,
) {
  let left = count
  await page.route('**/*', async (route) => {
    if (route.request().method() !== 'POST' || left === 0) return route.fallback()
    left -= 1
    await handle(route)
  })
}

/** sonner's region for its toasts, there from the moment its Toaster mounts. */
export const toaster = (page: Page) => page.getByRole('region', { name: /^Notifications/ })

/** Every POST the page sends from now on, by URL. */
export function postsSent(page: Page): string[] {
  const sent: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST') sent.push(request.url())
  })
  return sent
}

/** Holds every signup post until `release` is called, so a busy state lasts as long as needed. */
export async function holdSignups(page: Page): Promise<() => void> {
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  await interceptSignups(page, (route) => released.then(() => route.fallback()), Infinity)
  return release
}
