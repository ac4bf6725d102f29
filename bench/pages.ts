/**
 * The pages the benches load, each served as Vercel's edge serves it (bench/edge.ts): the site and
 * the minimal page, each as built and with the compile hint added or taken off, so that every
 * comparison can be made like for like, and the site's `/` without scripts, the floor.
 */
import { COMPILE_HINT, hintedScripts } from '../scripts/compile-hints'
import { serveLikeTheEdge, type ScriptRewrite } from './edge'
import { startScriptFree } from './script-free'
import { start, type Server } from './servers'

export const PAGES = {
  site: '`/` as `next build` ships it: its start-up scripts carry the compile hint',
  'site-unhinted': 'the same build, every script served without the hint',
  'site-all-hinted': 'the same build, every script hinted, those loaded later too',
  minimal: 'bench/minimal as `next build` leaves it: Next as released',
  'minimal-hinted':
    'the same build, its start-up scripts hinted as scripts/compile-hints.ts hints them',
  'script-free': "the site's `/` with every script taken out (bench/script-free.ts)",
} as const
export type PageName = keyof typeof PAGES
export const pageNames = Object.keys(PAGES) as PageName[]

const hint = COMPILE_HINT
const withHint: ScriptRewrite = (_, script) =>
  script.toString('utf8').startsWith(hint) ? script : Buffer.concat([Buffer.from(hint), script])
const withoutHint: ScriptRewrite = (_, script) =>
  script.toString('utf8').startsWith(hint) ? script.subarray(Buffer.byteLength(hint)) : script

/** The start-up scripts of the build in `distDir` hinted, the rest left as built. */
async function startupHinted(distDir: string): Promise<ScriptRewrite> {
  const urls = new Set((await hintedScripts(distDir)).map((file) => `/_next/${file}`))
  return (url, script) => (urls.has(url) ? withHint(url, script) : script)
}

/**
 * Serves `names` from ports `port` on (the site's and the minimal page's `next start` at `port`
 * and `port + 1`, the script-free copy at `port + 2`, each page's front at `port + 3` and after),
 * from the builds already in `.next` and `bench/minimal/.next`.
 */
export async function servePages(names: PageName[], port: number) {
  const servers: Server[] = []
  const stop = () => servers.forEach((server) => server.stop())
  try {
    const needs = (prefix: string) => names.some((name) => name.startsWith(prefix))
    const site = needs('site') || needs('script-free') ? await start('.', port) : undefined
    const minimal = needs('minimal') ? await start('bench/minimal', port + 1) : undefined
    servers.push(...[site, minimal].filter((server) => server !== undefined))
    const upstreams: Record<PageName, () => Promise<[Server, ScriptRewrite?]>> = {
      site: async () => [site!],
      'site-unhinted': async () => [site!, withoutHint],
      'site-all-hinted': async () => [site!, withHint],
      minimal: async () => [minimal!],
      'minimal-hinted': async () => [minimal!, await startupHinted('bench/minimal/.next')],
      'script-free': async () => {
        const copy = await startScriptFree(site!.url, port + 2)
        servers.push(copy)
        return [copy]
      },
    }
    const urls: Partial<Record<PageName, string>> = {}
    for (const name of names) {
      const [upstream, rewrite] = await upstreams[name]()
      const front = await serveLikeTheEdge(
        upstream.url,
        port + 3 + pageNames.indexOf(name),
        rewrite,
      )
      servers.push(front)
      urls[name] = front.url
    }
    return { urls: urls as Record<PageName, string>, stop }
  } catch (error) {
    stop()
    throw error
  }
}
