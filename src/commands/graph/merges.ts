import { Flags } from '@oclif/core'
import { AizkCommand } from '../../cli/base-command.js'
import { checkScopes, scopeFlag } from '../../cli/scope-flags.js'
import { readMerges } from '../../graph/resolve/merge-history.js'
import { renderTable } from '../../operator/table.js'

export default class GraphMerges extends AizkCommand {
  static override summary = "List a scope set's entity merges, newest first: what was merged into what, by which rule, and the name kept."
  static override description =
    'Each row is one record of the dedup pass (docs/memory-graph.md, "Resolution"); its id is what `aizk graph unmerge` takes. Undone merges are hidden unless --undone.'
  static override examples = [
    { command: '<%= config.bin %> graph merges --scope aaaaaaaa-0000-4000-8000-000000000001', description: "The set's latest merges." },
    {
      command: '<%= config.bin %> graph merges --scope aaaaaaaa-0000-4000-8000-000000000001 --entity Akkerman --undone',
      description: 'Merges of or into "Akkerman", undone ones too.',
    },
    { command: '<%= config.bin %> graph merges --scope aaaaaaaa-0000-4000-8000-000000000001 --limit 200 --json', description: 'Print the records as JSON.' },
  ]
  static override flags = {
    scope: scopeFlag,
    entity: Flags.string({ description: 'Only merges of or into an entity of this name (case-insensitive).' }),
    undone: Flags.boolean({ description: 'Include merges that were undone.', default: false }),
    limit: Flags.integer({ description: 'Records to show.', default: 50, min: 1, max: 10000 }),
  }

  async run() {
    const { flags } = await this.parse(GraphMerges)
    checkScopes(flags.scope)
    const settings = await this.settings()
    const db = await this.database({ deadline: false })
    const merges = await readMerges(db.pool, flags.scope, settings, { limit: flags.limit, entity: flags.entity, undone: flags.undone })
    if (!this.jsonEnabled()) {
      this.log(
        renderTable(
          merges,
          [
            { header: 'ID', get: (m) => m.id },
            { header: 'MERGED', get: (m) => m.mergedName },
            { header: 'INTO', get: (m) => m.intoName },
            { header: 'KEPT NAME', get: (m) => m.keptName },
            { header: 'RULE', get: (m) => m.rule },
            { header: 'WHEN', get: (m) => m.mergedAt.toISOString() + (m.undoneAt ? ' (undone)' : '') },
          ],
          { empty: '(no merges)' },
        ),
      )
    }
    return { merges }
  }
}
