import type { NetworkInterfaceInfo } from 'node:os'

/** A comma-separated list of extra host names the development server serves its scripts to. */
export const DEV_ORIGINS_VAR = 'ALLOWED_DEV_ORIGINS'

/**
 * The hosts `next dev` may serve its scripts and hot reload to, besides
 * `localhost` (which Next always allows): every address of this machine, so
 * the page hydrates at http://127.0.0.1:3000 and at the LAN address a phone on
 * the same network opens; the machine's own name; and any names listed in
 * {@link DEV_ORIGINS_VAR}.
 *
 * Next 16 compares these with the host name of the page's Origin (or Referer)
 * only, never the port; an entry may start with `*.` or `**.` for subdomains,
 * and a bare `*` matches nothing. An IPv6 address matches only as a URL
 * writes it, in brackets. Link-local IPv6 addresses need a zone that no
 * browser puts in a URL, so they are left out.
 */
export function devOrigins(
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>,
  machineName: string,
  extra = '',
): string[] {
  const addresses = Object.values(interfaces)
    .flatMap((entries) => entries ?? [])
    .filter((entry) => entry.family === 'IPv4' || entry.scopeid === 0)
    .map((entry) => (entry.family === 'IPv4' ? entry.address : urlHost(`[${entry.address}]`)))
  const named = extra
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map(hostOf)
  return [...new Set([...addresses, machineName.toLowerCase(), ...named].filter(Boolean))]
}

function urlHost(host: string): string {
  return new URL(`http://${host}`).hostname
}

/** The host name of an entry, so `http://laptop.local:3000` or `fd00::7` work as well as `laptop.local`. */
function hostOf(entry: string): string {
  let host: string
  try {
    const bareIpv6 = !entry.includes('[') && entry.split(':').length > 2
    host = entry.includes('://')
      ? new URL(entry).hostname
      : urlHost(bareIpv6 ? `[${entry}]` : entry)
  } catch {
    throw new Error(`${DEV_ORIGINS_VAR}: "${entry}" is not a host name.`)
  }
  if (host === '*' || host === '**') {
    throw new Error(
      `${DEV_ORIGINS_VAR}: "${entry}" would match any host; name the hosts, or *.domain for subdomains.`,
    )
  }
  return host
}
