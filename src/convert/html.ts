/**
 * HTML to Markdown through turndown (ATX headings, fenced code), with the block forms real
 * documentation uses kept apart from its prose: code and synopses fenced (html-code.ts), data
 * tables as pipe tables (html-tables.ts), definition lists as lists (html-lists.ts).
 * docs/memory-graph.md, "Conversion".
 */
import TurndownService from 'turndown'
import { addCodeRules } from './html-code.js'
import { addDefinitionListRules } from './html-lists.js'
import { addTableRules } from './html-tables.js'

function createService(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' })
  service.remove(['script', 'style', 'noscript', 'template', 'head'])
  addTableRules(service)
  addDefinitionListRules(service)
  addCodeRules(service)
  return service
}

let service: TurndownService | undefined

export function htmlToMarkdown(html: string): string {
  service ??= createService()
  return `${service.turndown(html).trim()}\n`
}
