// Supabase settings as a deployment has them at build time (e2e/build.ts): Next inlines client
// code's `process.env.NEXT_PUBLIC_*` only then, so only these could leak for e2e/bundle.spec.ts to
// find. Neither key works anywhere.
export const BUILD_KEYS = {
  NEXT_PUBLIC_SUPABASE_URL: 'https://buildtimeonlyprojectx.supabase.co',
  /** A legacy key: a JWT whose role is anon. */
  NEXT_PUBLIC_SUPABASE_ANON_KEY:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJlZiI6ImJ1aWxkdGltZW9ubHlwcm9qZWN0eCIsInJvbGUiOiJhbm9uIiwiaWF0IjoxNzM1Njg5NjAwLCJleHAiOjIwNTEyMjI0MDB9.Ok4yJSBPcgB2jIlY6-dKMvgnLwHXWsDxMlZ00KHXjCk',
  /** A key of the current kind. */
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_Bq3t0kR9cYx7uV2mWn4pLg_5hJ8sDfA1',
} as const

/** Written next to the build it describes, so e2e/bundle.spec.ts can tell such a build from a plain one. */
export const BUILD_KEYS_STAMP = '.next/e2e-build-keys.json'
