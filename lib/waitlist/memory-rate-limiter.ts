/** Clients tracked at once; beyond this the oldest are forgotten, so a flood of addresses cannot grow memory. */
export const MAX_TRACKED_CLIENTS = 10_000

const WINDOW_MS = 60_000

type Window = { start: number; count: number; previous: number; refusing: boolean }

/** `refused_first` marks the first refusal after an admitted attempt: the one worth a log line. */
export type Verdict = 'admitted' | 'refused_first' | 'refused'

export type RateLimiter = {
  /** Counts one attempt by `client`, refused or not. */
  take(client: string): Verdict
  /** Clients currently tracked (for tests). */
  readonly size: number
}

type RateLimiterOptions = {
  perMinute: number
  maxClients?: number
  now?: () => number
}

/**
 * A per-process limit of `perMinute` attempts per client, refused ones
 * included, so a client that keeps hammering stays out; over a sliding
 * minute: the previous minute's count weighs in by how much of it still
 * overlaps, so a client cannot post twice the limit across a minute boundary.
 * It holds in one server process only: the server's first line, in front of
 * the limits the database keeps for the whole deployment.
 */
export function createRateLimiter({
  perMinute,
  maxClients = MAX_TRACKED_CLIENTS,
  now = Date.now,
}: RateLimiterOptions): RateLimiter {
  const windows = new Map<string, Window>()

  function forgetStale(at: number): void {
    // Map keeps insertion order and a client is re-inserted when its window moves,
    // so the oldest windows come first: stop at the first one still useful.
    for (const [client, window] of windows) {
      const stale = at - window.start >= 2 * WINDOW_MS
      if (!stale && windows.size < maxClients) break
      windows.delete(client)
    }
  }

  return {
    take(client) {
      if (perMinute <= 0) return 'admitted'
      const at = now()
      let window = windows.get(client)
      if (!window || at - window.start >= WINDOW_MS) {
        // The minute right after the last one carries its count over; after a longer gap, nothing.
        window =
          window && at - window.start < 2 * WINDOW_MS
            ? {
                start: window.start + WINDOW_MS,
                count: 0,
                previous: window.count,
                refusing: window.refusing,
              }
            : { start: at, count: 0, previous: 0, refusing: false }
        windows.delete(client)
        forgetStale(at)
        windows.set(client, window)
      }
      const overlap = 1 - (at - window.start) / WINDOW_MS
      const fits = window.previous * overlap + window.count + 1 <= perMinute
      window.count += 1
      if (fits) {
        window.refusing = false
        return 'admitted'
      }
      const first = !window.refusing
      window.refusing = true
      return first ? 'refused_first' : 'refused'
    },
    get size() {
      return windows.size
    },
  }
}
