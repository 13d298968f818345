/**
 * Tables: a data table becomes a Markdown pipe table; a table used for layout (DocBook's and
 * asciidoc's admonitions, DocBook's callout lists) gives its cells' content as ordinary blocks, so
 * a note's prose stays prose; navigation bars (DocBook's header and footer, mandoc's page head
 * and foot) are dropped.
 */
import type TurndownService from 'turndown'
import { asElement, closest, type DomElement, hasClass } from './html-dom.js'

const ADMONITION = /^(note|tip|warning|caution|important|callout list)$/i

function cellText(cell: DomElement): string {
  return (cell.textContent ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim()
}

/** The table's own rows, not those of a table nested in a cell. */
function ownRows(table: DomElement): DomElement[] {
  return Array.from(table.querySelectorAll('tr')).filter((tr) => closest(tr.parentNode, (n) => n.nodeName === 'TABLE') === table)
}

function tableToMarkdown(table: DomElement): string {
  const rows = ownRows(table)
    .map((tr) =>
      Array.from(tr.querySelectorAll('th,td'))
        .filter((c) => closest(c.parentNode, (n) => n.nodeName === 'TR') === tr)
        .map(cellText),
    )
    .filter((cells) => cells.some(Boolean))
  if (rows.length === 0) return ''
  const width = Math.max(...rows.map((r) => r.length))
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`
  const [head, ...body] = rows
  return `\n\n${[line(head), line(Array(width).fill('---')), ...body.map(line)].join('\n')}\n\n`
}

function isNavigation(table: DomElement): boolean {
  return (
    /^navigation/i.test(table.getAttribute('summary') ?? '') ||
    hasClass(table, 'head', 'foot') ||
    !!closest(table, (n) => hasClass(n, 'navheader', 'navfooter'))
  )
}

function isLayout(table: DomElement): boolean {
  return (
    ADMONITION.test(table.getAttribute('summary') ?? '') ||
    table.getAttribute('role') === 'presentation' ||
    hasClass(table.parentNode, 'admonitionblock', 'calloutlist')
  )
}

export function addTableRules(service: TurndownService): void {
  service.addRule('table', {
    filter: 'table',
    replacement: (content, node) => {
      const table = asElement(node)
      if (isNavigation(table)) return ''
      if (isLayout(table)) return `\n\n${content.trim()}\n\n`
      return tableToMarkdown(table)
    },
  })
}
