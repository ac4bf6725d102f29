import { defineConfig, globalIgnores } from 'eslint/config'
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  // One condition per expression: a chain of them reads as an if.
  { rules: { 'no-nested-ternary': 'error' } },
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
