import { readFileSync, readlinkSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * Who a process is, in enough detail to tell later, from another process,
 * whether it still runs: a process id alone is not enough, because ids are
 * reused, restart at every boot, and mean nothing in another container.
 */
export type ProcessIdentity = {
  pid: number
  host: string
  /** When the process started, ISO 8601 in UTC: what a person reads to recognise it. */
  startedAt: string
  /** What the process calls itself, e.g. `next-server (v16.4.5)` or `node`. */
  title: string
  /** Linux: the kernel's id of the current boot, so a process of an earlier boot is known gone. */
  bootId?: string
  /** Linux: the process-id namespace, so an id is only judged inside the namespace it belongs to. */
  pidNamespace?: string
  /** Linux: the process's start in clock ticks since boot, so a reused id is told apart. */
  processStart?: string
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    return undefined
  }
}

/** Field 22 of /proc/<pid>/stat; the command name before it may hold spaces, so count from its `)`. */
function processStartOf(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`)
  if (!stat) return undefined
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
}

/** `pid:[4026531836]`: the same text for every process in one namespace. */
function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid')
  } catch {
    return undefined
  }
}

/** `next-server (v16.4.5)`, or for a plain script `node waitlist.ts`: never its arguments, which may hold addresses. */
function title(): string {
  const script = process.argv[1]
  return process.title === 'node' && script ? `node ${path.basename(script)}` : process.title
}

export function currentProcess(): ProcessIdentity {
  return {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    title: title(),
    bootId: readText('/proc/sys/kernel/random/boot_id'),
    pidNamespace: pidNamespace(),
    processStart: processStartOf(process.pid),
  }
}

export type Liveness = 'running' | 'gone' | 'unknown'

/**
 * Whether the process `who` names still runs, judged from this process:
 * `unknown` when it lives on another machine or in another process-id
 * namespace, where its id cannot be looked up from here.
 */
export function liveness(who: ProcessIdentity, self: ProcessIdentity = currentProcess()): Liveness {
  if (who.host !== self.host) return 'unknown'
  if (who.bootId && self.bootId && who.bootId !== self.bootId) return 'gone'
  if (who.pidNamespace !== self.pidNamespace) return 'unknown'
  try {
    process.kill(who.pid, 0)
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return 'gone'
  }
  if (who.processStart && self.processStart) {
    const now = processStartOf(who.pid)
    if (now !== undefined && now !== who.processStart) return 'gone'
  }
  return 'running'
}

/** `next-server (v16.4.5), process 4242 on this machine, started 2026-11-22T10:00:00.000Z`. */
export function describeProcess(who: ProcessIdentity): string {
  const where = who.host === os.hostname() ? 'on this machine' : `on ${who.host}`
  return `${who.title}, process ${who.pid} ${where}, started ${who.startedAt}`
}
