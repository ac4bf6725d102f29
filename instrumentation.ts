/**
 * Runs once when a server starts: checks the configuration and opens the
 * waitlist store in the background, so a broken setting shows in the log at
 * boot and the first visitor does not wait for the embedded database to start.
 * A production server also says whether clients can pick their own rate-limit
 * key; a development server is not where the public posts.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { prepareWaitlistStore } = await import('./lib/waitlist/choose-store')
  prepareWaitlistStore()
  if (process.env.NODE_ENV === 'production') {
    const { warnIfClientsPickTheirKey } = await import('./lib/waitlist/visitor-limits')
    warnIfClientsPickTheirKey()
  }
}
