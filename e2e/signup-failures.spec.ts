import { expect, test, type Page, type Route } from '@playwright/test'
import { ACTION_DEADLINE_MS } from '../components/waitlist/action-deadline'
import { hero, notices, statusText } from '../lib/site'
import {
  forms,
  interceptSignups,
  otherThan,
  toast,
  toastsShown,
  toaster,
  uniqueEmail,
  waitlistForm,
  type FormName,
} from './waitlist-page'

// Every way a signup can fail between page and server (network, proxy, non-answer, endless post,
// gone deployment) ends in that form's failure notice, address kept, logged; the next one succeeds.

/** What Next's router rejects an action with when the answer is not an action's. */
const UNEXPECTED_RESPONSE = 'An unexpected response was received from the server.'
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** What the browser logged as errors, and the errors nothing caught. */
function watchConsole(page: Page) {
  const errors: string[] = []
  const uncaught: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => uncaught.push(error.message))
  return { errors, uncaught }
}

/** The landing page with an address typed into the other form, to check it is left alone. */
async function openLandingPage(page: Page, name: FormName) {
  await page.goto('/')
  const untouched = uniqueEmail('untouched')
  await waitlistForm(page, otherThan(name)).email.fill(untouched)
  return { form: waitlistForm(page, name), untouched }
}

async function expectFailureShown(page: Page, name: FormName, address: string, untouched: string) {
  const form = waitlistForm(page, name)
  await expect(form.status).toHaveText(statusText(notices.error))
  await expect(toast(page, notices.error.title)).toHaveCount(1)
  await expect(toast(page, notices.error.title)).toContainText(notices.error.description)
  await expect(form.email).toHaveValue(address)
  await expect(form.button).toHaveText(form.copy.submitLabel)
  await expect(form.button).toBeEnabled()

  const other = waitlistForm(page, otherThan(name))
  await expect(other.email).toHaveValue(untouched)
  await expect(other.status).toHaveText('')
  await expect(other.button).toHaveText(other.copy.submitLabel)
  await expect(page.getByRole('heading', { level: 1 })).toContainText(hero.headline)
}

function expectLogged(logs: ReturnType<typeof watchConsole>, name: FormName, cause: RegExp) {
  const line = logs.errors.find((text) => text.includes(`The ${name} form's signup failed`))
  expect(line, logs.errors.join('\n')).toBeDefined()
  expect(line).toMatch(cause)
  expect(logs.uncaught).toEqual([])
}

async function expectJoinsNow(page: Page, name: FormName) {
  const form = waitlistForm(page, name)
  await form.button.click()
  await expect(form.status).toHaveText(statusText(notices.joined))
  await expect(form.email).toHaveValue('')
}

/** Each way a post can come back wrong, and the cause the page logs for it. */
const wrongAnswers: { how: string; answer: (route: Route) => Promise<void>; cause: RegExp }[] = [
  ...(['internetdisconnected', 'connectionreset'] as const).map((reason) => ({
    how: `fails with ${reason}`,
    answer: (route: Route) => route.abort(reason),
    cause: /Failed to fetch/,
  })),
  // Next's own words for an answer that is not an action's: its text if plain, else generic.
  ...[
    { status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' },
    { status: 413, contentType: 'text/plain', body: 'Body exceeded 16kb limit.' },
    { status: 429, contentType: 'text/plain', body: 'Too Many Requests' },
    { status: 503, contentType: 'text/html', body: '<h1>Service Unavailable</h1>' },
  ].map((answer) => ({
    how: `is answered ${answer.status} ${answer.contentType} by a proxy or the platform`,
    answer: (route: Route) => route.fulfill(answer),
    cause: new RegExp(
      escapeRegExp(answer.contentType === 'text/plain' ? answer.body : UNEXPECTED_RESPONSE),
    ),
  })),
  {
    how: 'is answered with what cannot be read',
    answer: (route) =>
      route.fulfill({ status: 200, contentType: 'text/x-component', body: 'not an answer' }),
    // React's "Connection closed.": the answer ended before it made sense.
    cause: /Minified React error #412/,
  },
]

for (const name of forms) {
  test.describe(`the ${name} form`, () => {
    for (const { how, answer, cause } of wrongAnswers) {
      test(`keeps the page when the post ${how}, and the next one goes through`, async ({
        page,
      }) => {
        const logs = watchConsole(page)
        const { form, untouched } = await openLandingPage(page, name)
        await interceptSignups(page, answer)
        const address = uniqueEmail('failed')
        await form.join(address)
        await expectFailureShown(page, name, address, untouched)
        expectLogged(logs, name, cause)
        await expectJoinsNow(page, name)
      })
    }

    test('gives up on a post that never ends, and both forms work again', async ({ page }) => {
      await page.clock.install()
      const logs = watchConsole(page)
      const { form, untouched } = await openLandingPage(page, name)
      let hold = () => {}
      const held = new Promise<void>((resolve) => (hold = resolve))
      await interceptSignups(page, async (route) => {
        await held
        await route.abort().catch(() => {})
      })
      const address = uniqueEmail('held')
      // Time stands still from the press to the deadline however busy the machine; only the
      // fast-forwards move it. Paused a minute ahead so no delay makes it the past; no post is out.
      await page.clock.pauseAt(Date.now() + 60_000)
      await form.join(address)
      await expect(form.button).toHaveText(form.copy.busyLabel)
      await page.clock.fastForward(ACTION_DEADLINE_MS - 1000)
      await expect(form.button).toHaveText(form.copy.busyLabel)

      await page.clock.fastForward(1000)
      await page.clock.resume()
      await expectFailureShown(page, name, address, untouched)
      expectLogged(logs, name, new RegExp(`within ${ACTION_DEADLINE_MS / 1000} s`))

      // The post still hangs: the router's one queue of actions must no longer wait for it.
      const other = waitlistForm(page, otherThan(name))
      await other.button.click()
      await expect(other.status).toHaveText(statusText(notices.joined))
      await expectJoinsNow(page, name)
      hold()
    })

    test('after a redeploy, shows the failure, then sends the retry from a fresh page', async ({
      page,
    }) => {
      const logs = watchConsole(page)
      const { form, untouched } = await openLandingPage(page, name)
      // A new build names its actions anew: the id this page holds is unknown to the server.
      await interceptSignups(page, (route) => {
        const headers = route.request().headers()
        const known = headers['next-action'] ?? ''
        return route.continue({
          headers: { ...headers, 'next-action': `${known.slice(0, 2)}${'f'.repeat(40)}` },
        })
      })
      const address = uniqueEmail('redeployed')
      await form.join(address)
      await expectFailureShown(page, name, address, untouched)
      expectLogged(logs, name, /was not found on the server/)

      const reload = page.waitForEvent('framenavigated')
      await form.button.click()
      await reload
      await expect(form.status).toHaveText(statusText(notices.joined))
      await expect(form.email).toHaveValue('')
      await expect(form.email).toBeFocused()
      await expect(page).toHaveURL('/')
    })
  })
}

test('the status line announces each outcome, once; the toasts only show it', async ({ page }) => {
  await page.goto('/')
  const form = waitlistForm(page, 'hero')
  const shown = await toastsShown(page, notices.joined.title)

  // Two equal outcomes in a row: the second is a new node in the region, so it is read out again.
  await form.join(uniqueEmail())
  await expect(form.status).toHaveText(statusText(notices.joined))
  await expect(toaster(page)).toHaveAttribute('aria-live', 'off')
  const first = await form.status.locator('span').elementHandle()
  await form.join(uniqueEmail())
  await expect.poll(shown).toBe(2)
  expect(await first?.evaluate((node) => node.isConnected)).toBe(false)
  await expect(toast(page, notices.joined.title).first()).not.toHaveAttribute('role')

  // A failure renders the form anew: its region must be in the page before its words are.
  await page.evaluate(() => {
    const atInsertion: (string | null)[] = []
    Object.assign(window, { statusesAtInsertion: atInsertion })
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof Element)
            for (const status of node.querySelectorAll('[role="status"]'))
              atInsertion.push(status.textContent)
    }).observe(document.body, { childList: true, subtree: true })
  })
  await interceptSignups(page, (route) => route.abort('internetdisconnected'))
  await form.join(uniqueEmail('announced'))
  await expect(form.status).toHaveText(statusText(notices.error))
  expect(await page.evaluate(() => Reflect.get(window, 'statusesAtInsertion'))).toEqual([''])
})
