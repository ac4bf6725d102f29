/**
 * The request headers `next/headers` hands the action in tests. A test file
 * mocks `next/headers` with {@link requestHeaders} and picks the client with
 * {@link fromClient}.
 */
let current = new Headers({ 'x-forwarded-for': '192.0.2.1' })

export async function requestHeaders(): Promise<Headers> {
  return current
}

export function fromClient(address: string): void {
  current = new Headers({ 'x-forwarded-for': address })
}

let next = 0

/** A client address of its own for each test, so the rate limit never carries over between tests. */
export function freshClient(): string {
  next += 1
  const address = `test-client-${next}`
  fromClient(address)
  return address
}
