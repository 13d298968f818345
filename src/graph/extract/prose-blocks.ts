/**
 * The prose of a chunk, as the built-in extractor reads it: Markdown parsed by marked (what the
 * HTML converter produces, and what documents are written in) with reStructuredText's markup
 * folded first, then only the text of paragraphs, list items and block quotes. Left out:
 * headings and paragraphs that are only emphasis (titles of boxes), code (fenced, indented, in
 * spans other than a plain word, and written into the text: prose-code.ts), images, link
 * targets, tables, raw HTML, and navigation (a paragraph or list made of links alone, as page
 * headers and tables of contents are).
 */
import { Lexer, type Token, type Tokens } from 'marked'
import { codeSpanWord, withoutCode } from './prose-code.js'

/** A line of one repeated punctuation character: a reStructuredText title's over- or underline. */
const ADORNMENT = /^([=\-~^"'`#*+])\1{2,}\s*$/

/** reStructuredText that Markdown would read as text: roles, directives, explicit targets, title adornments. */
function foldRestructuredText(text: string): string {
  const lines = text.split('\n')
  const out: string[] = []
  let fence: string | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    // A fenced block is Markdown's code, whose short last line ("EOF", "fi") is no title over an underline.
    const marker = line.match(/^\s*(`{3,}|~{3,})/)?.[1]
    if (fence || marker) {
      if (!fence) fence = marker
      else if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined
      out.push(line)
      continue
    }
    const directive = line.match(/^(\s*)\.\.\s/)
    if (directive) {
      // A directive or comment, and the block indented under it.
      const indent = directive[1].length
      while (i + 1 < lines.length && (lines[i + 1].trim() === '' || lines[i + 1].search(/\S/) > indent)) i++
      out.push('')
      continue
    }
    const next = lines[i + 1] ?? ''
    // An overline: the title under it is taken with its underline on the next line.
    if (
      ADORNMENT.test(line) &&
      next.trim() &&
      !ADORNMENT.test(next) &&
      (lines[i + 2] ?? '').trim() === line.trim() &&
      line.trim().length >= next.trim().length
    ) {
      out.push('')
      continue
    }
    if (line.trim() && !ADORNMENT.test(line) && ADORNMENT.test(next) && next.trim().length >= line.trim().length) {
      out.push(`# ${line.trim()}`)
      i++
      continue
    }
    out.push(line)
  }
  return out
    .join('\n')
    .replace(/:[a-z:]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`/g, '$1')
    .replace(/`([^`<]+?)\s*<[^>]+>`__?/g, '$1')
    .replace(/``([^`\n]+)``/g, '`$1`')
}

type Inline = Token & { tokens?: Token[]; text?: string }

/** The words of inline tokens: text, emphasis and link text; never a link target or an image. */
function inlineText(tokens: readonly Token[] | undefined): string {
  let s = ''
  for (const t of (tokens ?? []) as Inline[]) {
    switch (t.type) {
      case 'image':
      case 'html':
        break
      case 'br':
        s += ' '
        break
      case 'codespan':
        s += codeSpanWord(t.text ?? '')
        break
      case 'escape':
        s += t.text ?? ''
        break
      default:
        s += t.tokens ? inlineText(t.tokens) : (t.text ?? '')
    }
  }
  return s
}

/** A block of links and nothing else but punctuation: navigation, a table of contents, a bare URL. */
function onlyLinks(tokens: readonly Token[] | undefined): boolean {
  const inline = ((tokens ?? []) as Inline[]).flatMap((t) => (t.type === 'text' && t.tokens ? t.tokens : [t])) as Inline[]
  const links = inline.filter((t) => t.type === 'link' || t.type === 'image')
  return links.length > 0 && inline.every((t) => t.type === 'link' || t.type === 'image' || !/[\p{L}\p{N}]/u.test(t.raw))
}

/** A paragraph that is a single run of emphasis: a box's or a figure's title. */
function onlyEmphasis(tokens: readonly Token[] | undefined): boolean {
  const inline = (tokens ?? []).filter((t) => t.raw.trim() !== '')
  return inline.length === 1 && (inline[0].type === 'strong' || inline[0].type === 'em')
}

function collect(tokens: readonly Token[], into: string[]): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'paragraph':
      case 'text': {
        const t = token as Tokens.Paragraph
        const text = inlineText(t.tokens ?? []) || t.text
        if (!onlyLinks(t.tokens) && !onlyEmphasis(t.tokens) && !isTitle(text)) push(into, text)
        break
      }
      case 'list': {
        const items = (token as Tokens.List).items
        const navigation = items.filter((item) => onlyLinks(item.tokens.flatMap((t) => (t as Inline).tokens ?? [t]))).length * 2 >= items.length
        if (!navigation) for (const item of items) collect(item.tokens, into)
        break
      }
      case 'blockquote':
        collect((token as Tokens.Blockquote).tokens, into)
        break
      default:
        // headings, code, tables, html, rules and space carry no sentences
        break
    }
  }
}

/**
 * A short line with no closing punctuation, as a paragraph or list item: a title, an entry of a
 * table of contents. An item ending in a comma continues a sentence (an enumeration), not a title.
 */
function isTitle(text: string): boolean {
  const s = text.trim()
  return !/[.!?:;,…"”')\]]$/.test(s) && s.split(/\s+/).length < 12
}

function push(into: string[], text: string): void {
  const withoutLinks = text.replace(/[,;]?\s*see\s+<?https?:\/\/[^\s)]*>?/g, '').replace(/<?https?:\/\/[^\s)>]*>?/g, '')
  const s = withoutCode(withoutLinks)
    .replace(/\(\s*\)/g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:!?])(?=\s|$)/g, '$1')
    .trim()
    .replace(/,$/, '.')
  if (!/\p{L}/u.test(s)) return
  into.push(/[.!?:;…"”')\]]$/.test(s) ? s : `${s}.`)
}

/** The chunk's prose blocks, each a paragraph or list item of plain text ending in punctuation. */
export function proseBlocks(text: string): string[] {
  const blocks: string[] = []
  collect(Lexer.lex(foldRestructuredText(text), { gfm: true }), blocks)
  return blocks
}

/** The chunk's prose as one text, blocks separated by blank lines. */
export function plainProse(text: string): string {
  return proseBlocks(text).join('\n\n')
}
