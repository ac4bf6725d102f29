import 'server-only'
import { createClient } from '@supabase/supabase-js'
import { SIGNING_SECRET_VAR, type StoreConfig } from '@/lib/env'
import { resultOf, type WaitlistStore } from './store'
import { visitorHeaders } from './visitor'

type SupabaseConfig = Extract<StoreConfig, { kind: 'supabase' }>

/** For the database's refusals of this server's signature (supabase/migrations): which secret is wrong, and what to run. */
function signingAdvice(error: { code: string; message: string }, config: SupabaseConfig): string {
  const advice = (wrong: string) =>
    ` So ${wrong}: set one secret on both, in the database with \`${SIGNING_SECRET_VAR}='<secret>' npm run waitlist -- signing-secret --set\`, then on this server (docs/supabase.md#signing).`
  if (error.code !== '42501') return ''
  if (error.message.includes('until a signing secret is set'))
    return advice('the database has no signing secret yet')
  if (!error.message.includes('not signed by it')) return ''
  if (config.signingSecret)
    return advice(
      `this server's ${SIGNING_SECRET_VAR} matches neither the database's secret nor the one it replaced`,
    )
  return advice(`${SIGNING_SECRET_VAR} is not set on this server`)
}

/** The waitlist on Supabase: one REST insert per signup with the public key, which may insert but never read. */
export function supabaseStore(config: SupabaseConfig, perMinute: number): WaitlistStore {
  const client = createClient(config.url, config.key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
  // Every instance of a deployment must name a visitor alike: the secret they all share, else the public key.
  const signing = {
    perMinute,
    hashSecret: config.signingSecret ?? config.key,
    signingSecret: config.signingSecret,
  }
  const host = new URL(config.url).host
  return {
    description: `Supabase at ${host} (${config.keyVar}${config.signingSecret ? ', signed' : ''})`,
    async insert(entry, visitor, signal) {
      let request = client.from('waitlist').insert(entry).abortSignal(signal)
      for (const [name, value] of Object.entries(visitorHeaders(entry, visitor, signing)))
        request = request.setHeader(name, value)
      const { error, status } = await request
      if (!error) return 'inserted'
      // A plain object: branch on its code, never on instanceof.
      const expected = resultOf(error.code)
      if (expected) return expected
      const answer = status === 0 ? 'no answer' : `HTTP ${status}`
      const body = error.message.replace(/\s+/g, ' ').slice(0, 300)
      throw new Error(
        `Supabase refused the insert (${answer}, code ${error.code || 'none'}): ${body}${signingAdvice(error, config)}`,
      )
    },
  }
}
