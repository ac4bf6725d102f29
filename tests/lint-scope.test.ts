import { ESLint } from 'eslint'
import * as prettier from 'prettier'
import { describe, expect, it } from 'vitest'

/**
 * `npm run lint` checks the project's own files, not data left beside them: an
 * export in exports/ or a list.json anywhere must never fail it, while every
 * file of the project is still checked. Prettier's CLI reads these two
 * ignore files by default; the same two are asked here.
 */
const prettierIgnores = async (file: string) =>
  (await prettier.getFileInfo(file, { ignorePath: ['.gitignore', '.prettierignore'] })).ignored

describe('what the lint checks', () => {
  it.each(['exports/waitlist.csv', 'exports/list.json', 'list.json', 'docs/list.json'])(
    'leaves the data file %s alone',
    async (file) => {
      expect(await prettierIgnores(file)).toBe(true)
    },
  )

  it.each([
    'package.json',
    'tsconfig.json',
    '.prettierrc.json',
    'bench/minimal/tsconfig.json',
    'exports/README.md',
    'README.md',
    'lib/site.ts',
    'app/page.tsx',
    'e2e/bundle.spec.ts',
  ])('checks the project’s own %s', async (file) => {
    expect(await prettierIgnores(file)).toBe(false)
  })

  it('keeps ESLint out of exports/ too', async () => {
    const eslint = new ESLint()
    expect(await eslint.isPathIgnored('exports/report.js')).toBe(true)
    expect(await eslint.isPathIgnored('lib/site.ts')).toBe(false)
  })
})
