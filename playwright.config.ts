import { defineConfig } from '@playwright/test'
import { ACTION_DEADLINE_MS } from './components/waitlist/action-deadline'
import { CHROMIUM_ARGS, findChromium } from './tests/support/chromium'
import { DEMO_ANON_KEY, TEST_SIGNING_SECRET } from './tests/harness/postgrest'
import { noSupabase } from './tests/support/environments'

/**
 * Runs against the production build (`npm run test:e2e` builds it first): one
 * server on the Supabase stand-in, which signs its inserts as production does
 * and where every notice can be reached. Specs that need servers of their own
 * (an embedded folder, a flood, a crash) start them. Ports: E2E_PORT_BASE
 * (default 3100) and the one after it.
 */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3100)
const site = `http://127.0.0.1:${PORT_BASE}`
const harness = `http://127.0.0.1:${PORT_BASE + 1}`

const OWN_SERVER_SPECS = ['deployment.spec.ts', 'embedded-folder.spec.ts']

export default defineConfig({
  testDir: 'e2e',
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  expect: {
    // A post may take the page's own deadline to be answered: a fresh server opens its store first.
    timeout: ACTION_DEADLINE_MS,
    // Room for anti-aliasing that differs between builds of Chromium, none for a changed look.
    toHaveScreenshot: { maxDiffPixelRatio: 0.0005 },
  },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: site,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'chromium', testIgnore: ['no-javascript.spec.ts', ...OWN_SERVER_SPECS] },
    {
      name: 'no-javascript',
      testMatch: 'no-javascript.spec.ts',
      use: { javaScriptEnabled: false },
    },
    { name: 'own-server', testMatch: OWN_SERVER_SPECS },
  ],
  webServer: [
    {
      command: 'npx tsx tests/harness/serve.ts',
      url: `${harness}/health`,
      // Every test posts from 127.0.0.1, many within a minute: the limits are tested on servers of their own.
      env: {
        HARNESS_PORT: String(PORT_BASE + 1),
        HARNESS_CEILING: 'none',
        HARNESS_SIGNING_SECRET: TEST_SIGNING_SECRET,
      },
      reuseExistingServer: !process.env.CI,
    },
    {
      // next start, with the failures the tests cause on purpose marked in its log.
      command: `npx tsx e2e/site-server.ts -H 127.0.0.1 -p ${PORT_BASE}`,
      url: site,
      env: {
        ...noSupabase,
        SUPABASE_URL: harness,
        SUPABASE_ANON_KEY: DEMO_ANON_KEY,
        WAITLIST_SIGNING_SECRET: TEST_SIGNING_SECRET,
        WAITLIST_STORE_TIMEOUT_MS: '2000',
        WAITLIST_RATE_LIMIT_PER_MINUTE: '0',
      },
      reuseExistingServer: !process.env.CI,
    },
  ],
})
