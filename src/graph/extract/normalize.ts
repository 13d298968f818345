/**
 * Names as the graph compares them. Two spellings of one name ("Ada Lovelace", "ada  lovelace")
 * share a normalized name: Unicode-compatible folding, lower case, no leading article, no
 * punctuation at either end, single spaces.
 */
const LEADING_ARTICLE = /^(the|a|an)\s+/
const EDGE_PUNCTUATION = /^[\s"'`“”‘’([{<*_:;,.!?-]+|[\s"'`“”‘’)\]}>*_:;,.!?-]+$/g

export function normalizeName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(EDGE_PUNCTUATION, '')
    .replace(LEADING_ARTICLE, '')
    .replace(EDGE_PUNCTUATION, '')
    .trim()
}

/** How a name is shown: trimmed, single spaces, no leading article or edge punctuation. */
export function displayName(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .replace(EDGE_PUNCTUATION, '')
    .replace(/^(the|a|an)\s+/i, '')
    .trim()
}

const KINDS: Record<string, string> = {
  person: 'person',
  people: 'person',
  organisation: 'organisation',
  organization: 'organisation',
  org: 'organisation',
  company: 'organisation',
  place: 'place',
  location: 'place',
  country: 'place',
  city: 'place',
  concept: 'concept',
  topic: 'concept',
  thing: 'concept',
  event: 'event',
  product: 'product',
  software: 'product',
}

/** A free-text kind folded onto the graph's small vocabulary; unknown kinds are concepts. */
export function normalizeKind(kind: string): string {
  return KINDS[kind.trim().toLowerCase()] ?? 'concept'
}
