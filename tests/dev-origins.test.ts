import { expect, it } from 'vitest'
import { devOrigins } from '@/lib/dev-origins'

it('names every address of the machine a browser can open, its name, and the ones asked for', () => {
  const interfaces = {
    lo: [
      { address: '127.0.0.1', family: 'IPv4' },
      { address: '::1', family: 'IPv6', scopeid: 0 },
    ],
    eth0: [
      { address: '192.168.1.23', family: 'IPv4' },
      { address: 'fe80::1', family: 'IPv6', scopeid: 2 },
      { address: '2001:DB8::7', family: 'IPv6', scopeid: 0 },
    ],
  } as unknown as Parameters<typeof devOrigins>[0]
  expect(
    devOrigins(interfaces, 'Laptop', ' laptop.local, http://tunnel.example:3000 ,*.ngrok.app'),
  ).toEqual([
    '127.0.0.1',
    '[::1]',
    '192.168.1.23',
    '[2001:db8::7]',
    'laptop',
    'laptop.local',
    'tunnel.example',
    '*.ngrok.app',
  ])
})
