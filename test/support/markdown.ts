// Reading markdown as GitHub renders it, for the tests that check the docs and the pointers into them.

/** The text without its fenced code blocks (a `# comment` in a shell block is not a heading). */
export function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '')
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  for (const m of withoutCode(markdown).matchAll(/^#{1,6}\s+(.+)$/gm)) {
    anchors.add(
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    )
  }
  return anchors
}
