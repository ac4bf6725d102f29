import { createHmac } from 'node:crypto'
import { isIPv4, isIPv6 } from 'node:net'
import type { ServerConfig } from '@/lib/env'
import type { WaitlistEntry } from './schema'

/** The client's address (IPv6 by its /64, which one household holds whole), trusted if a proxy wrote it. */
export type Visitor = { address?: string; trusted: boolean }

export function identifyVisitor(headers: Headers, proxies: ServerConfig['proxies']): Visitor {
  const forwarded = (headers.get('x-forwarded-for') ?? '').split(',').map((entry) => entry.trim())
  const named = forwarded.filter(Boolean)
  if (proxies === 'vercel')
    return { address: normalise(headers.get('x-real-ip') ?? named[0]), trusted: true }
  // Each proxy appends the address it was reached from: the client's is `proxies` from the right.
  if (proxies > 0 && named.length >= proxies)
    return { address: normalise(named[named.length - proxies]), trusted: true }
  return { address: normalise(named[0] ?? headers.get('x-real-ip') ?? undefined), trusted: false }
}

/** `[2001:DB8::1]:443` → `2001:db8:0:0::/64`; `::ffff:192.0.2.1` → `192.0.2.1`; not an address → undefined. */
export function normalise(raw: string | undefined): string | undefined {
  let text = (raw ?? '').trim().toLowerCase()
  text =
    /^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1] ?? text.replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1')
  text = text.replace(/%.*$/, '')
  if (isIPv4(text)) return text
  if (!isIPv6(text)) return undefined
  // The URL parser writes it in hex, a dotted tail included, its longest run of zeros as `::`.
  const [head, tail] = new URL(`http://[${text}]`).hostname.slice(1, -1).split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const zeros = Array<string>(8 - left.length - right.length).fill('0')
  const groups = [...left, ...zeros, ...right].map((group) => parseInt(group, 16))
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.')
  const prefix = groups.slice(0, 4).map((g) => g.toString(16))
  return `${prefix.join(':')}::/64`
}

/** The visitor as the database knows them: an HMAC of the address, never the address. */
function clientKey(address: string, secret: string): string {
  return createHmac('sha256', secret).update(`waitlist client ${address}`).digest('base64url')
}

export type Signing = { perMinute: number; hashSecret: string; signingSecret?: string }

/** The signature tells the site's insert from anyone else's with the public key. */
export function visitorHeaders(entry: WaitlistEntry, visitor: Visitor, signing: Signing) {
  const headers: Record<string, string> = {}
  // A visitor with an address gets the allowance; without one, or with no limit per visitor, only the ceiling.
  let client = ''
  let allowance = ''
  if (visitor.address && signing.perMinute > 0) {
    client = clientKey(visitor.address, signing.hashSecret)
    allowance = String(signing.perMinute)
    headers['x-waitlist-client'] = client
    headers['x-waitlist-allowance'] = allowance
  }
  if (signing.signingSecret) {
    const issued = String(Math.floor(Date.now() / 1000))
    const trusted = visitor.trusted && client ? '1' : '0'
    const signed = [issued, trusted, client, allowance, entry.email, entry.source].join('\n')
    const mac = createHmac('sha256', signing.signingSecret).update(signed).digest('hex')
    headers['x-waitlist-signature'] = `${issued}.${trusted}.${mac}`
  }
  return headers
}

const MINUTE = 60_000
const counted = { minute: 0, posts: new Map<string, number>(), before: new Map<string, number>() }

/** A visitor's posts in the last 60 s, counted in memory by the database's rule, before its limits. */
export function admitPost(visitor: Visitor, perMinute: number): boolean {
  if (perMinute <= 0) return true
  const now = Date.now()
  const minute = Math.floor(now / MINUTE)
  if (counted.minute !== minute || counted.posts.size >= 10_000) {
    counted.before = counted.minute === minute - 1 ? counted.posts : new Map()
    counted.minute = minute
    counted.posts = new Map()
  }
  const who = visitor.address ?? 'unknown'
  const posts = (counted.posts.get(who) ?? 0) + 1
  counted.posts.set(who, posts)
  const earlier = (counted.before.get(who) ?? 0) * (1 - (now % MINUTE) / MINUTE)
  return earlier + posts <= perMinute
}
