/**
 * The request headers `next/headers` hands the action in tests. A test file
 * mocks `next/headers` with {@link requestHeaders} and picks the client with
 * {@link fromClient}. The state lives on `globalThis` because a test that
 * starts a fresh server resets modules, and the mock then loads its own copy
 * of this file.
 */
const state = ((globalThis as { testRequest?: { current: Headers; next: number } }).testRequest ??=
  { current: new Headers({ 'x-forwarded-for': '192.0.2.1' }), next: 0 })

export async function requestHeaders(): Promise<Headers> {
  return state.current
}

export function fromClient(address: string): void {
  state.current = new Headers({ 'x-forwarded-for': address })
}

/** A client address of its own for each test, so the rate limit never carries over between tests. */
export function freshClient(): string {
  state.next += 1
  const address = `test-client-${state.next}`
  fromClient(address)
  return address
}
