/**
 * One value for the whole server process, made at first use. Kept on
 * `globalThis`: the server's instrumentation and its actions are bundled
 * apart, each with its own copy of every module.
 */
const kept = globalThis as unknown as Record<string, unknown>

export function processWide<T>(key: string, make: () => T): T {
  return (kept[key] ??= make()) as T
}

/** Lets go of the value kept under `key`: the next use makes it anew. */
export function forget(key: string): void {
  delete kept[key]
}
