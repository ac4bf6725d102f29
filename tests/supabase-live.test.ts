import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { SUPABASE_KEY_VARS } from '@/lib/env'
import { withTimeout } from '@/lib/waitlist/store'
import { supabaseStore } from '@/lib/waitlist/supabase-store'

/**
 * Opt-in smoke test against a real Supabase project with the migration
 * applied. Runs only when SUPABASE_URL and a public key are set:
 *
 *   SUPABASE_URL=https://<ref>.supabase.co SUPABASE_ANON_KEY=<publishable key> npx vitest run tests/supabase-live.test.ts
 *
 * Each run adds two rows, `smoke-test+<random>@example.com`. The public key
 * cannot delete it (by design); remove test rows with the service key:
 *
 *   curl -X DELETE "$SUPABASE_URL/rest/v1/waitlist?email=like.smoke-test%2B*%40example.com" \
 *     -H "apikey: $SUPABASE_SERVICE_ROLE_KEY" -H "Authorization: Bearer $SUPABASE_SERVICE_ROLE_KEY"
 *
 * or in the SQL editor: delete from public.waitlist where email like 'smoke-test+%@example.com';
 */
const url = process.env.SUPABASE_URL
const key = SUPABASE_KEY_VARS.map((name) => process.env[name]).find(Boolean)
const live = Boolean(url && key)

if (!live) {
  console.info(
    'Skipping the live Supabase smoke test: set SUPABASE_URL and SUPABASE_ANON_KEY to run it.',
  )
}

describe.skipIf(!live)('a real Supabase project', () => {
  it('takes a new address once and answers the second time with a duplicate', async () => {
    const store = withTimeout(supabaseStore({ url: url!, key: key! }), 10_000)
    const entry = {
      email: `smoke-test+${randomUUID()}@example.com`,
      source: 'hero_section',
    } as const
    await expect(store.insert(entry)).resolves.toBe('inserted')
    await expect(store.insert(entry)).resolves.toBe('duplicate')
  })

  it('takes a signup that names its visitor', async () => {
    const store = withTimeout(supabaseStore({ url: url!, key: key! }), 10_000)
    const visitor = { key: randomUUID().replaceAll('-', ''), perMinute: 10 }
    const entry = {
      email: `smoke-test+${randomUUID()}@example.com`,
      source: 'cta_section',
    } as const
    await expect(store.insert(entry, visitor)).resolves.toBe('inserted')
  })
})
