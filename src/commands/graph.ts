import { Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { renderTable } from '../ui/table.js'
import { UsageError } from '../errors.js'
import { readGraph } from '../graph/read/read-graph.js'
import { readMaintenance } from '../graph/read/read-maintenance.js'
import { renderMaintenance } from '../cli/render-maintenance.js'
import { isUuid } from '../scope/scope-set.js'

export default class Graph extends AizkCommand {
  static override summary =
    "Show a scope set's memory graph as that set sees it: entities, claims with weights and sources, profiles, communities by level with members, RAPTOR levels and insights."
  static override description =
    'Reads inside User.system(scopes) through the app role, so row security decides: the set sees its own rows and those of its subsets, never a wider set. Read only; merged entities are followed, not listed.'
  static override examples = [
    { command: '<%= config.bin %> graph --scope aaaaaaaa-0000-4000-8000-000000000001', description: "One scope's graph." },
    {
      command: '<%= config.bin %> graph --scope aaaaaaaa-0000-4000-8000-000000000001 --scope bbbbbbbb-0000-4000-8000-000000000002 --limit 20',
      description: 'The graph the set {A, B} sees, 20 rows of each kind.',
    },
    { command: '<%= config.bin %> graph --scope aaaaaaaa-0000-4000-8000-000000000001 --json', description: 'Print entities, claims, profiles, communities, RAPTOR levels, insights and totals as JSON.' },
  ]
  static override flags = {
    scope: Flags.string({ char: 's', description: 'A scope uuid of the set (repeatable; the set is all of them).', multiple: true, required: true }),
    limit: Flags.integer({ description: 'Rows of each kind to show (strongest first).', default: 25, min: 1, max: 10000 }),
  }

  async run() {
    const { flags } = await this.parse(Graph)
    const bad = flags.scope.filter((s) => !isUuid(s.trim().toLowerCase()))
    if (bad.length) {
      throw new UsageError(`not a uuid: ${bad.map((b) => `"${b}"`).join(', ')}`, 'pass each scope of the set as --scope UUID (see `aizk roster`)', { invalid: bad })
    }
    const settings = await this.settings()
    const db = await this.database({ deadline: false })
    const view = await readGraph(db.pool, flags.scope, settings, flags.limit)
    const built = await readMaintenance(db.pool, flags.scope, settings, flags.limit)
    const result = { ...view, ...built }
    if (this.jsonEnabled()) return result
    const t = view.totals
    this.log(`scope set {${view.scopes.join(',')}}: ${t.entities} entities, ${t.claims} claims, ${t.mentions} mentions, ${t.profiles} profiles`)
    this.log('')
    this.log(
      renderTable(
        view.entities,
        [
          { header: 'ENTITY', get: (e) => e.name },
          { header: 'KIND', get: (e) => e.kind },
          { header: 'MENTIONS', get: (e) => String(e.mentions), align: 'right' },
        ],
        { empty: '(no entities)' },
      ),
    )
    this.log('')
    this.log(
      renderTable(
        view.claims,
        [
          { header: 'WEIGHT', get: (c) => c.weight.toFixed(2), align: 'right' },
          { header: 'CLAIM', get: (c) => `${c.subject} ${c.predicate} ${c.object}${c.faded ? ' (faded)' : ''}${c.supersededBy ? ' (superseded)' : ''}`.slice(0, 100) },
          { header: 'SOURCES', get: (c) => [...new Set(c.sources.map((s) => s.from ?? s.chunkId))].join(', ').slice(0, 60) },
        ],
        { empty: '(no claims)' },
      ),
    )
    this.log('')
    this.log(
      renderTable(
        view.profiles,
        [
          { header: 'PROFILE', get: (p) => p.name },
          { header: 'SUMMARY', get: (p) => (p.dirty ? '(dirty) ' : '') + (p.summary ?? '').slice(0, 100) },
        ],
        { empty: '(no profiles)' },
      ),
    )
    this.log('')
    this.log(renderMaintenance(built))
    return result
  }
}
