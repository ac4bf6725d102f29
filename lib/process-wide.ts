// One value per server process, kept on globalThis: instrumentation and actions are bundled apart.
const kept = globalThis as unknown as Record<string, unknown>

export function processWide<T>(key: string, make: () => T): T {
  return (kept[key] ??= make()) as T
}
