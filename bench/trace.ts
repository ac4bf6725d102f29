/** What a page's first paint waited for, read from the trace of Lighthouse's unthrottled load. */

export type TraceEvent = {
  name: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: { data?: Record<string, unknown>; frame?: string } & Record<string, unknown>
}

/** What Chromium's trace says of each new largest paint (its `largestContentfulPaint::Candidate`). */
type LcpCandidate = { size: number; type: string; nodeId: number; candidateIndex: number }

type Task = { start: number; dur: number; work: Map<string, number> }

/** What a task spent its time on: its outermost events by name (a script by its file). */
function label(event: TraceEvent): string {
  const url = String(event.args?.data?.url ?? '')
  if (event.name === 'EvaluateScript' || event.name === 'v8.compile') {
    const file = url.includes('/_next/')
      ? url.replace(/^.*\/_next\/static\/chunks\//, '')
      : 'inline'
    return `${event.name} ${file}`
  }
  return event.name
}

/**
 * The scripts Lighthouse's simulated LCP waits for, by the rule of its model (Lantern): each
 * loaded before the observed paint, unless a task of 10 ms or more ran it after the paint; shorter
 * tasks are pruned from its graph, so it cannot tell those scripts ran later, and keeps them. It
 * downloads each kept script at slow 4G before the paint. Their number and KB (as transferred).
 */
function keptInLcpGraph(
  events: TraceEvent[],
  thread: TraceEvent[],
  paint: number,
  at: (e: TraceEvent | undefined) => number,
) {
  const urls = new Map(
    events
      .filter((e) => e.name === 'ResourceSendRequest')
      .map((e) => [e.args?.data?.requestId, String(e.args?.data?.url)]),
  )
  const tasks = thread.filter((e) => e.name === 'RunTask' && e.dur)
  const kept = events.filter((e) => {
    const url = urls.get(e.args?.data?.requestId) ?? ''
    if (e.name !== 'ResourceFinish' || !/\/_next\/.*\.js$/.test(url) || at(e) > paint) return false
    const run = thread.find((x) => x.name === 'EvaluateScript' && x.args?.data?.url === url)
    const task = run && tasks.find((t) => t.ts <= run.ts && run.ts < t.ts + t.dur!)
    return !(task && task.dur! >= 10_000 && at(task) > paint)
  })
  const bytes = kept.reduce((sum, e) => sum + Number(e.args?.data?.encodedDataLength ?? 0), 0)
  return { scripts: kept.length, kb: bytes / 1024 }
}

export function analyse(events: TraceEvent[], pageUrl: string) {
  const nav = events.find(
    (e) =>
      e.name === 'navigationStart' &&
      e.args?.data?.isLoadingMainFrame === true &&
      String(e.args?.data?.documentLoaderURL ?? '').startsWith(pageUrl),
  )
  if (!nav) throw new Error('No navigationStart for the page in the trace')
  const { pid, tid } = nav
  const frame = nav.args?.frame
  const at = (e: TraceEvent | undefined) => (e ? (e.ts - nav.ts) / 1000 : Number.NaN)
  const thread = events.filter((e) => e.pid === pid && e.tid === tid && e.ts >= nav.ts)
  const fcp = events.find(
    (e) => e.name === 'firstContentfulPaint' && e.pid === pid && e.args?.frame === frame,
  )
  const lcpCandidates = events
    .filter(
      (e) =>
        e.name === 'largestContentfulPaint::Candidate' && e.pid === pid && e.args?.frame === frame,
    )
    .map((e) => ({ at: at(e), ...(e.args?.data as LcpCandidate) }))
  const lastPaint = Math.max(at(fcp), ...lcpCandidates.map((candidate) => candidate.at))
  const dcl = thread.find((e) => e.name === 'MarkDOMContent')
  const firstNextScript = thread.find(
    (e) => e.name === 'EvaluateScript' && String(e.args?.data?.url ?? '').includes('/_next/'),
  )
  const tasks: Task[] = []
  for (const e of thread) {
    if (e.ph !== 'X' || e.dur === undefined) continue
    const current = tasks.at(-1)
    if (e.name === 'RunTask') {
      tasks.push({ start: at(e), dur: e.dur / 1000, work: new Map() })
    } else if (current && at(e) < current.start + current.dur) {
      // Only the outermost events of a task: those starting after every earlier one ended.
      const key = label(e)
      const last = (current as Task & { end?: number }).end ?? 0
      if (at(e) >= last) {
        current.work.set(key, (current.work.get(key) ?? 0) + e.dur / 1000)
        ;(current as Task & { end?: number }).end = at(e) + e.dur / 1000
      }
    }
  }
  // The frame's tiles, rasterised in software on worker threads between the commit and the screen.
  const raster = events.filter(
    (e) => e.pid === pid && e.name === 'RasterTask' && e.dur && e.ts >= nav.ts && at(e) <= at(fcp),
  )
  return {
    fcp: at(fcp),
    dcl: at(dcl),
    firstNextScript: at(firstNextScript),
    kept: keptInLcpGraph(events, thread, lastPaint, at),
    commit: at(thread.find((e) => e.name === 'Commit')),
    rasterMs: raster.reduce((sum, e) => sum + e.dur! / 1000, 0),
    lcpCandidates,
    tasks: tasks.filter((t) => t.start <= lastPaint + 1 && t.dur >= 1),
  }
}
