import { Writable } from 'node:stream'

/** A writable that keeps what it is given, optionally as slowly as a full pipe. */
export function sink(options: { highWaterMark?: number; onWrite?: (chunk: string) => void } = {}) {
  const chunks: string[] = []
  const stream = new Writable({
    highWaterMark: options.highWaterMark ?? 16_384,
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      const text = chunk.toString()
      chunks.push(text)
      options.onWrite?.(text)
      setImmediate(done)
    },
  })
  return { stream, chunks, text: () => chunks.join('') }
}
