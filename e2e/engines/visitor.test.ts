import { mkdir, rm } from 'node:fs/promises'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { ACTION_DEADLINE_MS } from '../../components/waitlist/action-deadline'
import {
  features,
  hero,
  notFound,
  notices,
  site as copy,
  statusText,
  waitlistForms,
  type Notice,
} from '../../lib/site'
import { startSuiteServers } from '../servers'
import { forms, opacityAsDrawn, uniqueEmail, type FormName } from '../waitlist-page'
import { engines, missing, type Visitor } from './engines'

// The spec's promises in WebKit and Firefox, on the Playwright suite's servers (e2e/servers.ts).
// Without an engine the tests skip, saying how to install it; on CI, installing both, they fail.
const screens = [
  { width: 375, height: 812 },
  { width: 1440, height: 900 },
]

const unavailable = new Map(engines.map((engine) => [engine, missing(engine)]))
let site = ''
let stopServers = () => {}
const failures = 'test-results/engines'
beforeAll(async () => {
  await rm(failures, { recursive: true, force: true })
  if ([...unavailable.values()].every(Boolean)) return
  // Beside the Playwright suite's two ports, so both can run at once.
  const started = await startSuiteServers(Number(process.env.E2E_PORT_BASE ?? 3100) + 2)
  site = started.site
  stopServers = started.stop
})
afterAll(() => stopServers())

/** Retries `read` until its answer passes: a post may take the page's own deadline to be answered. */
const poll = <T>(read: () => Promise<T>) =>
  expect.poll(read, { timeout: ACTION_DEADLINE_MS, interval: 100 })

/** A form, found as a visitor finds it: by its field's placeholder. */
const formOf = (name: FormName) =>
  `form:has(input[placeholder="${waitlistForms[name].placeholder}"])`

/** Runs in the page: what the form shows now, and the titles of the toasts on screen. */
function formNow(form: Element) {
  return {
    value: form.querySelector<HTMLInputElement>('input[type="email"]')!.value,
    button: form.querySelector('button')!.textContent,
    status: form.querySelector('[role="status"]')!.textContent,
    toasts: [...document.querySelectorAll('[data-sonner-toast] [data-title]')].map(
      (title) => title.textContent,
    ),
  }
}

/** Runs in the page: from now on, keeps each label the form's button shows, and whether disabled. */
function keepButtonLabels(form: Element) {
  const labels: string[] = []
  const note = () => {
    const button = form.querySelector('button')!
    const busy = button.getAttribute('aria-disabled') === 'true'
    const label = `${button.textContent}${busy ? ' (disabled)' : ''}`
    if (labels.at(-1) !== label) labels.push(label)
  }
  note()
  new MutationObserver(note).observe(form, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
  })
  Object.assign(window, { buttonLabels: labels })
}

const buttonLabels = (visitor: Visitor) =>
  visitor.evaluate('body', () => Reflect.get(window, 'buttonLabels') as string[])

for (const engine of engines) {
  const why = unavailable.get(engine)
  if (why && process.env.CI)
    throw new Error(`${engine.name} is needed on CI, where .ci/run installs it: ${why}`)
  if (why) console.warn(`Skipping the tests in ${engine.name}: ${why}`)

  describe.skipIf(why)(engine.name, () => {
    let visitor: Visitor
    beforeAll(async () => {
      visitor = await engine.launch()
    })
    afterAll(() => visitor?.close())
    // What the page looked like, kept where CI keeps the Playwright suite's traces.
    beforeEach(({ task, onTestFailed }) =>
      onTestFailed(async () => {
        await mkdir(failures, { recursive: true })
        await visitor.screenshot(`${failures}/${task.fullName.replace(/\W+/g, '-')}.png`)
      }),
    )

    /** The landing page, its scripts run: the footer, below the fold, waits to be revealed. */
    async function openLandingPage() {
      await visitor.open(`${site}/`)
      await poll(() =>
        visitor.evaluate('body', () => ({
          heading: document.querySelector('h1')?.textContent,
          footer: document.querySelector('footer [data-reveal]')?.getAttribute('data-reveal'),
        })),
      ).toEqual({ heading: `${hero.headline} ${hero.headlineAccent}`, footer: 'hidden' })
    }

    async function join(name: FormName, address: string) {
      // Scrolled at once (the page scrolls smoothly), and used once it has moved in, as a person does.
      await visitor.evaluate(formOf(name), (form) =>
        form.scrollIntoView({ block: 'center', behavior: 'instant' }),
      )
      await poll(() => visitor.evaluate(formOf(name), opacityAsDrawn)).toBe(1)
      await visitor.type(`${formOf(name)} input[type="email"]`, address)
      await visitor.click(`${formOf(name)} button`)
    }

    async function expectNotice(name: FormName, notice: Notice, value: string) {
      await poll(() => visitor.evaluate(formOf(name), formNow)).toMatchObject({
        status: statusText(notice),
        value,
        button: waitlistForms[name].submitLabel,
        toasts: expect.arrayContaining([notice.title]),
      })
    }

    for (const screen of screens)
      describe(`${screen.width} px wide`, () => {
        beforeAll(() => visitor.resize(screen.width, screen.height))

        test('shows all four sections, those below the fold drawn once scrolled to', async () => {
          await openLandingPage()
          expect(await visitor.evaluate('h1', opacityAsDrawn)).toBe(1)
          expect(await visitor.evaluate('footer p:last-child', opacityAsDrawn)).toBe(0)
          const below = [
            { selector: '#features-heading', text: features.title },
            { selector: `${formOf('cta')} button`, text: waitlistForms.cta.submitLabel },
            { selector: 'footer p:last-child', text: String(copy.footerYear) },
          ]
          for (const { selector, text } of below) {
            expect(await visitor.evaluate(selector, (el) => el.textContent)).toContain(text)
            await visitor.evaluate(selector, (el) =>
              el.scrollIntoView({ block: 'center', behavior: 'instant' }),
            )
            await poll(() => visitor.evaluate(selector, opacityAsDrawn)).toBe(1)
          }
        })

        for (const name of forms) {
          const { busyLabel } = waitlistForms[name]

          test(`the ${name} form: busy while it posts, then welcomes and clears the field; the address in capitals is already on the list; a failing data service says so and keeps the address`, async () => {
            await openLandingPage()
            await visitor.evaluate(formOf(name), keepButtonLabels)
            const address = uniqueEmail()
            await join(name, address)
            await expectNotice(name, notices.joined, '')
            expect(await buttonLabels(visitor)).toContain(`${busyLabel} (disabled)`)

            await join(name, address.toUpperCase())
            await expectNotice(name, notices.already_joined, '')

            const failing = uniqueEmail('fail-502')
            await join(name, failing)
            await expectNotice(name, notices.error, failing)
          })
        }

        test("the browser's own validation stops an empty and a malformed address", async () => {
          await openLandingPage()
          const field = `${formOf('hero')} input[type="email"]`
          await visitor.evaluate(formOf('hero'), keepButtonLabels)
          await visitor.click(`${formOf('hero')} button`)
          expect(
            await visitor.evaluate(field, (el) => (el as HTMLInputElement).validity.valueMissing),
          ).toBe(true)
          const [local, domain] = uniqueEmail().split('@')
          await join('hero', local!)
          expect(
            await visitor.evaluate(field, (el) => (el as HTMLInputElement).validity.typeMismatch),
          ).toBe(true)
          // Made whole, the address goes: by its answer, a post sent before it would have shown.
          await join('hero', `@${domain}`)
          await expectNotice('hero', notices.joined, '')
          const busy = (await buttonLabels(visitor)).filter((label) =>
            label.startsWith(waitlistForms.hero.busyLabel),
          )
          expect(busy).toHaveLength(1)
        })

        test('an unknown path shows the not-found page, whose link goes home', async () => {
          await visitor.open(`${site}/no/such/page`)
          expect(await visitor.evaluate('h1', (h1) => h1.textContent)).toBe(notFound.code)
          expect(await visitor.evaluate('main', (main) => main.textContent)).toContain(
            notFound.message,
          )
          expect(await visitor.evaluate('main a', (link) => link.textContent)).toBe(
            notFound.homeLink,
          )
          await visitor.click('main a')
          await poll(() =>
            visitor.evaluate('h1', (h1) => [location.pathname, h1.textContent]),
          ).toEqual(['/', `${hero.headline} ${hero.headlineAccent}`])
        })
      })
  })
}
