import { expect, test } from '@playwright/test'
import { DEMO_ANON_KEY } from '../tests/harness/postgrest'

test('the Supabase key and client never reach the browser', async ({ page, request }) => {
  await page.goto('/')
  const sources = await page
    .locator('script[src]')
    .evaluateAll((scripts) => scripts.map((s) => (s as HTMLScriptElement).src))
  expect(sources.length).toBeGreaterThan(0)
  const html = await page.content()
  expect(html).not.toContain(DEMO_ANON_KEY)
  for (const src of sources) {
    const body = await (await request.get(src)).text()
    expect(body, src).not.toContain(DEMO_ANON_KEY)
    expect(body, src).not.toContain('SUPABASE_ANON_KEY')
    expect(body, src).not.toContain('@supabase/postgrest-js')
  }
})
