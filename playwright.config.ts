import { defineConfig } from '@playwright/test'
import { ACTION_DEADLINE_MS } from './components/waitlist/action-deadline'
import { CHROMIUM_ARGS, findChromium } from './tests/support/chromium'
import { suiteServers } from './e2e/servers'

/**
 * Runs against the production build (`npm run test:e2e` builds it first) on
 * the Supabase stand-in (e2e/servers.ts). Specs that need servers of their own
 * (an embedded folder, a flood, a crash) start them. Ports: E2E_PORT_BASE
 * (default 3100) and the one after it.
 */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3100)
const { site, servers } = suiteServers(PORT_BASE)

const OWN_SERVER_SPECS = ['deployment.spec.ts', 'embedded-folder.spec.ts']

export default defineConfig({
  testDir: 'e2e',
  // Not e2e/engines/*.test.ts: Vitest runs those (vitest.engines.config.ts).
  testMatch: '*.spec.ts',
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
  webServer: servers.map((server) => ({ ...server, reuseExistingServer: !process.env.CI })),
})
