/**
 * Runs the Supabase stand-in as a server, for the end-to-end tests and for
 * trying the Supabase path by hand: `npm run harness` (on HARNESS_PORT,
 * default 54329). HARNESS_SIGNUPS_PER_MINUTE_CEILING sets the database's
 * ceiling on new signups a minute (0: none; default the migration's 600).
 */
import { cannedAnswers, startSupabaseHarness, type Fault } from './postgrest'

/** An address whose local part starts with one of these gets its fault, so a test can reach every notice through the page. */
const faults: [prefix: string, fault: Fault][] = [
  ['fail-502', cannedAnswers.html502],
  ['fail-500', cannedAnswers.internal500],
  ['fail-401', cannedAnswers.invalidApiKey],
  ['fail-rls', cannedAnswers.rlsViolation],
  ['fail-hang', { kind: 'hang' }],
  ['fail-refuse', { kind: 'refuse' }],
  ['slow', { kind: 'delay', ms: 1500 }],
]

const ceiling = process.env.HARNESS_SIGNUPS_PER_MINUTE_CEILING?.trim()

const harness = await startSupabaseHarness({
  port: Number(process.env.HARNESS_PORT ?? 54329),
  signupCeilingPerMinute: ceiling ? Number(ceiling) : undefined,
  faultFor: ({ method, body }) => {
    if (method !== 'POST' || typeof body !== 'object' || body === null) return undefined
    const email = String((body as { email?: unknown }).email ?? '')
    return faults.find(([prefix]) => email.startsWith(prefix))?.[1]
  },
})

console.log(`Supabase stand-in listening at ${harness.url}`)
console.log(`  SUPABASE_URL=${harness.url}`)
console.log(`  SUPABASE_ANON_KEY=${harness.anonKey}`)
console.log(`  SUPABASE_SERVICE_ROLE_KEY=${harness.serviceRoleKey}`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void harness.close().then(() => process.exit(0)))
}
