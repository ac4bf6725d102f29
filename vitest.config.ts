import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('.', import.meta.url)),
      'server-only': fileURLToPath(new URL('./tests/support/server-only.ts', import.meta.url)),
    },
  },
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Makes the PostgreSQL role the operator's tests push their databases as, once per run.
    globalSetup: ['tests/support/postgres.ts'],
    // Opening an embedded database takes seconds on a busy machine; no test waits on a clock.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each test starts with the environment and console as they were, whatever one before it stubbed.
    unstubEnvs: true,
    restoreMocks: true,
  },
})
