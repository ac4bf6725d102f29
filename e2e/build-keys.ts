/**
 * Supabase settings of the kinds a real deployment has at build time, set
 * while the end-to-end suite's one production build runs (e2e/build.ts), so
 * e2e/bundle.spec.ts can look for the keys in everything a browser can load.
 * Next inlines any `process.env.NEXT_PUBLIC_*` it finds in client code at
 * build time: a key given only to `next start` could never show up there.
 * Neither key works anywhere; the servers the tests start use their own.
 */
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
