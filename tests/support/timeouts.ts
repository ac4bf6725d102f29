import { vi } from 'vitest'

/**
 * For a file whose tests open real databases, some in processes of their
 * own, several times over: on a busy machine that takes longer than the
 * default allows.
 */
export function allowForDatabaseStarts(): void {
  vi.setConfig({ testTimeout: 60_000 })
}
