import { SUPABASE_KEY_VARS, SUPABASE_URL_VARS } from '../../lib/env'

/** Blanks every Supabase variable (and VERCEL), so a server started with it uses only what a test sets. */
export const noSupabase: Record<string, string> = Object.fromEntries(
  [...SUPABASE_URL_VARS, ...SUPABASE_KEY_VARS, 'VERCEL'].map((name) => [name, '']),
)
