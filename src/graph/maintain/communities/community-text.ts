/**
 * A community's title and one-paragraph summary from its strongest claims (docs/memory-graph.md,
 * "Readable output"). Claims that share a relation are stated once: "Bruce Perens, Ian Jackson and
 * Wichert Akkerman led Debian." rather than three sentences, and the biggest such group names the
 * community: "Who led Debian", "What Guido van Rossum joined". A claim the text dates reads in the
 * past (claim-sentence.ts). With no relation shared by two claims, the title names the three most
 * connected members.
 */
import { timeSpan } from '../../time-span.js'
import { claimSentence, pastVerbPhrase, verbPhrase } from '../claim-sentence.js'

export interface CommunityClaim {
  subject: string
  predicate: string
  object: string
  validFrom?: string | null
  validTo?: string | null
}

interface Group {
  /** 'object': many subjects of one (predicate, object); 'subject': one subject, many objects. */
  side: 'object' | 'subject'
  predicate: string
  fixed: string
  others: string[]
  past: boolean
  /** " between April 1996 and 2003": the earliest start and the latest end its claims' texts give. */
  span: string
}

const list = (names: readonly string[], max = 4) => {
  const shown = names.length > max ? [...names.slice(0, max - 1), `${names.length - max + 1} others`] : [...names]
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`
}
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`
const dated = (c: CommunityClaim) => Boolean(c.validFrom || c.validTo)
/** The verb for plural subjects: the lemma itself ("lead", "do not support"), "are" / "were" for "be". */
function pluralVerb(predicate: string, past: boolean): string {
  const words = predicate.trim().split(/\s+/)
  const negated = words[0] === 'not'
  const [verb, ...rest] = negated ? words.slice(1) : words
  if (verb === 'be') return (past ? pastVerbPhrase(predicate) : verbPhrase(predicate)).replace(/^is\b/, 'are').replace(/^was\b/, 'were')
  if (past) return pastVerbPhrase(predicate)
  return [...(negated ? ['do not'] : []), verb, ...rest].join(' ')
}

/** Claims sharing a relation, biggest group first; each claim in at most one group. */
function groups(claims: readonly CommunityClaim[]): Group[] {
  const byObject = new Map<string, CommunityClaim[]>()
  const bySubject = new Map<string, CommunityClaim[]>()
  for (const c of claims) {
    const o = `${c.predicate}\u0000${c.object}\u0000${dated(c)}`
    const s = `${c.predicate}\u0000${c.subject}\u0000${dated(c)}`
    byObject.set(o, [...(byObject.get(o) ?? []), c])
    bySubject.set(s, [...(bySubject.get(s) ?? []), c])
  }
  const candidates: (Group & { claims: CommunityClaim[] })[] = []
  for (const cs of byObject.values())
    if (cs.length >= 2)
      candidates.push({ side: 'object', predicate: cs[0].predicate, fixed: cs[0].object, others: [], past: dated(cs[0]), span: '', claims: cs })
  for (const cs of bySubject.values())
    if (cs.length >= 2)
      candidates.push({ side: 'subject', predicate: cs[0].predicate, fixed: cs[0].subject, others: [], past: dated(cs[0]), span: '', claims: cs })
  candidates.sort((a, b) => b.claims.length - a.claims.length)
  const used = new Set<CommunityClaim>()
  const out: Group[] = []
  for (const g of candidates) {
    const free = g.claims.filter((c) => !used.has(c))
    if (free.length < 2) continue
    for (const c of free) used.add(c)
    out.push({ ...g, others: [...new Set(free.map((c) => (g.side === 'object' ? c.subject : c.object)))], span: spanOf(free) })
  }
  return out
}

function spanOf(claims: readonly CommunityClaim[]): string {
  const ends = claims.flatMap((c) => [c.validFrom, c.validTo]).filter((t): t is string => Boolean(t && timeSpan(t)))
  if (ends.length === 0) return ''
  const first = ends.reduce((a, b) => ((timeSpan(b)?.start ?? '') < (timeSpan(a)?.start ?? '') ? b : a))
  const last = ends.reduce((a, b) => ((timeSpan(b)?.end ?? '') > (timeSpan(a)?.end ?? '') ? b : a))
  return first === last ? ` in ${first}` : ` between ${first} and ${last}`
}

function groupSentence(g: Group): string {
  if (g.side === 'object') return sentence(`${list(g.others)} ${pluralVerb(g.predicate, g.past)} ${g.fixed}${g.span}`)
  return sentence(`${g.fixed} ${g.past ? pastVerbPhrase(g.predicate) : verbPhrase(g.predicate)} ${list(g.others)}${g.span}`)
}

function groupTitle(g: Group): string {
  const verb = g.past ? pastVerbPhrase(g.predicate) : verbPhrase(g.predicate)
  return g.side === 'object' ? `Who ${verb} ${g.fixed}` : `What ${g.fixed} ${verb}`
}

export function communityText(names: readonly string[], size: number, claims: readonly CommunityClaim[]): { title: string; summary: string } {
  const shared = groups(claims)
  const inGroup = new Set(
    shared.flatMap((g) =>
      claims.filter(
        (c) =>
          (g.side === 'object' ? c.object === g.fixed && g.others.includes(c.subject) : c.subject === g.fixed && g.others.includes(c.object)) &&
          c.predicate === g.predicate,
      ),
    ),
  )
  const top = names.slice(0, 3)
  const around = list(top, 3)
  const title = shared[0] ? groupTitle(shared[0]) : around || 'community'
  const single = claims.filter((c) => !inGroup.has(c)).map((c) => claimSentence(c.subject, c.predicate, c.object, { from: c.validFrom, until: c.validTo }))
  const said = [...new Set([...shared.map(groupSentence), ...single])]
  return { title, summary: [`${size} entities around ${around}.`, ...said].join(' ') }
}
