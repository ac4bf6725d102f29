/** Opens the waitlist store as the server starts: a broken setting shows at boot, and no visitor waits. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { waitlistStore } = await import('./lib/waitlist/server-store')
  // Said where it failed; the first signup tries again.
  waitlistStore().catch(() => {})
}
