/** `aizk recall`'s text: each item on its line with where it came from. */
import type { RecalledClaim, RecallItem, RecallResult, RecallSource } from '../graph/read/recall-types.js'

const one = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

function where(s: Pick<RecallSource, 'title' | 'charStart' | 'charEnd' | 'chunkId'>): string {
  const span = s.charStart !== null && s.charEnd !== null ? `, characters ${s.charStart}-${s.charEnd}` : ''
  return `${s.title ?? '(untitled)'}${span} (chunk ${s.chunkId})`
}

/** When the claim was true as its text dates it, beside when it was recorded. */
function truth(c: Pick<RecalledClaim, 'statedFrom' | 'statedUntil'>): string {
  if (c.statedFrom && c.statedUntil) return `true from ${c.statedFrom} until ${c.statedUntil}, `
  if (c.statedFrom) return `true from ${c.statedFrom}, `
  return c.statedUntil ? `true until ${c.statedUntil}, ` : ''
}

function itemLines(item: RecallItem, r: RecallResult): string[] {
  if (item.kind === 'claim') {
    const c = r.claims.find((x) => x.id === item.id)
    if (!c) return []
    const head = `claim      ${c.subject} —${c.predicate}→ ${c.object}   weight ${c.weight.toFixed(2)}, ${truth(c)}recorded ${c.recordedAt.slice(0, 10)}${c.hops ? `, ${c.hops} hop${c.hops > 1 ? 's' : ''} from the question's entities` : ''}`
    return [head, ...c.sources.map((s) => `             from ${where(s)}`)]
  }
  if (item.kind === 'chunk') {
    const c = r.chunks.find((x) => x.id === item.id)
    return c ? [`text       "${one(c.text, 160)}"`, `             from ${where({ ...c, chunkId: c.id })}`] : []
  }
  if (item.kind === 'entity') {
    const e = r.entities.find((x) => x.id === item.id)
    if (!e) return []
    const aliases = e.aliases.length ? `, also ${e.aliases.join(', ')}` : ''
    return [`entity     ${e.name} (${e.kind}${aliases}), ${e.mentions} mentions${e.description ? `: ${one(e.description, 140)}` : ''}`]
  }
  const m = r.communities.find((x) => x.id === item.id)
  return m ? [`community  ${m.title} (level ${m.level}, ${m.size} members): ${one(m.summary, 140)}`] : []
}

export function renderRecall(r: RecallResult): string {
  const head = `recall "${r.query}" in {${r.scopes.join(',')}}${r.asOf ? ` as of ${r.asOf}${r.asOfSpan ? ` (true between ${r.asOfSpan.start} and ${r.asOfSpan.end})` : ''}` : ''}${r.knownAt ? `, as known at ${r.knownAt}` : ''}: ${r.items.length} item${r.items.length === 1 ? '' : 's'}`
  if (r.abstained) {
    const why = `confidence ${r.confidence.toFixed(2)}, below the floor of ${r.floor.toFixed(2)}; the best item held ${r.support.toFixed(2)} of the question's weight`
    return `${head}\n(nothing in this scope set supports an answer: ${why}; --floor 0 shows what ranks anyway)`
  }
  if (!r.items.length) return `${head}\n(nothing in this scope set matches the question)`
  const lines = [head, '']
  r.items.forEach((item, i) => {
    const [first, ...rest] = itemLines(item, r)
    lines.push(`${String(i + 1).padStart(2)}. ${first}`, ...rest)
  })
  return lines.join('\n')
}
