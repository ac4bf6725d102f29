import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import {
  createSecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type OutgoingHttpHeaders,
} from 'node:http2'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, constants } from 'node:zlib'
import { selfSignedCertificate } from '../tests/support/self-signed'
import type { Server } from './servers'

/**
 * Brotli at quality 5, a level for compressing on the fly: what a visitor's
 * browser receives from Vercel's edge is in this range (the page's HTML: 13.4
 * KB at 5, 12 KB at 11, 26.5 KB as next start's gzip).
 */
const QUALITY = 5

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/

/** What the edge keeps: answers whose cache headers let it keep them. */
const CACHEABLE = /\b(s-maxage|max-age)=[1-9]|\bimmutable\b/

/** Headers of HTTP/1.1's connection handling, which HTTP/2 forbids. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']

/** The browser must be started with this flag to accept the front's certificate, made for the run. */
export const ACCEPT_SELF_SIGNED = '--ignore-certificate-errors'

type Answer = { status: number; headers: OutgoingHttpHeaders; body: Buffer }

/** {@link selfSignedCertificate}, with what to do when it cannot be made. */
function certificate(): { key: Buffer; cert: Buffer } {
  try {
    return selfSignedCertificate()
  } catch (error) {
    throw new Error(
      'The bench serves its pages over HTTPS and needs openssl to make a certificate',
      {
        cause: error,
      },
    )
  }
}

/** What a front changes in the scripts it serves: the body of each, by its path. */
export type ScriptRewrite = (path: string, script: Buffer) => Buffer

/**
 * Serves `upstreamUrl` on `port` the way Vercel's edge serves a deployment:
 * over HTTPS with HTTP/2, text compressed with brotli for a browser that
 * accepts it, everything else byte for byte, and what may be cached (the
 * build's files, a prerendered page) answered from memory after the first
 * request. The upstream is asked for its uncompressed answer, so the pages
 * compared are all served alike, whatever their server does itself.
 * `rewrite`, if given, changes each script (`/_next/….js`) before that.
 */
export async function serveLikeTheEdge(
  upstreamUrl: string,
  port: number,
  rewrite?: ScriptRewrite,
): Promise<Server> {
  const upstream = new URL(upstreamUrl)
  const cache = new Map<string, Answer>()

  function send(response: Http2ServerResponse, answer: Answer) {
    response.writeHead(answer.status, answer.headers).end(answer.body)
  }

  function handle(request: Http2ServerRequest, response: Http2ServerResponse) {
    const accepts = /\bbr\b/.test(String(request.headers['accept-encoding']))
    const key = `${accepts ? 'br' : 'identity'} ${request.url}`
    const cached = request.method === 'GET' ? cache.get(key) : undefined
    if (cached) return send(response, cached)

    const headers: IncomingHttpHeaders = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (!name.startsWith(':')) headers[name] = value as string
    }
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: request.url,
        method: request.method,
        headers: { ...headers, host: upstream.host, 'accept-encoding': 'identity' },
      },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const received = Buffer.concat(chunks)
          const script = answer.statusCode === 200 && /^\/_next\/.*\.js$/.test(request.url)
          const plain = rewrite && script ? rewrite(request.url, received) : received
          const out: OutgoingHttpHeaders = { ...answer.headers }
          for (const name of HOP_BY_HOP) delete out[name]
          const compress = accepts && COMPRESSIBLE.test(String(out['content-type'] ?? ''))
          const body = compress
            ? brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY } })
            : plain
          if (compress) {
            out['content-encoding'] = 'br'
            out.vary = [out.vary, 'Accept-Encoding'].filter(Boolean).join(', ')
          }
          out['content-length'] = String(body.length)
          const sent: Answer = { status: answer.statusCode ?? 502, headers: out, body }
          const cacheable = CACHEABLE.test(String(out['cache-control'] ?? ''))
          if (request.method === 'GET' && sent.status === 200 && cacheable) cache.set(key, sent)
          send(response, sent)
        })
      },
    )
    forward.on('error', (error) => response.writeHead(502).end(String(error)))
    request.pipe(forward)
  }

  const server = createSecureServer({ ...certificate(), allowHTTP1: true }, handle)
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const { port: bound } = server.address() as AddressInfo
  return { url: `https://127.0.0.1:${bound}/`, stop: () => void server.close() }
}
