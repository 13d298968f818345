/** Originals that are already text: decoded as UTF-8 (a BOM dropped), line endings normalized. */
export function decodeText(bytes: Buffer): string {
  return bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
}

/** Plain text is kept as written; Markdown readers treat it as paragraphs, which is what it is. */
export function textToMarkdown(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`
}
