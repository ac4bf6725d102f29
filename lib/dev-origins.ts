import type { NetworkInterfaceInfo } from 'node:os'

/**
 * The hosts `next dev` serves its scripts and hot reload to, besides
 * localhost: every address of this machine (so the page hydrates at
 * 127.0.0.1, and at the address a phone on the same network opens), its name,
 * and the names in `ALLOWED_DEV_ORIGINS` (comma-separated; `*.example.com` for
 * subdomains). Next compares them with the page's host name, never its port;
 * an IPv6 address as a URL writes it, in brackets. Link-local IPv6 addresses
 * need a zone no browser puts in a URL, so they are left out.
 */
export function devOrigins(
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>,
  machineName: string,
  extra = '',
): string[] {
  const addresses = Object.values(interfaces)
    .flatMap((entries) => entries ?? [])
    .filter((entry) => entry.family === 'IPv4' || entry.scopeid === 0)
    .map((entry) =>
      entry.family === 'IPv4' ? entry.address : new URL(`http://[${entry.address}]`).hostname,
    )
  const named = extra.split(',').map((entry) =>
    entry
      .trim()
      .replace(/^[a-z]+:\/\//i, '')
      .replace(/[:/].*$/, ''),
  )
  return [...new Set([...addresses, machineName.toLowerCase(), ...named].filter(Boolean))]
}
