/** HTML to Markdown through turndown (ATX headings, fenced code), with pipe tables kept as tables. */
import TurndownService from 'turndown'

/** The little of the DOM (turndown's domino) a table needs; the project compiles without lib.dom. */
interface DomElement {
  textContent: string | null
  querySelectorAll(selector: string): ArrayLike<DomElement>
}

function cellText(cell: DomElement): string {
  return (cell.textContent ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim()
}

function tableToMarkdown(table: DomElement): string {
  const rows = Array.from(table.querySelectorAll('tr')).map((tr) => Array.from(tr.querySelectorAll('th,td')).map((c) => cellText(c)))
  if (rows.length === 0) return ''
  const width = Math.max(...rows.map((r) => r.length))
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`
  const [head, ...body] = rows
  return `\n\n${[line(head), line(Array(width).fill('---')), ...body.map(line)].join('\n')}\n\n`
}

function createService(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' })
  service.remove(['script', 'style', 'noscript', 'template', 'head'])
  service.addRule('table', { filter: 'table', replacement: (_content, node) => tableToMarkdown(node as unknown as DomElement) })
  return service
}

let service: TurndownService | undefined

export function htmlToMarkdown(html: string): string {
  service ??= createService()
  return `${service.turndown(html).trim()}\n`
}
