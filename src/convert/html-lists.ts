/**
 * Definition lists (DocBook's variablelist, texinfo's tables, man pages' option lists, Sphinx's
 * object descriptions) become Markdown lists: each term a list item, its definition the item's
 * following paragraphs. A term that is an option (`-a, --all`) or a Sphinx signature becomes a
 * code span, so the extractor never reads it as a phrase. docs/memory-graph.md, "Conversion".
 */
import type TurndownService from 'turndown'
import { codeSpan, visibleText } from './html-code.js'
import { asElement, type DomNode, hasClass, isElement } from './html-dom.js'

const OPTION_TERM = /^\s*(?:--?[\w?]|<[\w.-]+>|\$\w)/

function previousElement(node: DomNode): DomNode | null {
  let n = node.previousSibling
  while (n && !isElement(n)) n = n.previousSibling
  return n
}

function termText(content: string, node: DomNode): string {
  const element = asElement(node)
  const text = visibleText(element).replace(/\s+/g, ' ').trim()
  if (hasClass(element, 'sig') || OPTION_TERM.test(text)) return codeSpan(text)
  return content.replace(/\s+/g, ' ').trim()
}

export function addDefinitionListRules(service: TurndownService): void {
  service.addRule('definitionList', {
    filter: 'dl',
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  })
  service.addRule('definitionTerm', {
    filter: 'dt',
    replacement: (content, node) => {
      const term = termText(content, asElement(node))
      if (!term) return ''
      // Several terms for one definition share its item.
      return previousElement(asElement(node))?.nodeName === 'DT' ? `, ${term}` : `\n\n- ${term}`
    },
  })
  service.addRule('definitionDescription', {
    filter: 'dd',
    replacement: (content) => {
      const body = content.replace(/^\n+|\s+$/g, '')
      return body ? `\n\n${body.replace(/^(?=.)/gm, '  ')}\n\n` : ''
    },
  })
}
