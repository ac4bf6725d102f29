/**
 * `next/font/local` is compiled away by Next's build and throws anywhere else:
 * under Vitest a font is its names alone.
 */
export default function localFont({ variable = '' }: { variable?: string }) {
  return {
    className: 'font-local',
    variable: variable ? 'font-local-variable' : '',
    style: { fontFamily: 'local' },
  }
}
