// One value per server process, kept on globalThis: instrumentation and actions are bundled apart.
const processGlobals = globalThis as unknown as Record<string, unknown>

export function processWide<T>(key: string, make: () => T): T {
  processGlobals[key] ??= make()
  return processGlobals[key] as T
}
