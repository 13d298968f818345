import { Args, Flags } from '@oclif/core'
import { AizkCommand } from '../../cli/base-command.js'
import { renderEntity } from '../../cli/render-entity.js'
import { checkScopes, scopeFlag } from '../../cli/scope-flag.js'
import { readEntity } from '../../graph/read/read-entity.js'

export default class GraphEntity extends AizkCommand {
  static override summary = "One entity of a scope set's memory graph: aliases (merges), claims out and in with sources, neighbours, communities and mentions."
  static override description =
    'Finds the entity by id (a merged id shows the entity it was merged into) or by name (case and a leading article aside; an alias finds the entity it was merged into). Reads as the app role inside the scope set, so row security decides, by containment. Exit 5 when the set has no such entity (close names are suggested), exit 2 on a malformed scope.'
  static override examples = [
    { command: '<%= config.bin %> graph entity "Ian Murdock" --scope aaaaaaaa-0000-4000-8000-000000000001', description: "One entity's page." },
    {
      command: '<%= config.bin %> graph entity 5b1e0c6e-8f3a-4b8e-9a57-1f6f3c1d2e4a --scope aaaaaaaa-0000-4000-8000-000000000001 --limit 100 --json',
      description: 'By id, up to 100 rows of each list, as JSON.',
    },
  ]
  static override args = {
    entity: Args.string({ description: "The entity's name or id.", required: true }),
  }
  static override flags = {
    scope: scopeFlag(),
    limit: Flags.integer({ description: 'Rows of each list (claims out, claims in, neighbours, mentions).', default: 25, min: 1, max: 10000 }),
  }

  async run() {
    const { args, flags } = await this.parse(GraphEntity)
    const scopes = checkScopes(flags.scope)
    const settings = await this.settings()
    const db = await this.database({ deadline: false })
    const page = await readEntity(db.pool, scopes, args.entity, settings, flags.limit)
    if (!this.jsonEnabled()) this.log(renderEntity(page))
    return page
  }
}
