import type { NetworkInterfaceInfo } from 'node:os'

/** The hosts besides localhost `next dev` serves its scripts to, as Next compares them: no port. */
export function devOrigins(
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>,
  machineName: string,
  extra = '',
): string[] {
  const addresses = Object.values(interfaces)
    .flatMap((entries) => entries ?? [])
    // A link-local IPv6 address needs a zone no browser puts in a URL.
    .filter((entry) => entry.family === 'IPv4' || entry.scopeid === 0)
    .map((entry) =>
      entry.family === 'IPv4' ? entry.address : new URL(`http://[${entry.address}]`).hostname,
    )
  const named = extra.split(',').map((entry) => entry.trim().replace(/^[a-z]+:\/\/|[:/].*$/gi, ''))
  return [...new Set([...addresses, machineName.toLowerCase(), ...named].filter(Boolean))]
}
