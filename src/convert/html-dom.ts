/**
 * The little of the DOM (turndown's domino) the HTML rules read; the project compiles without
 * lib.dom, so rules see nodes through this interface.
 */
export interface DomNode {
  nodeName: string
  nodeType: number
  textContent: string | null
  parentNode: DomNode | null
  previousSibling: DomNode | null
  childNodes: ArrayLike<DomNode>
}

export interface DomElement extends DomNode {
  className?: string
  id?: string
  getAttribute(name: string): string | null
  querySelector(selector: string): DomElement | null
  querySelectorAll(selector: string): ArrayLike<DomElement>
}

const ELEMENT = 1

export function asElement(node: unknown): DomElement {
  return node as DomElement
}

export function isElement(node: DomNode | null): node is DomElement {
  return node?.nodeType === ELEMENT
}

/** The element's classes, as a set of words. */
export function classesOf(node: DomNode | null): Set<string> {
  return new Set(isElement(node) ? (node.getAttribute('class') ?? '').split(/\s+/).filter(Boolean) : [])
}

export function hasClass(node: DomNode | null, ...names: string[]): boolean {
  const classes = classesOf(node)
  return names.some((n) => classes.has(n))
}

/** The nearest ancestor (or the node itself) that passes the test. */
export function closest(node: DomNode | null, test: (n: DomElement) => boolean): DomElement | undefined {
  for (let n = node; n; n = n.parentNode) if (isElement(n) && test(n)) return n
  return undefined
}
