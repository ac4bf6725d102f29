import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { anchors, githubSlug, links } from './support/markdown'

/**
 * The README is what a newcomer reads first, and it sends them on to docs/:
 * every relative link in them must lead to a file that exists and, when it
 * names a heading of a Markdown file, to a heading that is there.
 */
const docs = readdirSync('docs')
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`)
const files = ['README.md', 'exports/README.md', ...docs]

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i

/** What is wrong with one link from `from`, or undefined when it leads somewhere real. */
function brokenLink(from: string, target: string): string | undefined {
  if (EXTERNAL.test(target)) return undefined
  const hash = target.indexOf('#')
  const file = decodeURIComponent(hash === -1 ? target : target.slice(0, hash))
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1))
  const resolved = file ? path.join(path.dirname(from), file) : from
  if (!existsSync(resolved)) return `${resolved} does not exist`
  if (anchor === undefined || !resolved.endsWith('.md')) return undefined
  if (!anchors(readFileSync(resolved, 'utf8')).has(anchor)) {
    return `${resolved} has no heading whose anchor is #${anchor}`
  }
  return undefined
}

describe('the links of the README and docs/', () => {
  it.each(files)('%s links only to files and headings that exist', (file) => {
    const text = readFileSync(file, 'utf8')
    const broken = links(text).flatMap(({ target, line }) => {
      const why = brokenLink(file, target)
      return why ? [`${file}:${line} (${target}): ${why}`] : []
    })
    expect(broken).toEqual([])
  })

  it('finds links of every kind, and catches a broken one', () => {
    const sample = [
      '[a doc](docs/operating.md), [a heading](docs/operating.md#the-signup-list),',
      '[here](#run-it), [a folder](supabase/migrations), [away](https://example.com) and',
      '[mail](mailto:someone@example.com); `[code](not-a-link.md)`',
      '```sh',
      '[fenced](not-a-link-either.md)',
      '```',
      '[ref]: docs/deploying.md#open-tabs-across-a-deploy',
    ].join('\n')
    expect(links(sample).map(({ target }) => target)).toEqual([
      'docs/operating.md',
      'docs/operating.md#the-signup-list',
      '#run-it',
      'supabase/migrations',
      'https://example.com',
      'mailto:someone@example.com',
      'docs/deploying.md#open-tabs-across-a-deploy',
    ])
    for (const { target } of links(sample)) expect(brokenLink('README.md', target)).toBeUndefined()

    expect(brokenLink('README.md', 'docs/no-such-file.md')).toMatch(/does not exist/)
    expect(brokenLink('README.md', 'docs/operating.md#no-such-heading')).toMatch(/no heading/)
    expect(brokenLink('README.md', '#no-such-heading')).toMatch(/no heading/)
    expect(brokenLink('docs/operating.md', 'operating.md#the-signup-list')).toBeUndefined()
    expect(brokenLink('docs/operating.md', 'docs/operating.md')).toMatch(/does not exist/)
  })

  it('gives headings the anchors GitHub gives them', () => {
    expect(githubSlug("The database's limits")).toBe('the-databases-limits')
    expect(githubSlug('In front of the site: the Vercel Firewall or a reverse proxy')).toBe(
      'in-front-of-the-site-the-vercel-firewall-or-a-reverse-proxy',
    )
    expect(githubSlug('Load (npm run bench:load)')).toBe('load-npm-run-benchload')
    expect(githubSlug('The `waitlist_private` schema')).toBe('the-waitlist_private-schema')
    expect(anchors('# A\n## Same\n## Same\n```sh\n# not a heading\n```')).toEqual(
      new Set(['a', 'same', 'same-1']),
    )
  })
})

/** Words as a reader counts them: what is between spaces, code and tables included. */
function words(file: string): number {
  return readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).length
}

describe('what a newcomer reads', () => {
  it('keeps the README to two minutes: 700 words at most', () => {
    expect(words('README.md')).toBeLessThanOrEqual(700)
  })

  it('keeps docs/performance.md a reference: 1,200 words at most', () => {
    expect(words('docs/performance.md')).toBeLessThanOrEqual(1200)
  })

  it('leads from the README to every file in docs/', () => {
    const readme = readFileSync('README.md', 'utf8')
    const linked = new Set(links(readme).map(({ target }) => path.join(target.split('#')[0] ?? '')))
    expect(docs.filter((doc) => !linked.has(doc))).toEqual([])
  })
})
