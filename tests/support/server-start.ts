import { vi } from 'vitest'

/** This process as a server that starts with `env`: the configuration and store it keeps process-wide, forgotten. */
export function startServerWith(env: Record<string, string>) {
  const processWide = globalThis as { waitlistConfig?: unknown; waitlistStore?: unknown }
  delete processWide.waitlistConfig
  delete processWide.waitlistStore
  vi.unstubAllEnvs()
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
}
