// The Supabase stand-in as a server, for the e2e tests and trying by hand: `npm run harness`
// (HARNESS_PORT, default 54329; HARNESS_CEILING, `none` for none; HARNESS_SIGNING_SECRET).
// An address whose local part starts with a prefix below gets its fault: every notice is reachable.
import { cannedAnswers, startSupabaseHarness, type Fault } from './postgrest'

const faults: [prefix: string, fault: Fault][] = [['fail-502', cannedAnswers.html502]]

/** Unset: the migration's own ceiling. */
function ceiling(value = ''): number | null | undefined {
  if (!value.trim()) return undefined
  if (value.trim() === 'none') return null
  return Number(value)
}

const harness = await startSupabaseHarness({
  port: Number(process.env.HARNESS_PORT ?? 54329),
  ceiling: ceiling(process.env.HARNESS_CEILING),
  signingSecret: process.env.HARNESS_SIGNING_SECRET?.trim() || undefined,
  faultFor: (body) => {
    const email = String((body as { email?: unknown } | undefined)?.email ?? '')
    return faults.find(([prefix]) => email.startsWith(prefix))?.[1]
  },
})

console.log(
  `Supabase stand-in at ${harness.url}: SUPABASE_URL=${harness.url} SUPABASE_ANON_KEY=${harness.anonKey}`,
)
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void harness.close().then(() => process.exit(0)))
