/**
 * Code kept out of prose: every `<pre>` (with or without `<code>`, any class: DocBook's `screen`,
 * `programlisting` and `synopsis`, Sphinx's `highlight` divs, texinfo's `example`, asciidoc's
 * listing and verse blocks, mandoc's displays) becomes a fenced block, as do command synopses
 * written without one (DocBook's `cmdsynopsis`, mdoc's `table.Nm`, a man page's SYNOPSIS section
 * as mandoc renders man(7)). Key names, sample input and output, DocBook's commands written in
 * bold and Sphinx's object signatures become code spans. docs/memory-graph.md, "Conversion".
 */
import type TurndownService from 'turndown'
import { asElement, classesOf, closest, type DomElement, type DomNode, hasClass, isElement } from './html-dom.js'

/** A run of backticks longer than any inside the text, so the text cannot close the fence. */
function fenceFor(text: string, minimum: number): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length))
  return '`'.repeat(Math.max(minimum, longest + 1))
}

export function fenced(text: string, language = ''): string {
  const body = text.replace(/^\n+|\s+$/g, '')
  if (!body.trim()) return ''
  const fence = fenceFor(body, 3)
  return `\n\n${fence}${language}\n${body}\n${fence}\n\n`
}

/** Anchors that mark a heading or entry (Sphinx's ¶, texinfo's copiable anchors): not text. */
const MARKS = ['headerlink', 'copiable-anchor', 'copiable-link']

export function codeSpan(text: string): string {
  const body = text.replace(/\s+/g, ' ').trim()
  if (!body) return ''
  const fence = fenceFor(body, 1)
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${body}${pad}${fence}`
}

/** The language a block names: `language-x`/`lang-x` on it or its `<code>`, Sphinx's `highlight-x` around it. */
function languageOf(pre: DomElement): string {
  const code = pre.querySelector('code')
  for (const c of [...classesOf(pre), ...classesOf(code)]) {
    const m = c.match(/^(?:language|lang)-([\w+#-]+)$/)
    if (m) return m[1]
  }
  const sphinx = closest(pre, (n) => [...classesOf(n)].some((c) => c.startsWith('highlight-')))
  const named = [...classesOf(sphinx ?? null)].find((c) => c.startsWith('highlight-'))?.slice('highlight-'.length)
  return named && named !== 'default' && named !== 'none' ? named : ''
}

/** The text of a node as a reader sees it, without Sphinx's and mandoc's permalink marks. */
export function visibleText(node: DomElement): string {
  let s = ''
  for (const child of Array.from(node.childNodes)) {
    if (isElement(child)) {
      if (hasClass(child, ...MARKS)) continue
      s += child.nodeName === 'BR' ? '\n' : visibleText(child)
    } else if (child.nodeType === 3) s += child.textContent ?? ''
  }
  return s
}

/** A synopsis's lines: its text's own line breaks are wrapping; rows, paragraphs and `<br>` break lines. */
function synopsisText(node: DomElement): string {
  let s = ''
  for (const child of Array.from(node.childNodes)) {
    if (isElement(child)) {
      if (hasClass(child, ...MARKS)) continue
      const breaks = ['BR', 'TR', 'P', 'DIV'].includes(child.nodeName)
      s += `${synopsisText(child)}${breaks ? '\n' : ''}`
    } else if (child.nodeType === 3) s += (child.textContent ?? '').replace(/\s+/g, ' ')
  }
  return s
}

/** The heading a block sits under, among its earlier siblings or as its section's first child. */
function headingBefore(node: DomNode): string | undefined {
  for (let n: DomNode | null = node.previousSibling; n; n = n.previousSibling) {
    if (/^H[1-6]$/.test(n.nodeName)) return (n.textContent ?? '').trim()
  }
  const parent = node.parentNode
  return parent && parent.nodeName === 'SECTION' ? headingBefore(parent) : undefined
}

const BLOCK_ELEMENTS = new Set(['P', 'PRE', 'DIV', 'DL', 'UL', 'OL', 'TABLE', 'BLOCKQUOTE', 'SECTION'])

/** mandoc's one-line display (`.Dl`, an indented `.Bd` of text): a command line, not a paragraph. */
function isManDisplay(node: DomElement): boolean {
  return node.nodeName === 'DIV' && hasClass(node, 'Bd-indent') && !Array.from(node.childNodes).some((c) => BLOCK_ELEMENTS.has(c.nodeName))
}

/** A paragraph of a man page's SYNOPSIS (a section headed exactly so, as man pages write it). */
function inManSynopsis(node: DomElement): boolean {
  return node.nodeName === 'P' && headingBefore(node) === 'SYNOPSIS'
}

const CODE_SPAN_CLASSES = [
  'keycap',
  'keycombo',
  'command',
  'guimenu',
  'guisubmenu',
  'guimenuitem',
  'guibutton',
  'guilabel',
  'menuchoice',
  'userinput',
  'prompt',
]

export function addCodeRules(service: TurndownService): void {
  service.addRule('preformatted', {
    filter: 'pre',
    replacement: (_content, node) => {
      const pre = asElement(node)
      return fenced(visibleText(pre), languageOf(pre))
    },
  })
  service.addRule('synopsis', {
    filter: (node) => {
      const n = asElement(node)
      return hasClass(n, 'cmdsynopsis', 'funcsynopsis') || (n.nodeName === 'TABLE' && hasClass(n, 'Nm')) || inManSynopsis(n) || isManDisplay(n)
    },
    replacement: (_content, node) =>
      fenced(
        synopsisText(asElement(node))
          .split('\n')
          .map((line) => line.replace(/\s+/g, ' ').trim())
          .filter(Boolean)
          .join('\n'),
      ),
  })
  service.addRule('inlineLiteral', {
    filter: (node) => {
      const n = asElement(node)
      // mandoc renders man(7)'s bold, which man pages keep for what is typed literally, as <b>.
      if (n.nodeName === 'B' && closest(n, (p) => hasClass(p, 'manual-text')))
        return !closest(n.parentNode, (p) => p.nodeName === 'PRE' || p.nodeName === 'CODE' || p.nodeName === 'B')
      if (['KBD', 'SAMP', 'TT', 'VAR'].includes(n.nodeName)) return !closest(n.parentNode, (p) => p.nodeName === 'PRE' || p.nodeName === 'CODE')
      // DocBook's keycap, command and GUI labels (spans around <strong>), never nested in another.
      return (
        n.nodeName === 'SPAN' && CODE_SPAN_CLASSES.some((c) => hasClass(n, c)) && !closest(n.parentNode, (p) => CODE_SPAN_CLASSES.some((c) => hasClass(p, c)))
      )
    },
    replacement: (_content, node) => codeSpan(visibleText(asElement(node))),
  })
  service.addRule('permalink', {
    filter: (node) => asElement(node).nodeName === 'A' && hasClass(asElement(node), 'permalink', ...MARKS),
    replacement: (content, node) => (hasClass(asElement(node), ...MARKS) ? '' : content),
  })
}
