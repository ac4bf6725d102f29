/**
 * sonner, fetched once and only after the page has painted: the toasts are
 * an extra on top of the status line each form always renders, so the first
 * screen never waits for them. {@link DeferredToaster} asks for it when the
 * browser is idle or a form is first focused; a notice that comes sooner
 * asks for it itself, and shows as soon as it has arrived.
 */
let sonner: Promise<typeof import('sonner')> | undefined

export function loadSonner(): Promise<typeof import('sonner')> {
  sonner ??= import('sonner')
  // A failed fetch (a dropped connection) is not cached, so the next notice tries again.
  sonner.catch(() => (sonner = undefined))
  return sonner
}
