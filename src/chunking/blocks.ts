/**
 * Splits Markdown into the blocks the chunker packs: headings, fenced code, tables and
 * paragraphs (lists and quotes ride along as paragraphs). Offsets index the original string, so
 * a chunk is always a slice of the Markdown it came from.
 */
export type BlockKind = 'heading' | 'code' | 'table' | 'paragraph'

export interface Block {
  kind: BlockKind
  start: number
  end: number
  /** For headings: the level (1-6) and the heading's text. */
  level?: number
  title?: string
}

interface Line {
  text: string
  start: number
  end: number
}

function splitLines(markdown: string): Line[] {
  const lines: Line[] = []
  let start = 0
  while (start <= markdown.length) {
    const nl = markdown.indexOf('\n', start)
    const end = nl === -1 ? markdown.length : nl
    lines.push({ text: markdown.slice(start, end).replace(/\r$/, ''), start, end })
    if (nl === -1) break
    start = nl + 1
  }
  return lines
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$/
const FENCE = /^ {0,3}(`{3,}|~{3,})/
const TABLE_ROW = /^\s*\|/
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/

function isTableStart(lines: Line[], i: number): boolean {
  if (TABLE_ROW.test(lines[i].text)) return true
  // A pipe table without a leading pipe: a row with pipes followed by a rule line.
  return lines[i].text.includes('|') && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1].text)
}

/** The blocks of a Markdown document, in order, blank lines dropped. */
export function parseBlocks(markdown: string): Block[] {
  const lines = splitLines(markdown)
  const blocks: Block[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    if (line.text.trim() === '') {
      i++
      continue
    }
    const fence = FENCE.exec(line.text)
    if (fence) {
      const marker = fence[1]
      let j = i + 1
      while (j < lines.length && !new RegExp(`^ {0,3}${marker[0]}{${marker.length},}\\s*$`).test(lines[j].text)) j++
      const last = Math.min(j, lines.length - 1)
      blocks.push({ kind: 'code', start: line.start, end: lines[last].end })
      i = last + 1
      continue
    }
    const heading = HEADING.exec(line.text)
    if (heading) {
      blocks.push({ kind: 'heading', start: line.start, end: line.end, level: heading[1].length, title: (heading[2] ?? '').trim() })
      i++
      continue
    }
    if (isTableStart(lines, i)) {
      let j = i
      while (j + 1 < lines.length && lines[j + 1].text.trim() !== '' && lines[j + 1].text.includes('|')) j++
      blocks.push({ kind: 'table', start: line.start, end: lines[j].end })
      i = j + 1
      continue
    }
    let j = i
    while (
      j + 1 < lines.length &&
      lines[j + 1].text.trim() !== '' &&
      !FENCE.test(lines[j + 1].text) &&
      !HEADING.test(lines[j + 1].text) &&
      !TABLE_ROW.test(lines[j + 1].text)
    ) {
      j++
    }
    blocks.push({ kind: 'paragraph', start: line.start, end: lines[j].end })
    i = j + 1
  }
  return blocks
}
