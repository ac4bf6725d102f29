import { execFileSync } from 'node:child_process'
import { mkdtempDisposableSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** A key and a certificate for 127.0.0.1 that no authority signed, valid a day, made with openssl: for tests and bench/edge.ts. */
export function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  using dir = mkdtempDisposableSync(path.join(tmpdir(), 'self-signed-'))
  const [key, cert] = [path.join(dir.path, 'key.pem'), path.join(dir.path, 'cert.pem')]
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
      ...['-keyout', key, '-out', cert],
    ],
    { stdio: 'ignore' },
  )
  return { key: readFileSync(key), cert: readFileSync(cert) }
}
