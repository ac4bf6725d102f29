// WebKit and Firefox as Debian installs them. Playwright drives only its own builds, so WebKitGTK
// is driven over W3C WebDriver (selenium-webdriver) and Firefox ESR, lacking geckodriver, over
// WebDriver BiDi (puppeteer-core).
import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import puppeteer from 'puppeteer-core'
import { Builder, By, type WebDriver } from 'selenium-webdriver'
import { answering, unusedPort } from '../../tests/support/ports'
import { which } from '../../tests/support/processes'

/** A browser window on the site, as far as the tests go. */
export type Visitor = {
  open(url: string): Promise<void>
  /** The size of the page's viewport, in CSS pixels. */
  resize(width: number, height: number): Promise<void>
  /** Runs `script` in the page on the first element `selector` matches; a promise it returns is awaited. */
  evaluate<A extends unknown[], R>(
    selector: string,
    script: (element: Element, ...args: A) => R,
    ...args: A
  ): Promise<Awaited<R>>
  /** Types into the field as a keyboard does. */
  type(selector: string, text: string): Promise<void>
  /** Clicks the element, scrolled into view, as a mouse does. */
  click(selector: string): Promise<void>
  screenshot(file: string): Promise<void>
  close(): Promise<void>
}

export type Engine = {
  name: string
  /** The programs it needs, and the Debian packages that install them. */
  programs: string[]
  packages: string
  launch(): Promise<Visitor>
}

/** What keeps `engine` from running here, and how to install it; undefined when nothing does. */
export function missing({ programs, packages }: Engine): string | undefined {
  const absent = programs.filter((program) => !which(program))
  if (absent.length === 0) return undefined
  return `${absent.join(' and ')} not found; on Debian: \`sudo apt-get install ${packages}\``
}

const webkit: Engine = {
  name: 'WebKit',
  // xvfb-run needs xauth, which Debian's xvfb only recommends.
  programs: ['WebKitWebDriver', 'xvfb-run', 'xauth'],
  packages: 'webkit2gtk-driver xvfb xauth',
  async launch() {
    const port = await unusedPort()
    // WebKitGTK draws on an X display: a virtual one, wider than the widest window.
    const display = ['--auto-servernum', '--server-args=-screen 0 1920x1200x24']
    const driver = spawn('xvfb-run', [...display, 'WebKitWebDriver', `--port=${port}`], {
      stdio: 'ignore',
      detached: true,
    })
    const stopDriver = () => process.kill(-driver.pid!)
    const server = `http://127.0.0.1:${port}`
    let session: WebDriver
    try {
      await answering(`${server}/status`, 30_000, () => driver.exitCode === null)
      session = await new Builder()
        .usingServer(server)
        .withCapabilities({
          browserName: 'MiniBrowser',
          // Full screen hides MiniBrowser's toolbar, whose width would keep a window wider than a phone.
          'webkitgtk:browserOptions': { args: ['--automation', '--full-screen'] },
        })
        .build()
    } catch (error) {
      stopDriver()
      throw error
    }
    const find = (selector: string) => session.findElement(By.css(selector))
    return {
      open: (url) => session.get(url),
      // Full screen, the window is all viewport.
      resize: async (width, height) =>
        void (await session.manage().window().setRect({ width, height })),
      evaluate: async (selector, script, ...args) =>
        session.executeScript<never>(script, await find(selector), ...args),
      type: (selector, text) => find(selector).sendKeys(text),
      click: (selector) => find(selector).click(),
      screenshot: async (file) => writeFile(file, await session.takeScreenshot(), 'base64'),
      async close() {
        await session.quit()
        stopDriver()
      },
    }
  },
}

const firefox: Engine = {
  name: 'Firefox',
  programs: ['firefox-esr'],
  packages: 'firefox-esr',
  async launch() {
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: which('firefox-esr'),
      headless: true,
    })
    const page = await browser.newPage()
    return {
      open: async (url) => void (await page.goto(url)),
      resize: (width, height) => page.setViewport({ width, height }),
      evaluate: (selector, script, ...args: unknown[]) =>
        page.$eval(selector, script as (element: Element, ...args: unknown[]) => never, ...args),
      type: (selector, text) => page.type(selector, text),
      click: (selector) => page.click(selector),
      screenshot: async (file) => void (await page.screenshot({ path: file })),
      close: () => browser.close(),
    }
  },
}

export const engines = [webkit, firefox]
