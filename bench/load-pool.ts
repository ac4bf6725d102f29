/** Runs `jobs` with at most `concurrency` in flight, timing each; loopback only, so no retry. */
export async function runPool<T>(
  jobs: readonly (() => Promise<T>)[],
  concurrency: number,
): Promise<{ results: T[]; latenciesMs: number[]; wallMs: number }> {
  const results: T[] = new Array(jobs.length)
  const latenciesMs: number[] = new Array(jobs.length)
  let next = 0
  const started = performance.now()
  async function worker() {
    while (next < jobs.length) {
      const index = next++
      const job = jobs[index]!
      const t0 = performance.now()
      results[index] = await job()
      latenciesMs[index] = performance.now() - t0
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker))
  return { results, latenciesMs, wallMs: performance.now() - started }
}

/** The p-th percentile (nearest rank) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}

export function median(values: readonly number[]): number {
  return percentile(values, 50)
}
