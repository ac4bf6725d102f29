import { readFile } from 'node:fs/promises'
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { Server } from './servers'

/**
 * The site's own prerendered `/` with every script taken out: no `<script>`
 * element (Next's chunks, its inline RSC payload, the JSON-LD) and no hint
 * that fetches one. What is left (the HTML, its inlined CSS, the stylesheet,
 * the icons) is the floor for this content: no script can paint it sooner.
 */
export function stripScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*\bas="script"[^>]*>/gi, '')
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, '')
}

/**
 * Serves {@link stripScripts} of the built site's `/` on `port`, and passes
 * every other request (the stylesheet, the icons) to the running site, so
 * both pages load the same files from the same build.
 */
export async function startScriptFree(siteUrl: string, port: number): Promise<Server> {
  const built = await readFile(path.join('.next', 'server', 'app', 'index.html'), 'utf8')
  const page = stripScripts(built)
  if (/<script\b/i.test(page)) throw new Error('A script survived the stripping of index.html')
  const site = new URL(siteUrl)

  const server = createServer((request, response) => {
    if (request.url === '/' || request.url?.startsWith('/?')) {
      // Uncompressed, with the site's page's caching: the front (brotli.ts) compresses both alike.
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 's-maxage=31536000',
      })
      response.end(page)
      return
    }
    // Passed through byte for byte, compression and caching headers included.
    const upstream = httpRequest(
      {
        host: site.hostname,
        port: site.port,
        path: request.url,
        method: request.method,
        headers: { ...request.headers, host: site.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    upstream.on('error', (error) => response.writeHead(502).end(String(error)))
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const { port: bound } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${bound}/`, stop: () => void server.close() }
}
