import { runScript, type Child } from './child-process'

/**
 * Runs `run` while a process of its own holds `folder`'s lock, as a running
 * server does (tests/support/hold-folder-lock.ts), and stops it afterwards as
 * a server is stopped, which frees the folder at once.
 */
export async function whileFolderHeld<T>(
  folder: string,
  run: (holder: Child) => Promise<T>,
): Promise<T> {
  const holder = runScript('tests/support/hold-folder-lock.ts', [folder])
  try {
    await holder.waitFor(/locked/)
    return await run(holder)
  } finally {
    await holder.stop('SIGTERM')
  }
}
