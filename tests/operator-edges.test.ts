import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { Readable, Writable } from 'node:stream'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { serverConfig, type Env } from '@/lib/env'
import { runWaitlistCli } from '@/lib/waitlist/operator/cli'
import { muteFolder } from './support/mute-folder'
import { postgresUnavailable, pushedDatabase } from './support/postgres'

/** Where the operator could hurt the wrong list, or be left with a sentence that says nothing to change. */

async function cli(command: string, env: Env, stdin = '') {
  let [stdout, stderr] = ['', '']
  const sink = (add: (text: string) => void) =>
    new Writable({ write: (chunk, _encoding, done) => done(void add(String(chunk))) })
  const code = await runWaitlistCli(command.split(' '), {
    env,
    stdin: Readable.from([stdin]),
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
  })
  return { code, stdout, said: stderr.trimEnd().split('\n') }
}

const unavailable = postgresUnavailable()
const SITE = 'abcdefghijklmnopqrst'
const OTHER = 'zyxwvutsrqponmlkjihg'
/** An operator's laptop: the site on project SITE, SUPABASE_DB_URL on OTHER through the session pooler. */
const laptop = {
  NEXT_PUBLIC_SUPABASE_URL: `https://${SITE}.supabase.co`,
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_x',
  SUPABASE_DB_URL: `postgresql://postgres.${OTHER}:secret@aws-0-eu-central-1.pooler.supabase.com:5432/postgres?sslmode=require&uselibpqcompat=true`,
  WAITLIST_SIGNING_SECRET: 'x'.repeat(43),
}

describe('one project per changing command', () => {
  it.each([
    'remove ann@example.com',
    'import -',
    'signing-secret --set',
    'signing-secret --retire-previous',
  ])('%s refuses, --list supabase or not, naming both projects', async (command) => {
    for (const list of ['', ' --list supabase']) {
      const refused = await cli(
        command + list,
        laptop,
        'email,source\nben@example.com,cta_section\n',
      )
      expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 2, stdout: '' })
      expect(refused.said).toEqual([
        `waitlist: ${command.split(' ')[0]} changed nothing: SUPABASE_DB_URL names Supabase project ${OTHER}, and the site here writes to Supabase project ${SITE} (NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY, signed). Add --project ${OTHER} to act on it all the same, or set SUPABASE_DB_URL to project ${SITE}'s connection string.`,
      ])
    }
  })

  it('--project acts on the project it names, and only if SUPABASE_DB_URL is that one', async () => {
    const wrong = await cli(`remove ann@example.com --project ${SITE}`, laptop)
    expect(wrong).toMatchObject({ code: 2, stdout: '' })
    expect(wrong.said).toEqual([
      `waitlist: --project ${SITE}, but SUPABASE_DB_URL names Supabase project ${OTHER}: set it to project ${SITE}'s connection string (its pooler user is postgres.${SITE}).`,
    ])
    // Past the guard, it meets the database: here nothing listens where the pooler would be.
    const named = await cli(`remove ann@example.com --project ${OTHER}`, {
      ...laptop,
      SUPABASE_DB_URL: `postgresql://postgres.${OTHER}:secret@127.0.0.1:1/postgres`,
    })
    expect(named).toMatchObject({ code: 1, stdout: '' })
    expect(named.said).toEqual([
      expect.stringMatching(
        /^waitlist: nothing answers at 127\.0\.0\.1:1 \(ECONNREFUSED\): check the host and port in SUPABASE_DB_URL; for Supabase take the session pooler's string/,
      ),
    ])
  })

  describe.skipIf(unavailable)('two databases on one host, no project ref', () => {
    const pushed: Awaited<ReturnType<typeof pushedDatabase>>[] = []
    beforeAll(async () => {
      pushed.push(await pushedDatabase(), await pushedDatabase())
      const client = new pg.Client(pushed[0]!.url)
      await client.connect()
      await client.query(
        `insert into public.waitlist (email, source) values ('ann@example.com', 'hero_section')`,
      )
      await client.end()
    })
    afterAll(() => Promise.all(pushed.map((database) => database.drop())))

    const env = (i: number) => ({
      SUPABASE_DB_URL: pushed[i]!.url,
      SUPABASE_URL: 'http://127.0.0.1:54321',
      SUPABASE_ANON_KEY: 'sb_publishable_local',
    })
    const label = (i: number) => {
      const { pathname, port } = new URL(pushed[i]!.url)
      return `the Supabase database ${pathname.slice(1)} at 127.0.0.1:${port}`
    }
    it('each label names the database, its host and port', async () => {
      const other = await cli('remove ann@example.com', env(1))
      expect(other.stdout).toBe(
        'not on the list; recorded as erased so it is never added again\tann@example.com\n' +
          `removed 0 of 1 from ${label(1)}; each is remembered as erased there.\n`,
      )
      const site = await cli('remove ann@example.com', env(0))
      expect(site.stdout).toBe(
        `removed\tann@example.com\nremoved 1 of 1 from ${label(0)}; each is remembered as erased there.\n`,
      )
      expect(label(0)).not.toBe(label(1))
    })

    it('a secret set again is said to change nothing; a wrong password is said with what to change', async () => {
      const secret = { WAITLIST_SIGNING_SECRET: 'y'.repeat(43) }
      const first = await cli('signing-secret --set', { ...env(1), ...secret })
      expect(first.said.at(-1)).toMatch(/^waitlist: the database now refuses/)
      const again = await cli('signing-secret --set', { ...env(1), ...secret })
      expect(again).toMatchObject({ code: 0, stdout: '' })
      expect(again.said.at(-1)).toBe('waitlist: this secret is already set; nothing changed.')

      const url = new URL(pushed[1]!.url)
      url.password = 'not-the-password'
      const wrong = await cli('count', { ...env(1), SUPABASE_DB_URL: url.href })
      expect(wrong).toMatchObject({ code: 1, stdout: '' })
      expect(wrong.said).toEqual([
        `waitlist: the Supabase database ${url.pathname.slice(1)} at 127.0.0.1:${url.port} refused the password of user ${url.username}: put the database password in SUPABASE_DB_URL, its at signs, colons and slashes percent-encoded (%40, %3A, %2F); Supabase resets it under Project Settings → Database.`,
      ])
    })

    it('warns of a --restore address the file does not hold, and restores none for it', async () => {
      const file = path.join(os.tmpdir(), `waitlist-restore-${process.pid}.csv`)
      await writeFile(file, 'email,source\nben@example.com,cta_section\n')
      const result = await cli(`import ${file} --restore ann@example.com`, env(1))
      await rm(file)
      expect(result.code).toBe(0)
      expect(result.said).toContain(
        'waitlist: warning: --restore an***@example.com is not in the file: nothing restored for it.',
      )
    })
  })
})

describe('the data folder', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'waitlist-folder-'))
    await writeFile(path.join(dir, 'file'), '')
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it.each([
    ['a file', 'file', 'which is a file, not a folder'],
    ['in a folder that does not exist', 'no/such', `whose parent folder`],
  ])(
    'naming %s, is said in one line, naming the variable, by the commands and the site alike',
    async (_what, name, says) => {
      const folder = path.join(dir, name)
      const command = await cli('count', { WAITLIST_DATA_DIR: folder })
      expect(command).toMatchObject({ code: 1, stdout: '' })
      expect(command.said).toEqual([
        expect.stringContaining(`waitlist: WAITLIST_DATA_DIR names ${folder}, ${says}`),
      ])

      const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
      vi.stubEnv('WAITLIST_DATA_DIR', folder)
      delete (globalThis as { waitlistConfig?: unknown }).waitlistConfig
      try {
        expect(serverConfig()).toMatchObject({ ok: false })
        expect(logged.mock.calls.map(([line]) => String(line))).toEqual([
          `[waitlist] signups are switched off by a configuration error: ${command.said[0]!.slice('waitlist: '.length)}`,
        ])
      } finally {
        vi.unstubAllEnvs()
        logged.mockRestore()
        delete (globalThis as { waitlistConfig?: unknown }).waitlistConfig
      }
    },
  )

  it('held by a process that never answers, the commands give up within WAITLIST_STORE_TIMEOUT_MS, in one line', async () => {
    const folder = path.join(dir, 'stuck')
    const release = await muteFolder(folder)
    try {
      const stuck = await cli('count', {
        WAITLIST_DATA_DIR: folder,
        WAITLIST_STORE_TIMEOUT_MS: '300',
      })
      expect(stuck).toMatchObject({ code: 1, stdout: '' })
      expect(stuck.said).toEqual([
        expect.stringMatching(
          /^waitlist: the embedded database in .* did not answer within 300 ms \(WAITLIST_STORE_TIMEOUT_MS\)/,
        ),
      ])
    } finally {
      await release()
    }
  })
})

describe('the smaller edges', () => {
  it('--retire is answered with --retire-previous', async () => {
    const { code, said } = await cli('signing-secret --retire', {})
    expect(code).toBe(2)
    expect(said).toEqual([
      expect.stringMatching(
        /^waitlist: signing-secret has no option --retire \(did you mean --retire-previous\?\)/,
      ),
    ])
  })

  it("prints no library's warning before its own line, for a string with sslmode=require", async () => {
    const servers: Server[] = []
    // PostgreSQL's answer to pg's SSLRequest where ssl is off: N, no.
    const server = createServer((socket) => socket.once('data', () => socket.write('N')))
    servers.push(server)
    await once(server.listen(0, '127.0.0.1'), 'listening')
    const { port } = server.address() as { port: number }
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/waitlist.ts', 'count'], {
      env: {
        ...process.env,
        SUPABASE_DB_URL: `postgresql://postgres:secret@127.0.0.1:${port}/postgres?sslmode=require`,
        SUPABASE_URL: 'http://127.0.0.1:54321',
        SUPABASE_ANON_KEY: 'sb_publishable_local',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const [status] = (await once(child, 'exit')) as [number]
    server.close()
    expect(status).toBe(1)
    expect(stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^waitlist: the Supabase database postgres at .* does not take encrypted connections/,
      ),
    ])
  })
})
