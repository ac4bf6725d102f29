import { defineConfig } from 'vitest/config'

/** `npm run test:engines`: e2e/engines, on the build of e2e/build.ts. */
export default defineConfig({
  test: {
    include: ['e2e/engines/**/*.test.ts'],
    environment: 'node',
    // Each behaviour in each engine at each width, on CI too: the list is the record.
    reporters: ['verbose'],
    // A browser starts in seconds, a post may take the page's own deadline (ACTION_DEADLINE_MS).
    hookTimeout: 60_000,
    testTimeout: 60_000,
  },
})
