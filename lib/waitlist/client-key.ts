import { createHmac, randomBytes } from 'node:crypto'
import type { StoreConfig } from '@/lib/env'

/**
 * The secret a visitor's address is hashed with before it names them to the
 * database. Every instance of a deployment must derive the same one, or each
 * would count a visitor under another key: on Supabase it is the project's
 * public key, which every instance has and which needs no setting of its own;
 * the embedded database belongs to one process, which draws a random one.
 */
export function clientKeySecret(store: StoreConfig): string {
  return store.kind === 'supabase' ? store.key : randomBytes(32).toString('hex')
}

/**
 * The visitor as the database knows them: an HMAC-SHA-256 of their address,
 * 43 URL-safe characters. The address itself never leaves the server.
 */
export function clientKey(address: string, secret: string): string {
  return createHmac('sha256', secret).update(`waitlist client ${address}`).digest('base64url')
}
