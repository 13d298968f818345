/**
 * What `npm run eval:recall` prints (docs/memory-graph.md, "The recall evaluation"): per package
 * and pooled, hit@5, abstention precision and recall, MRR and hit@5 by graph items, for the
 * abstention model fit leaving one package out, for the word floor it replaced (chosen the same
 * way), with nothing held back, and for the shipped model.
 */
import { confidenceOf, RECALL_FLOOR, type RecallModel } from '../../src/graph/read/recall-model.js'
import { RECALL_WEIGHTS } from '../../src/graph/read/recall-weights.js'
import { type Asked, floorsLeavingOneOut, right } from './calibrate.js'
import { type Example, modelsLeavingOneOut } from './examples.js'
import type { Probe } from './probes.js'

export interface Outcome extends Asked, Example {
  probe: Probe
  /** The best item's word support, what the floor before the model was held to. */
  wordSupport: number
  rr: number
  /** Every needed fact held by graph items (claims, entities, communities) within the first five. */
  graphHit: boolean
  top: string
}

/** An outcome scored one way: `support` is what the floor is held against. */
type Scored = Outcome & { floor: number }

const ratio = (n: number, d: number) => (d ? `${(n / d).toFixed(2)} (${n}/${d})` : 'n/a')

function line(label: string, scored: Scored[]): string {
  const answerable = scored.filter((o) => o.answerable)
  const unanswerable = scored.filter((o) => !o.answerable)
  const hits = answerable.filter((o) => right(o, o.floor)).length
  const abstained = scored.filter((o) => o.support < o.floor)
  const rightAbstentions = abstained.filter((o) => !o.answerable).length
  const mrr = answerable.length ? answerable.reduce((s, o) => s + (o.support >= o.floor ? o.rr : 0), 0) / answerable.length : 0
  const graph = answerable.filter((o) => o.graphHit && o.support >= o.floor).length
  return `${label.padEnd(44)} hit@5 ${ratio(hits, answerable.length).padEnd(16)} abstention P ${ratio(rightAbstentions, abstained.length).padEnd(16)} R ${ratio(rightAbstentions, unanswerable.length).padEnd(16)} MRR ${mrr.toFixed(2)}  by graph items ${ratio(graph, answerable.length)}`
}

const byModel = (outcomes: Outcome[], modelOf: (o: Outcome) => RecallModel): Scored[] =>
  outcomes.map((o) => {
    const model = modelOf(o)
    return { ...o, support: confidenceOf(o.x, model), floor: model.floor }
  })

export function printReport(outcomes: Outcome[]): void {
  const models = modelsLeavingOneOut(outcomes)
  const modelOf = (o: Outcome) => models.get(o.package) as RecallModel
  const lopo = byModel(outcomes, modelOf)
  const packages = [...models.keys()]
  console.log('\nper package, its model fit on the other packages (leave one package out):')
  for (const p of packages) {
    const m = models.get(p) as RecallModel
    console.log(
      line(
        `${p} (floor ${m.floor.toFixed(3)})`,
        lopo.filter((o) => o.package === p),
      ),
    )
  }
  console.log('\nweights chosen leaving each package out (standardized features; bias, then ' + `${RECALL_WEIGHTS.weights.length} features):`)
  for (const p of packages) {
    const m = models.get(p) as RecallModel
    console.log(`  ${p.padEnd(26)} ${[m.bias, ...m.weights].map((w) => w.toFixed(2).padStart(6)).join(' ')}`)
  }
  const wordFloors = floorsLeavingOneOut(outcomes.map((o) => ({ ...o, support: o.wordSupport })))
  const words = outcomes.map((o) => ({ ...o, support: o.wordSupport, floor: wordFloors.get(o.package) ?? 0 }))
  console.log(`\n${line('pooled, model leave-one-package-out', lopo)}`)
  console.log(line('pooled, word floor leave-one-out', words))
  console.log(
    line(
      'pooled, nothing held back',
      outcomes.map((o) => ({ ...o, support: 1, floor: 0 })),
    ),
  )
  console.log(
    line(
      `pooled, shipped model (floor ${RECALL_FLOOR}), in sample`,
      byModel(outcomes, () => RECALL_WEIGHTS),
    ),
  )
  console.log(
    line(
      '  of which: nowhere',
      lopo.filter((o) => o.package === 'nowhere'),
    ),
  )
  console.log(
    line(
      '  of which: in the other set',
      lopo.filter((o) => !o.answerable && o.package !== 'nowhere'),
    ),
  )
  console.log('targets: hit@5 >= 0.90, unanswerable answered with nothing (abstention recall) >= 0.90')
  if (process.env.EVAL_VERBOSE) {
    for (const o of lopo.filter((o) => !right(o, o.floor) && (o.package === 'nowhere' || OLD_SET.has(o.package))))
      console.log(
        `  wrong (${o.answerable ? 'answerable' : 'nothing'}, ${o.probe.set}, confidence ${o.support.toFixed(2)}, floor ${o.floor}): ${o.probe.question} -> ${o.top}`,
      )
  }
}

/** The packages rules may be designed on (the never-tuned packages' answers are not printed). */
const OLD_SET = new Set(['debian-handbook', 'python3.11-doc', 'debian-history', 'debian-faq', 'debian-reference-en'])
