import type { IncomingMessage, ServerResponse } from 'node:http'
import type { NetworkInterfaceInfo } from 'node:os'
import { blockCrossSiteDEV } from 'next/dist/server/lib/router-utils/block-cross-site-dev'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { devOrigins } from '@/lib/dev-origins'

afterEach(() => vi.restoreAllMocks())

const v4 = (address: string, internal = false): NetworkInterfaceInfo => ({
  address,
  netmask: '255.255.255.0',
  family: 'IPv4',
  mac: '00:00:00:00:00:00',
  internal,
  cidr: `${address}/24`,
})
const v6 = (address: string, scopeid: number, internal = false): NetworkInterfaceInfo => ({
  address,
  netmask: 'ffff:ffff:ffff:ffff::',
  family: 'IPv6',
  mac: '00:00:00:00:00:00',
  internal,
  cidr: `${address}/64`,
  scopeid,
})

/** A laptop on Wi-Fi: loopback, a LAN address, a global IPv6 address and a link-local one. */
const laptop = {
  lo: [v4('127.0.0.1', true), v6('::1', 0, true)],
  wlan0: [v4('192.168.1.23'), v6('2001:DB8::23', 0), v6('fe80::1c2a:ff:fe00:1', 3)],
  docker0: [v4('172.17.0.1')],
}

describe('devOrigins', () => {
  it('names loopback, every LAN address and the machine, as Next matches them: host names, IPv6 in brackets', () => {
    expect(devOrigins(laptop, 'Annas-Laptop.local')).toEqual([
      '127.0.0.1',
      '[::1]',
      '192.168.1.23',
      '[2001:db8::23]',
      '172.17.0.1',
      'annas-laptop.local',
    ])
  })

  it('leaves out link-local IPv6, which no browser can put in a URL', () => {
    expect(devOrigins(laptop, 'x').some((host) => host.includes('fe80'))).toBe(false)
  })

  it('adds the hosts of an explicit list, without scheme or port, and no duplicates', () => {
    expect(
      devOrigins(
        { lo: [v4('127.0.0.1', true)] },
        'box',
        ' http://Preview.Example.com:3000 , *.ngrok-free.app,,box, 10.0.0.7:3000, fd00::7',
      ),
    ).toEqual([
      '127.0.0.1',
      'box',
      'preview.example.com',
      '*.ngrok-free.app',
      '10.0.0.7',
      '[fd00::7]',
    ])
  })

  it.each(['*', '**', 'http://*:3000'])('refuses %j, which would stand for any host', (entry) => {
    expect(() => devOrigins({}, 'box', entry)).toThrow(
      /ALLOWED_DEV_ORIGINS: .* would match any host/,
    )
  })

  it('names an entry that is no host at all', () => {
    expect(() => devOrigins({}, 'box', 'not a host')).toThrow(/ALLOWED_DEV_ORIGINS: "not a host"/)
  })
})

/**
 * The list as Next 16's dev server applies it: its own check, an internal
 * module of its package, so an upgrade that changes how it matches fails here.
 */
describe("Next's dev server, given the list", () => {
  /** Whether Next refuses the dev resource to a page at `origin`, as it would the hot-reload socket. */
  function blocks(origin: string, allowed: string[]): boolean {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const req = { url: '/_next/webpack-hmr', headers: { origin } } as unknown as IncomingMessage
    const res = { statusCode: 200, end: () => undefined } as unknown as ServerResponse
    return blockCrossSiteDEV(req, res, allowed, undefined)
  }

  const allowed = devOrigins(laptop, 'annas-laptop.local', '*.ngrok-free.app')

  it.each([
    'http://127.0.0.1:3000',
    'http://192.168.1.23:3000',
    'http://[::1]:3000',
    'http://[2001:db8::23]:4000',
    'http://annas-laptop.local:3000',
    'https://abc.ngrok-free.app',
    'http://localhost:3000',
  ])('serves a page at %s', (origin) => {
    expect(blocks(origin, allowed)).toBe(false)
  })

  it.each(['http://192.168.1.99:3000', 'https://attacker.example', 'http://ngrok-free.app'])(
    'still refuses a page at %s',
    (origin) => {
      expect(blocks(origin, allowed)).toBe(true)
    },
  )

  it('refuses 127.0.0.1 without the list: the failure the list exists for', () => {
    expect(blocks('http://127.0.0.1:3000', [])).toBe(true)
  })
})
