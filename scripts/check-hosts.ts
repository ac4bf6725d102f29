/**
 * Proves that every host serves the page `next build` writes. Builds the site
 * three ways, the way each host collects it, and compares what the `<head>` of
 * `/` and of the not-found page asks the browser for: every stylesheet,
 * inlined style (by a hash of its text), script and preload, in order; and
 * checks that every script the head asks a modern browser for is served with
 * its compile hint (scripts/compile-hints.ts, added inside `next build`).
 *   1. `next build`, as `next start` and any Node host serve it;
 *   2. `vercel build`, Vercel's Next.js builder, run offline;
 *   3. `vercel build` with Next's build adapter (`NEXT_ENABLE_ADAPTER=1`),
 *      which copies the pages out during `next build`.
 *   npm run check:hosts
 * The Vercel CLI (VERCEL_CLI_VERSION) is installed into node_modules/.cache on
 * first use. The builds share one server-action key, so their chunks carry the
 * same names. It builds in place: `.next` is left as `next build` made it, and
 * a `.vercel` folder of the project's own (`vercel link`) is put back after.
 */
import { spawnSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Window } from 'happy-dom'
import { COMPILE_HINT } from './compile-hints'
import { scriptSources } from './check-size'

/** The newest Vercel CLI whose dependencies all install from the npm registry alone. */
export const VERCEL_CLI_VERSION = '60.1.3'

type Build = {
  name: string
  pages: Record<PageName, string>
  /** The file the host serves at a script's URL (`/_next/static/…`). */
  served: (url: string) => string
  run: () => void
}
type PageName = '/' | 'not-found'

/** What a page's `<head>` asks the browser to fetch or apply, one line a tag, in document order. */
export function headRequests(html: string): string[] {
  const window = new Window()
  try {
    const document = new window.DOMParser().parseFromString(html, 'text/html')
    const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12)
    return [...document.head.querySelectorAll('link, style, script')].flatMap((tag) => {
      const attribute = (name: string) => tag.getAttribute(name) ?? ''
      switch (tag.tagName.toLowerCase()) {
        case 'link':
          return /^(stylesheet|preload|modulepreload)$/.test(attribute('rel'))
            ? [`link rel=${attribute('rel')} as=${attribute('as')} href=${attribute('href')}`]
            : []
        case 'style':
          return [`style href=${attribute('data-href')} text=${hash(tag.textContent ?? '')}`]
        default:
          return [
            attribute('src')
              ? `script src=${attribute('src')}${tag.hasAttribute('async') ? ' async' : ''}${tag.hasAttribute('nomodule') ? ' nomodule' : ''}`
              : `script inline text=${hash(tag.textContent ?? '')}`,
          ]
      }
    })
  } finally {
    void window.happyDOM.close()
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`)
}

function vercelCli(): string {
  const prefix = path.resolve('node_modules/.cache', `vercel-${VERCEL_CLI_VERSION}`)
  const bin = path.join(prefix, 'node_modules/.bin/vercel')
  if (!existsSync(bin)) {
    console.log(`Installing vercel@${VERCEL_CLI_VERSION} into ${prefix} ...`)
    run(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-package-lock',
        `vercel@${VERCEL_CLI_VERSION}`,
      ],
      process.env,
    )
  }
  return bin
}

/** Runs `body` with a `.vercel/project.json` for an offline build, then puts back any `.vercel` there was. */
function withOfflineProject(body: () => void): void {
  const own = existsSync('.vercel') ? `.vercel-own-${process.pid}` : undefined
  if (own) renameSync('.vercel', own)
  try {
    mkdirSync('.vercel')
    const project = {
      projectId: 'prj_offline',
      orgId: 'team_offline',
      settings: { framework: 'nextjs' },
    }
    writeFileSync('.vercel/project.json', `${JSON.stringify(project)}\n`)
    body()
  } finally {
    rmSync('.vercel', { recursive: true, force: true })
    if (own) renameSync(own, '.vercel')
  }
}

function builds(): Build[] {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  }
  const vercelPages = {
    '/': '.vercel/output/functions/index.prerender-fallback.html',
    'not-found': '.vercel/output/static/404.html',
  } as const
  const vercelServed = (url: string) => path.join('.vercel/output/static', url)
  // An unset variable (undefined) is left out of the child's environment.
  const vercel = (adapter: boolean) => () =>
    run(vercelCli(), ['build', '--yes'], { ...env, NEXT_ENABLE_ADAPTER: adapter ? '1' : undefined })
  return [
    { name: 'vercel build', pages: vercelPages, served: vercelServed, run: vercel(false) },
    {
      name: 'vercel build, build adapter',
      pages: vercelPages,
      served: vercelServed,
      run: vercel(true),
    },
    {
      name: 'next build',
      pages: {
        '/': '.next/server/app/index.html',
        'not-found': '.next/server/app/_not-found.html',
      },
      served: (url) => url.replace(/^\/_next\//, '.next/'),
      run: () => run('npx', ['next', 'build'], env),
    },
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const heads: Record<string, Record<PageName, string[]>> = {}
  const unhinted: string[] = []
  withOfflineProject(() => {
    for (const build of builds()) {
      console.log(`Building: ${build.name} ...`)
      build.run()
      const html = {
        '/': readFileSync(build.pages['/'], 'utf8'),
        'not-found': readFileSync(build.pages['not-found'], 'utf8'),
      }
      heads[build.name] = {
        '/': headRequests(html['/']),
        'not-found': headRequests(html['not-found']),
      }
      const scripts = new Set([...scriptSources(html['/']), ...scriptSources(html['not-found'])])
      const missing = [...scripts].filter(
        (url) => !readFileSync(build.served(url), 'utf8').startsWith(COMPILE_HINT),
      )
      if (missing.length) unhinted.push(`${build.name}: ${missing.join(', ')}`)
    }
  })
  const reference = heads['next build']!
  let differs = unhinted.length > 0
  unhinted.forEach((line) => console.log(`Served without its compile hint, ${line}`))
  for (const page of ['/', 'not-found'] as const) {
    console.log(`\nThe head of ${page}, as next build writes it:`)
    reference[page].forEach((line) => console.log(`  ${line}`))
    for (const [name, head] of Object.entries(heads)) {
      const same = JSON.stringify(head[page]) === JSON.stringify(reference[page])
      differs ||= !same
      console.log(`${same ? 'same' : 'DIFFERENT'}: ${name}`)
      if (!same) head[page].forEach((line) => console.log(`  ${line}`))
    }
  }
  if (differs) {
    console.error(
      '\nA host would serve other pages or scripts than next build wrote and the tests measured.',
    )
    process.exit(1)
  }
}
