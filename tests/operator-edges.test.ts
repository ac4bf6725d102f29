import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { serverConfig, type Env } from '@/lib/env'
import { cli } from './support/cli'
import { muteFolder } from './support/mute-folder'
import { siteFolder } from './support/site-signups'
import { postgresUnavailable, pushedDatabase, superuser } from './support/postgres'
import { cliProcess } from './support/processes'
import { startServerWith } from './support/server-start'

/** Where the operator could hurt the wrong list, or be left with a sentence that says nothing to change. */

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

  const unreachable = `postgresql://postgres.${OTHER}:secret@127.0.0.1:1/postgres`
  /** Past the guard, a command meets the database: here nothing listens where the pooler would be. */
  const pastTheGuard = {
    code: 1,
    said: [expect.stringMatching(/^waitlist: nothing answers at 127\.0\.0\.1:1/)],
  }

  it.each([
    {
      with: "a custom domain as the site's URL",
      env: {
        ...laptop,
        NEXT_PUBLIC_SUPABASE_URL: 'https://api.collably.example',
        SUPABASE_DB_URL: unreachable,
      },
      names: `Supabase project ${OTHER}`,
      why: "the site's URL names no project (a custom domain?), nor does its key",
    },
    {
      with: 'a role of its own in SUPABASE_DB_URL',
      env: { ...laptop, SUPABASE_DB_URL: 'postgresql://operator:secret@127.0.0.1:1/postgres' },
      names: 'the Supabase database postgres at 127.0.0.1:1',
      why: 'SUPABASE_DB_URL names no project (its host is not <ref>.supabase.co, nor its user <role>.<ref>)',
    },
  ])(
    'with $with, the changing commands refuse until --project confirms',
    async ({ env, names, why }) => {
      for (const command of [
        'remove dan@example.com',
        'signing-secret --set',
        'signing-secret --retire-previous',
        'import -',
      ]) {
        const refused = await cli(command, env, 'email,source\nben@example.com,cta_section\n')
        expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 2, stdout: '' })
        expect(refused.said).toEqual([
          `waitlist: ${command.split(' ')[0]} changed nothing: it cannot tell that SUPABASE_DB_URL's ${names} is the project the site writes to, as ${why}. If it is, say so with --project <ref> (the project's ref, or the name of a database of your own).`,
        ])
      }
      const confirmed = await cli(`remove dan@example.com --project ${OTHER}`, env)
      expect(confirmed).toMatchObject(pastTheGuard)
    },
  )

  it("takes a legacy key's project for the site's, where its URL names none", async () => {
    const claims = Buffer.from(JSON.stringify({ ref: OTHER, role: 'anon' })).toString('base64url')
    const env = {
      ...laptop,
      NEXT_PUBLIC_SUPABASE_URL: 'https://api.collably.example',
      NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: `eyJhbGciOiJIUzI1NiJ9.${claims}.signature`,
      SUPABASE_DB_URL: unreachable,
    }
    expect(await cli('remove dan@example.com', env)).toMatchObject(pastTheGuard)
  })

  describe.skipIf(unavailable)('on a database that no project ref names', () => {
    let ownerUrl: string
    let env: Env
    let drop: (() => Promise<void>) | undefined
    beforeAll(async () => {
      ;({ url: ownerUrl, drop } = await pushedDatabase())
      env = {
        SUPABASE_DB_URL: ownerUrl,
        SUPABASE_URL: 'http://127.0.0.1:54321',
        SUPABASE_ANON_KEY: 'sb_publishable_local',
      }
    })
    afterAll(() => drop?.())

    it('a secret set again is said to change nothing; a wrong password is said with what to change', async () => {
      const secret = { WAITLIST_SIGNING_SECRET: 'y'.repeat(43) }
      const first = await cli('signing-secret --set --project local', { ...env, ...secret })
      expect(first.said.at(-1)).toMatch(/^waitlist: the database now refuses/)
      const again = await cli('signing-secret --set --project local', { ...env, ...secret })
      expect(again).toMatchObject({ code: 0, stdout: '' })
      expect(again.said.at(-1)).toBe('waitlist: this secret is already set; nothing changed.')

      const missing = new URL(ownerUrl)
      missing.pathname = '/nosuchdb'
      const nowhere = await cli('count', { ...env, SUPABASE_DB_URL: missing.href })
      expect(nowhere.said).toEqual([
        'waitlist: 127.0.0.1 has no database nosuchdb: on Supabase it is postgres, the end of SUPABASE_DB_URL (…:5432/postgres).',
      ])

      const url = new URL(ownerUrl)
      url.password = 'not-the-password'
      const wrong = await cli('count', { ...env, SUPABASE_DB_URL: url.href })
      expect(wrong).toMatchObject({ code: 1, stdout: '' })
      expect(wrong.said).toEqual([
        `waitlist: the Supabase database ${url.pathname.slice(1)} at 127.0.0.1:${url.port} refused the password of user ${url.username}: put the database password in SUPABASE_DB_URL, its at signs, colons and slashes percent-encoded (%40, %3A, %2F); Supabase resets it under Project Settings → Database.`,
      ])
    })

    it('--retire-previous refuses within 10 minutes of the --set that replaced it, a quiet site or not, and check says when', async () => {
      for (const secret of ['b1', 'b2'])
        expect(
          (
            await cli('signing-secret --set --project local', {
              ...env,
              WAITLIST_SIGNING_SECRET: secret.repeat(20),
            })
          ).code,
        ).toBe(0)
      const early = await cli('signing-secret --retire-previous --project local', env)
      expect(early).toMatchObject({ code: 2, stdout: '' })
      expect(early.said.at(-1)).toMatch(
        /^waitlist: --retire-previous changed nothing: the previous secret was replaced \S+ \S+ UTC, 0 min ago, and last signed a signup never, so .*--force\.$/,
      )
      expect((await cli('check', env)).stdout).toMatch(
        /\nLast signed +never; the previous secret never, replaced \S+ \S+ UTC, 0 min ago\n/,
      )
      expect(
        (await cli('signing-secret --retire-previous --force --project local', env)).code,
      ).toBe(0)
    })

    it('names a connection as a role that does not own the tables, before any command acts', async () => {
      const role = `waitlist_stranger_${process.pid}`
      await superuser(`create role ${role} login password 'stranger'; grant anon to ${role}`)
      try {
        const url = new URL(ownerUrl)
        url.username = role
        url.password = 'stranger'
        const owner = decodeURIComponent(new URL(ownerUrl).username)
        for (const command of ['count', 'import - --project local']) {
          const stranger = await cli(
            command,
            { ...env, SUPABASE_DB_URL: url.href },
            'email,source\nben@example.com,cta_section\n',
          )
          expect({ code: stranger.code, stdout: stranger.stdout }).toEqual({ code: 2, stdout: '' })
          expect(stranger.said).toEqual([
            `waitlist: SUPABASE_DB_URL connects as ${role}, who does not own the waitlist's tables (${owner} does, as \`supabase db push\` made them): the commands act as their owner, so connect as ${owner} (on Supabase's pooler, user ${owner}.<ref>).`,
          ])
        }
      } finally {
        await superuser(`drop role ${role}`)
      }
    })

    it('warns of a --restore address the file does not hold, and restores none for it', async () => {
      const file = path.join(os.tmpdir(), `waitlist-restore-${process.pid}.csv`)
      await writeFile(file, 'email,source\nben@example.com,cta_section\n')
      const result = await cli(`import ${file} --restore ann@example.com --project local`, env)
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
      startServerWith({ WAITLIST_DATA_DIR: folder })
      expect(serverConfig()).toMatchObject({ ok: false })
      expect(logged.mock.calls.map(([line]) => String(line))).toEqual([
        `[waitlist] signups are switched off by a configuration error: ${command.said[0]!.slice('waitlist: '.length)}`,
      ])
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

describe('the files an operator names', () => {
  let here: string
  let env: Env
  beforeAll(async () => {
    here = await mkdtemp(path.join(os.tmpdir(), 'waitlist-here-'))
    env = { WAITLIST_DATA_DIR: await siteFolder(path.join(here, 'data')), INIT_CWD: here }
  })
  afterAll(() => rm(here, { recursive: true, force: true }))

  it('are read and written where the operator stands, as npm says in INIT_CWD', async () => {
    await writeFile(path.join(here, 'list.csv'), 'email,source\nben@example.com,cta_section\n')
    expect((await cli('import list.csv', env)).code).toBe(0)
    const exported = await cli('export --output mine.csv', env)
    expect(exported.said.at(-1)).toBe(
      `waitlist: wrote ${path.join(here, 'mine.csv')}, 1 signup from the embedded database in ${path.join(here, 'data')}`,
    )
    expect(existsSync('mine.csv')).toBe(false)
  })

  it('never go into the project outside exports/, nor over a file or a folder, said before the list is read', async () => {
    const project = process.cwd()
    for (const [output, says] of [
      [
        'mine.csv',
        `export does not write ${path.join(project, 'mine.csv')}: a list of people's addresses inside the project, outside exports/, is one \`git add .\` from a commit.`,
      ],
      [
        'exports',
        `${path.join(project, 'exports')} is a folder: --output takes the path of a new file in it.`,
      ],
      [
        'README.md',
        `${path.join(project, 'README.md')} exists, and export never writes over a file: name a new one.`,
      ],
    ]) {
      const refused = await cli(`export --output ${output}`, { ...env, INIT_CWD: project })
      expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 2, stdout: '' })
      expect(refused.said).toEqual([expect.stringContaining(`waitlist: ${says}`)])
    }
    expect(existsSync(path.join(project, 'mine.csv'))).toBe(false)
  })

  it('--with-erasures names itself where a list and a backup are mistaken for each other', async () => {
    await writeFile(
      path.join(here, 'backup.json'),
      '{"erasure_key": "ab", "erasures": [], "list": []}',
    )
    const backup = await cli('import backup.json', env)
    expect(backup).toMatchObject({ code: 2, stdout: '' })
    expect(backup.said.at(-1)).toBe(
      'waitlist: the file is a backup with erasures, as export --with-erasures writes it: import it with --with-erasures.',
    )
    await writeFile(path.join(here, 'plain.csv'), 'email,source\nben@example.com,cta_section\n')
    const list = await cli('import --with-erasures plain.csv', env)
    expect(list).toMatchObject({ code: 2, stdout: '' })
    expect(list.said.at(-1)).toBe(
      'waitlist: import --with-erasures reads a backup, the JSON object export --with-erasures writes; this file is not one: leave out --with-erasures to import a list.',
    )
  })
})

describe('the smaller edges', () => {
  it('a folder under /proc is answered at once, and the command ends', async () => {
    const { status, said } = await cliProcess(['count'], { WAITLIST_DATA_DIR: '/proc/waitlist' })
    expect(status).toBe(2)
    expect(said[0]).toMatch(/^waitlist: \/proc\/waitlist holds no list, and the commands make none/)
  })

  it('a connection string without its scheme is said with what to change', async () => {
    const { code, said } = await cli('count', {
      SUPABASE_DB_URL: 'postgres.abc:secret@127.0.0.1:1/postgres',
      SUPABASE_URL: 'http://127.0.0.1:54321',
      SUPABASE_ANON_KEY: 'sb_publishable_local',
    })
    expect(code).toBe(1)
    expect(said).toEqual([
      expect.stringMatching(/^waitlist: SUPABASE_DB_URL does not start with postgresql:\/\//),
    ])
  })
})
