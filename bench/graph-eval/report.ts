/**
 * The evaluation's table (docs/memory-graph.md, "Current figures"): one row per package, pooled
 * rows over the never-tuned packages, the tuned ones and all, and the pooled figures beside the
 * targets of issue 48. Pooled figures are micro-averages: the packages' counts summed.
 */
import type { MergeScore } from './merges.js'
import { addCounts, type Counts, zeroCounts } from './score.js'

export interface Functional {
  reported: number
  right: number
  labeled: number
}

export interface Row {
  name: string
  tuned: boolean
  label: string
  counts: Counts
  merges: MergeScore
  /** Communities of three or more, the coherent ones, and the distinct entities of the package's graph. */
  big: number
  coherent: number
  entityNames: number
  /** Seeded and labeled contradictions, when scored on this row's passages. */
  contradictions?: Functional
}

const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(2))
const withCounts = (a: number, b: number) => (b === 0 ? 'n/a' : `${ratio(a, b)} (${a}/${b})`)

function pool(name: string, rows: readonly Row[], contradictions: readonly Functional[]): Row {
  const counts = zeroCounts()
  const merges: MergeScore = { right: 0, wrong: 0, unjudged: 0, examples: [] }
  const c: Functional = { reported: 0, right: 0, labeled: 0 }
  for (const r of rows) {
    addCounts(counts, r.counts)
    merges.right += r.merges.right
    merges.wrong += r.merges.wrong
    merges.unjudged += r.merges.unjudged
    merges.examples.push(...r.merges.examples)
  }
  for (const f of contradictions) {
    c.reported += f.reported
    c.right += f.right
    c.labeled += f.labeled
  }
  const sum = (k: 'big' | 'coherent' | 'entityNames') => rows.reduce((n, r) => n + r[k], 0)
  return { name, tuned: false, label: name, counts, merges, big: sum('big'), coherent: sum('coherent'), entityNames: sum('entityNames'), contradictions: c }
}

const HEADER = [
  'package (genre; generator)',
  'tuned',
  'passages',
  'entities P',
  'R',
  'kind acc.',
  'claims true',
  'informative',
  'link 2 entities',
  'entities in a claim',
  'claims / passage',
  'merges P',
  'contradictions P / R',
  'communities 3+ coherent',
  '3+ per 50 entities',
]

function cells(r: Row, full: boolean): string[] {
  const f = full ? withCounts : ratio
  const k = r.counts
  const c = r.contradictions
  return [
    r.label,
    r.tuned ? 'yes' : 'no',
    String(k.passages),
    f(k.entitiesRight, k.entitiesOut),
    f(k.entitiesFound, k.entitiesLabeled),
    f(k.kindsRight, k.kindsJudged),
    f(k.claimsRight, k.claimsOut),
    f(k.claimsInformative, k.claimsOut),
    f(k.claimsLinking, k.claimsOut),
    f(k.entitiesInClaims, k.entitiesOut),
    ratio(k.claimsOut, k.passages),
    f(r.merges.right, r.merges.right + r.merges.wrong),
    c ? `${c.reported ? ratio(c.right, c.reported) : 'none'} / ${ratio(c.right, c.labeled)}` : 'in old set',
    `${ratio(r.coherent, r.big)} (${r.coherent}/${r.big})`,
    ratio(r.big * 50, r.entityNames),
  ]
}

const line = (cs: string[]) => `| ${cs.join(' | ')} |`

/** The targets of issue 48, item 3, against one pooled row. */
function targets(r: Row): string[] {
  const k = r.counts
  const c = r.contradictions ?? { reported: 0, right: 0, labeled: 0 }
  const check = (name: string, a: number, b: number, target: number) =>
    `${name} ${withCounts(a, b)} target >= ${target}: ${b > 0 && a / b >= target ? 'met' : 'NOT met'}`
  return [
    check('entity precision', k.entitiesRight, k.entitiesOut, 0.85),
    check('kind accuracy', k.kindsRight, k.kindsJudged, 0.85),
    check('claims true', k.claimsRight, k.claimsOut, 0.9),
    check('claims informative', k.claimsInformative, k.claimsOut, 0.75),
    check('claims linking two entities', k.claimsLinking, k.claimsOut, 0.35),
    check('entities in at least one claim', k.entitiesInClaims, k.entitiesOut, 0.4),
    check('merge precision', r.merges.right, r.merges.right + r.merges.wrong, 0.97),
    `${check('seeded contradictions recall', c.right, c.labeled, 0.7)}; ${check('precision', c.right, c.reported, 0.8)}`,
    check('communities of 3+ coherent', r.coherent, r.big, 0.7),
    `communities of 3+ per 50 entities ${ratio(r.big * 50, r.entityNames)} (${r.big} among ${r.entityNames}) target >= 1: ${r.entityNames > 0 && (r.big * 50) / r.entityNames >= 1 ? 'met' : 'NOT met'}`,
  ]
}

/**
 * `oldSet` is the old set's single-valued facts, scored over its five packages together (its
 * conflicts cross them); every other contradiction figure sits on its package's row.
 */
export function printReport(title: string, rows: readonly Row[], oldSet: Functional | undefined): void {
  const fresh = rows.filter((r) => !r.tuned)
  const tuned = rows.filter((r) => r.tuned)
  const pooled = [
    pool(
      '**pooled, never tuned**',
      fresh,
      fresh.flatMap((r) => (r.contradictions ? [r.contradictions] : [])),
    ),
    pool('pooled, tuned (old set)', tuned, oldSet ? [oldSet] : []),
    pool('pooled, all', rows, [...fresh.flatMap((r) => (r.contradictions ? [r.contradictions] : [])), ...(oldSet ? [oldSet] : [])]),
  ]
  pooled[1].tuned = true
  console.log(`\n${title}\n`)
  console.log(line(HEADER))
  console.log(line(HEADER.map(() => '---')))
  for (const r of rows) console.log(line(cells(r, false)))
  for (const r of pooled) if (r.counts.passages > 0) console.log(line(cells(r, true)))
  for (const r of [pooled[0], pooled[2]]) {
    if (r.counts.passages === 0) continue
    console.log(`\n  ${r.name.replaceAll('*', '')} against the targets (issue 48):`)
    for (const t of targets(r)) console.log(`    ${t}`)
    console.log(
      `    (claims per passage ${ratio(r.counts.claimsOut, r.counts.passages)}; entity recall ${withCounts(r.counts.entitiesFound, r.counts.entitiesLabeled)}; merges not judged, between unlabeled names: ${r.merges.unjudged})`,
    )
    if (r.merges.examples.length) console.log(`    wrong merges: ${r.merges.examples.slice(0, 8).join('; ')}`)
  }
}
