import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, findChromium } from './e2e/chromium'
import { DEMO_ANON_KEY } from './tests/harness/postgrest'
import { noSupabase } from './tests/support/environments'

/**
 * Runs against the production build (`npm run build` first; see `npm run test:e2e`):
 * one server on the Supabase stand-in, where every notice can be reached, and
 * one on the embedded store, as a fresh clone runs. They listen on
 * E2E_PORT_BASE (default 3100) and the two ports after it.
 */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3100)
const SUPABASE_SITE_PORT = PORT_BASE
const EMBEDDED_SITE_PORT = PORT_BASE + 1
const HARNESS_PORT = PORT_BASE + 2

const site = (port: number) => `http://127.0.0.1:${port}`

/** Specs that start (and stop, or crash) servers of their own, with settings no shared site could have. */
const OWN_SERVER_SPECS = [
  'flood-ceiling.spec.ts',
  'dev-server.spec.ts',
  'embedded-folder.spec.ts',
  'data-service-calls.spec.ts',
]

export default defineConfig({
  testDir: 'e2e',
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  // Room for anti-aliasing that differs between builds of Chromium, none for a changed look.
  expect: { toHaveScreenshot: { maxDiffPixelRatio: 0.002 } },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: site(SUPABASE_SITE_PORT),
    trace: 'retain-on-failure',
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: [
        'no-javascript.spec.ts',
        'embedded-store.spec.ts',
        'rate-limit.spec.ts',
        ...OWN_SERVER_SPECS,
      ],
    },
    {
      name: 'no-javascript',
      testMatch: 'no-javascript.spec.ts',
      use: { javaScriptEnabled: false },
    },
    {
      name: 'embedded-store',
      testMatch: ['embedded-store.spec.ts', 'rate-limit.spec.ts'],
      use: { baseURL: site(EMBEDDED_SITE_PORT) },
    },
    {
      name: 'own-server',
      testMatch: OWN_SERVER_SPECS,
    },
  ],
  webServer: [
    {
      command: 'npx tsx tests/harness/serve.ts',
      url: `${site(HARNESS_PORT)}/health`,
      // Every test posts from 127.0.0.1, many within a minute; the limits are tested elsewhere.
      env: { HARNESS_PORT: String(HARNESS_PORT), HARNESS_SIGNUPS_PER_MINUTE_CEILING: '0' },
      reuseExistingServer: !process.env.CI,
    },
    {
      command: `npx next start -H 127.0.0.1 -p ${SUPABASE_SITE_PORT}`,
      url: site(SUPABASE_SITE_PORT),
      env: {
        ...noSupabase,
        SUPABASE_URL: site(HARNESS_PORT),
        SUPABASE_ANON_KEY: DEMO_ANON_KEY,
        WAITLIST_STORE_TIMEOUT_MS: '2000',
        // As above: no allowance asked for, and this server's own first line off.
        WAITLIST_RATE_LIMIT_PER_MINUTE: '0',
      },
      reuseExistingServer: !process.env.CI,
    },
    {
      command: `npx next start -H 127.0.0.1 -p ${EMBEDDED_SITE_PORT}`,
      url: site(EMBEDDED_SITE_PORT),
      env: { ...noSupabase, WAITLIST_DATA_DIR: 'memory://', WAITLIST_RATE_LIMIT_PER_MINUTE: '3' },
      reuseExistingServer: !process.env.CI,
    },
  ],
})
