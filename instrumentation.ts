/**
 * Runs once as a server starts: reads the configuration and opens the
 * waitlist store, so a broken setting shows in the log at boot and the first
 * visitor does not wait for the embedded database to open.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { waitlistStore } = await import('./lib/waitlist/server-store')
  // Said where it failed; the first signup tries again.
  waitlistStore().catch(() => {})
}
