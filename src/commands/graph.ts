import { Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { renderMaintenance } from '../cli/render-maintenance.js'
import { checkScopes, scopeFlag } from '../cli/scope-flag.js'
import { readGraph } from '../graph/read/read-graph.js'
import { readMaintenance } from '../graph/read/read-maintenance.js'
import { renderTable } from '../operator/table.js'

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
    {
      command: '<%= config.bin %> graph --scope aaaaaaaa-0000-4000-8000-000000000001 --kind person --limit 10 --page 2',
      description: 'People of the set, the second ten.',
    },
    {
      command: '<%= config.bin %> graph --scope aaaaaaaa-0000-4000-8000-000000000001 --json',
      description: 'Print entities, claims, profiles, communities, RAPTOR levels, insights and totals as JSON.',
    },
  ]
  static override flags = {
    scope: scopeFlag(),
    limit: Flags.integer({ description: 'Rows of each kind to show (strongest first).', default: 25, min: 1, max: 10000 }),
    page: Flags.integer({ description: 'Which page of --limit rows of entities, claims and profiles to show (1 is the strongest).', default: 1, min: 1 }),
    kind: Flags.string({
      description: 'Only entities of this kind (person, organisation, place, product, concept, event ...), the claims about them and their profiles.',
    }),
  }

  async run() {
    const { flags } = await this.parse(Graph)
    checkScopes(flags.scope)
    const settings = await this.settings()
    const db = await this.database({ deadline: false })
    const view = await readGraph(db.pool, flags.scope, settings, flags.limit, {
      offset: (flags.page - 1) * flags.limit,
      kind: flags.kind?.trim().toLowerCase(),
    })
    // Rows of several sets are read when the set has more than one scope: say whose each row is.
    const several = view.scopes.length > 1
    const scopeColumn = <T extends { scopes: string[] }>() => (several ? [{ header: 'SCOPE', get: (r: T) => r.scopes.join(',') }] : [])
    const built = await readMaintenance(db.pool, flags.scope, settings, flags.limit)
    const result = { ...view, ...built }
    if (this.jsonEnabled()) return result
    const t = view.totals
    this.log(`scope set {${view.scopes.join(',')}}: ${t.entities} entities, ${t.claims} claims, ${t.mentions} mentions, ${t.profiles} profiles`)
    if (flags.page > 1 || flags.kind) this.log(`page ${flags.page} of ${flags.limit} rows each${flags.kind ? `, kind ${flags.kind}` : ''}`)
    this.log('')
    this.log(
      renderTable(
        view.entities,
        [
          { header: 'ENTITY', get: (e) => e.name },
          { header: 'KIND', get: (e) => e.kind },
          { header: 'MENTIONS', get: (e) => String(e.mentions), align: 'right' },
          ...scopeColumn<(typeof view.entities)[number]>(),
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
          {
            header: 'CLAIM',
            get: (c) => `${c.subject} ${c.predicate} ${c.object}${c.faded ? ' (faded)' : ''}${c.supersededBy ? ' (superseded)' : ''}`.slice(0, 100),
          },
          ...scopeColumn<(typeof view.claims)[number]>(),
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
          ...scopeColumn<(typeof view.profiles)[number]>(),
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
