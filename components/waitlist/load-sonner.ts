/**
 * sonner, fetched once and only after the page has painted: the toasts are
 * an extra on top of the status line each form always renders, so the first
 * screen never waits for them. {@link DeferredToaster} asks for it when the
 * browser is idle or a form is first focused; a notice that comes sooner
 * asks for it itself, and shows as soon as it has arrived.
 */
type Sonner = typeof import('sonner')

let loading: Promise<Sonner> | undefined
let loaded: Sonner | undefined
const waiting = new Set<(sonner: Sonner) => void>()

export function loadSonner(): Promise<Sonner> {
  loading ??= import('sonner').then(
    (sonner) => {
      loaded = sonner
      waiting.forEach((notify) => notify(sonner))
      waiting.clear()
      return sonner
    },
    (error: unknown) => {
      // Not kept: after a dropped connection, the next caller fetches it again.
      loading = undefined
      throw error
    },
  )
  return loading
}

/** Calls `notify` once sonner has loaded, whoever asked for it; returns a function that stops waiting. */
export function whenSonnerLoads(notify: (sonner: Sonner) => void): () => void {
  if (loaded) {
    notify(loaded)
    return () => {}
  }
  waiting.add(notify)
  return () => void waiting.delete(notify)
}
