/**
 * Just enough Markdown for the tests that hold the README and docs/ to what
 * they promise: headings and their GitHub anchors, sections, and links.
 */

/** The text without fenced code blocks: a `# comment` in a shell block is no heading. */
export function withoutCodeBlocks(markdown: string): string {
  const kept: string[] = []
  let fence: string | undefined
  for (const line of markdown.split('\n')) {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence === undefined && opening) {
      fence = opening
      kept.push('')
    } else if (fence !== undefined) {
      if (line.trim().startsWith(fence)) fence = undefined
      kept.push('')
    } else {
      kept.push(line)
    }
  }
  return kept.join('\n')
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/

/** Each heading's level and text, in order, outside code blocks. */
export function headings(markdown: string): { level: number; text: string }[] {
  return withoutCodeBlocks(markdown)
    .split('\n')
    .flatMap((line) => {
      const match = HEADING.exec(line)
      return match ? [{ level: match[1]!.length, text: match[2]! }] : []
    })
}

/**
 * The anchor GitHub gives a heading: its text as shown (links and inline code
 * reduced to their words), lower-cased, with punctuation other than `-` and `_`
 * dropped and each space turned into `-`.
 */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** Every anchor a file offers; a repeated heading gets `-1`, `-2`… as on GitHub. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const found = new Set<string>()
  for (const { text } of headings(markdown)) {
    const slug = githubSlug(text)
    const times = seen.get(slug) ?? 0
    seen.set(slug, times + 1)
    found.add(times === 0 ? slug : `${slug}-${times}`)
  }
  return found
}

export type Link = { target: string; line: number }

/**
 * Every link target in the text, inline (`[text](target)`, images too) and
 * reference definitions (`[name]: target`), outside code blocks and inline code.
 */
export function links(markdown: string): Link[] {
  const found: Link[] = []
  withoutCodeBlocks(markdown)
    .split('\n')
    .forEach((raw, index) => {
      const line = raw.replace(/(`+)[^`]*?\1/g, '')
      for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)) {
        found.push({ target: match[1]!, line: index + 1 })
      }
      const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line)
      if (definition) found.push({ target: definition[1]!, line: index + 1 })
    })
  return found
}
