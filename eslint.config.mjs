import { defineConfig, globalIgnores } from 'eslint/config'
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    '.next/**',
    'bench/minimal/.next/**',
    'bench/results/**',
    '.data/**',
    'exports/**',
    'playwright-report/**',
    'test-results/**',
    'next-env.d.ts',
  ]),
])
