import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { serverConfig, type Env } from '@/lib/env'
import { cli } from './support/cli'
import { muteFolder } from './support/mute-folder'
import { siteFolder } from './support/site-signups'
import { cliProcess } from './support/processes'
import { startServerWith } from './support/server-start'

/** Where the operator could hurt the wrong list, or be left with a sentence that says nothing to change. */

const SITE = 'abcdefghijklmnopqrst'
const OTHER = 'zyxwvutsrqponmlkjihg'
/** An operator's laptop: the site on project SITE, SUPABASE_DB_URL on OTHER through the session pooler. */
const laptop = {
  NEXT_PUBLIC_SUPABASE_URL: `https://${SITE}.supabase.co`,
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_x',
  SUPABASE_DB_URL: `postgresql://postgres.${OTHER}:secret@aws-0-eu-central-1.pooler.supabase.com:5432/postgres?sslmode=require&uselibpqcompat=true`,
  WAITLIST_SIGNING_SECRET: 'x'.repeat(43),
}
/** A list of one, for the commands that read one. */
const BEN = 'email,source\nben@example.com,cta_section\n'
/** Past the guards, a command meets the database: here nothing listens where the pooler would be. */
const unreachable = `postgresql://postgres.${OTHER}:secret@127.0.0.1:1/postgres`
const pastTheGuard = {
  code: 1,
  stdout: '',
  said: [
    expect.stringMatching(
      /^waitlist: nothing answers at 127\.0\.0\.1:1 \(ECONNREFUSED\): check the host and port in SUPABASE_DB_URL; for Supabase take the session pooler's string/,
    ),
  ],
}

describe('one project per changing command', () => {
  it.each([
    'remove ann@example.com',
    'import -',
    'signing-secret --set',
    'signing-secret --retire-previous',
  ])('%s refuses, --list supabase or not, naming both projects', async (command) => {
    for (const list of ['', ' --list supabase']) {
      expect(await cli(command + list, laptop, BEN)).toMatchObject({
        code: 2,
        stdout: '',
        said: [
          `waitlist: ${command.split(' ')[0]} changed nothing: SUPABASE_DB_URL names Supabase project ${OTHER}, and the site here writes to Supabase project ${SITE} (NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY, signed). Add --project ${OTHER} to act on it all the same, or set SUPABASE_DB_URL to project ${SITE}'s connection string.`,
        ],
      })
    }
  })

  it('--project acts on the project it names, and only if SUPABASE_DB_URL is that one', async () => {
    expect(await cli(`remove ann@example.com --project ${SITE}`, laptop)).toMatchObject({
      code: 2,
      stdout: '',
      said: [
        `waitlist: --project ${SITE}, but SUPABASE_DB_URL names Supabase project ${OTHER}: set it to project ${SITE}'s connection string (its pooler user is postgres.${SITE}).`,
      ],
    })
    const named = await cli(`remove ann@example.com --project ${OTHER}`, {
      ...laptop,
      SUPABASE_DB_URL: unreachable,
    })
    expect(named).toMatchObject(pastTheGuard)
  })

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
      // Which commands change the list, the refusals above prove each by name.
      expect(await cli('remove dan@example.com', env)).toMatchObject({
        code: 2,
        stdout: '',
        said: [
          `waitlist: remove changed nothing: it cannot tell that SUPABASE_DB_URL's ${names} is the project the site writes to, as ${why}. If it is, say so with --project <ref> (the project's ref, or the name of a database of your own).`,
        ],
      })
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
      expect(command).toMatchObject({
        code: 1,
        stdout: '',
        said: [expect.stringContaining(`waitlist: WAITLIST_DATA_DIR names ${folder}, ${says}`)],
      })

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
      expect(stuck).toMatchObject({
        code: 1,
        stdout: '',
        said: [
          expect.stringMatching(
            /^waitlist: the embedded database in .* did not answer within 300 ms \(WAITLIST_STORE_TIMEOUT_MS\)/,
          ),
        ],
      })
    } finally {
      await release()
    }
  })

  it('under /proc, is answered at once, and the command ends', async () => {
    const { status, said } = await cliProcess(['count'], { WAITLIST_DATA_DIR: '/proc/waitlist' })
    expect(status).toBe(2)
    expect(said[0]).toMatch(/^waitlist: \/proc\/waitlist holds no list, and the commands make none/)
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
    await writeFile(path.join(here, 'list.csv'), BEN)
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
      expect(await cli(`export --output ${output}`, { ...env, INIT_CWD: project })).toMatchObject({
        code: 2,
        stdout: '',
        said: [expect.stringContaining(`waitlist: ${says}`)],
      })
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
    await writeFile(path.join(here, 'plain.csv'), BEN)
    const list = await cli('import --with-erasures plain.csv', env)
    expect(list).toMatchObject({ code: 2, stdout: '' })
    expect(list.said.at(-1)).toBe(
      'waitlist: import --with-erasures reads a backup, the JSON object export --with-erasures writes; this file is not one: leave out --with-erasures to import a list.',
    )
  })
})
