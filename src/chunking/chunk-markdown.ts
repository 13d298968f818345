/**
 * The Markdown chunker: packs blocks into chunks of at most `maxChars`, starting a new chunk at
 * every heading, never cutting a code block or a table (one larger than the bound becomes a chunk
 * of its own), cutting long paragraphs at a sentence end (else a space), and carrying up to
 * `overlapChars` of the previous chunk's tail into the next one within a section. Pure and
 * deterministic: the same Markdown and options give the same chunks.
 */
import { type Block, parseBlocks } from './blocks.js'

export interface ChunkOptions {
  maxChars: number
  overlapChars: number
}

export interface Chunk {
  ordinal: number
  /** Exactly `markdown.slice(charStart, charEnd)`. */
  text: string
  /** The heading trail the chunk sits under ("Guide > Install"), or null before any heading. */
  heading: string | null
  charStart: number
  charEnd: number
}

interface Open {
  start: number
  end: number
  blocks: Block[]
  heading: string | null
}

export function chunkMarkdown(markdown: string, opts: ChunkOptions): Chunk[] {
  const max = Math.max(20, opts.maxChars)
  const overlap = Math.max(0, Math.min(opts.overlapChars, Math.floor(max / 2)))
  const chunks: Chunk[] = []
  const trail: string[] = []
  let open: Open | null = null

  const flush = () => {
    if (!open || open.blocks.length === 0) {
      open = null
      return
    }
    chunks.push({ ordinal: chunks.length, text: markdown.slice(open.start, open.end), heading: open.heading, charStart: open.start, charEnd: open.end })
    open = null
  }
  const add = (o: Open, block: Block) => {
    o.end = block.end
    o.blocks.push(block)
  }

  for (const next of parseBlocks(markdown)) {
    if (next.kind === 'heading') {
      trail.length = Math.min(trail.length, (next.level ?? 1) - 1)
      trail.push(next.title ?? '')
      const heading = trail.filter(Boolean).join(' > ') || null
      const current = open as Open | null
      if (current?.blocks.every((b) => b.kind === 'heading')) {
        add(current, next)
        current.heading = heading
      } else {
        flush()
        open = { start: next.start, end: next.end, blocks: [next], heading }
      }
      continue
    }
    const heading = trail.filter(Boolean).join(' > ') || null
    let block: Block | null = next
    while (block) {
      const current = open as Open | null
      if (!current) {
        if (block.kind !== 'paragraph' || block.end - block.start <= max) {
          open = { start: block.start, end: block.end, blocks: [block], heading }
          block = null
        } else {
          const [piece, rest] = cutParagraph(markdown, block, max)
          open = { start: piece.start, end: piece.end, blocks: [piece], heading }
          block = rest
        }
        continue
      }
      if (block.end - current.start <= max) {
        add(current, block)
        block = null
        continue
      }
      const headingOnly = current.blocks.every((b) => b.kind === 'heading')
      if (block.kind !== 'paragraph') {
        // Code and tables stay whole; a section's heading stays with its first block.
        if (headingOnly) {
          add(current, block)
          block = null
        }
      } else {
        const room = current.start + max - block.start
        if (room >= Math.min(max / 4, block.end - block.start)) {
          const [piece, rest] = cutParagraph(markdown, block, room)
          add(current, piece)
          block = rest
        }
      }
      const from = overlapStart(markdown, current, overlap)
      flush()
      if (block) {
        const start = from !== null && (block.kind === 'paragraph' || block.end - from <= max) ? from : block.start
        open = { start, end: start, blocks: [], heading }
      }
    }
  }
  flush()
  return chunks
}

/** Where the next chunk's overlap begins in the previous chunk, or null for none. */
function overlapStart(markdown: string, prev: Open, overlap: number): number | null {
  if (overlap === 0) return null
  const content = prev.blocks.filter((b) => b.kind !== 'heading')
  let from: number | null = null
  for (let i = content.length - 1; i > 0; i--) {
    if (prev.end - content[i].start > overlap) break
    from = content[i].start
  }
  if (from !== null) return from
  const last = content.at(-1)
  if (last?.kind !== 'paragraph' || last.end - last.start <= overlap) return null
  // A tail of the last paragraph, starting at a word.
  const window = markdown.slice(prev.end - overlap, prev.end)
  const space = window.search(/\s\S/)
  return space === -1 ? null : prev.end - overlap + space + 1
}

/** The first piece of a paragraph that fits in `room` (cut at a sentence end, else a space) and the rest. */
function cutParagraph(markdown: string, block: Block, room: number): [Block, Block | null] {
  const window = markdown.slice(block.start, block.start + Math.max(1, Math.floor(room)))
  let cut = lastMatch(window, /[.!?][)"'\]]?\s/g, Math.floor(window.length / 2))
  if (cut === -1) cut = lastMatch(window, /\s/g, 1)
  if (cut <= 0) cut = window.length
  const pieceEnd = trimEnd(markdown, block.start, block.start + cut)
  let restStart = block.start + cut
  while (restStart < block.end && /\s/.test(markdown[restStart])) restStart++
  const piece: Block = { kind: 'paragraph', start: block.start, end: pieceEnd }
  return [piece, restStart < block.end ? { kind: 'paragraph', start: restStart, end: block.end } : null]
}

/** Index just past the last match (its trailing space excluded) at or after `min`, or -1. */
function lastMatch(text: string, re: RegExp, min: number): number {
  let found = -1
  for (const m of text.matchAll(re)) {
    const at = (m.index ?? 0) + m[0].trimEnd().length
    if (at >= min) found = at
  }
  return found
}

function trimEnd(markdown: string, start: number, end: number): number {
  let e = end
  while (e > start && /\s/.test(markdown[e - 1])) e--
  return e
}
