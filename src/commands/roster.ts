import { Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { UsageError } from '../errors.js'
import { formatCount } from '../operator/format.js'
import { renderTable } from '../operator/table.js'
import { rosterCounts } from '../scope/roster-counts.js'
import { isUuid } from '../scope/scope-set.js'

export default class Roster extends AizkCommand {
  static override summary =
    'List the scope sets the roster finds, with what each holds: documents, session items, artifacts, chunks pending projection, entities, claims, communities, insights.'
  static override description =
    'The roster is every distinct scope set that a document, session item or artifact stores: one scoped pass runs per set. It runs as the system user (a read past row security that returns scope arrays only); each set is then counted inside User.system(set), as its own passes would see it.'
  static override examples = [
    { command: '<%= config.bin %> roster', description: 'Every scope set with its counts.' },
    {
      command: '<%= config.bin %> roster --scope 00000000-0000-4000-a000-000000000001',
      description: 'Only sets that contain this scope (repeatable: all must be in the set).',
    },
    { command: '<%= config.bin %> roster --json', description: 'Print {"sets": [...]} as JSON.' },
  ]
  static override flags = {
    scope: Flags.string({ char: 's', description: 'Only sets containing this scope uuid (repeatable).', multiple: true }),
  }

  async run() {
    const { flags } = await this.parse(Roster)
    const settings = await this.settings()
    const scopes = (flags.scope ?? []).map((s) => s.trim().toLowerCase())
    const bad = scopes.filter((s) => !isUuid(s))
    if (bad.length) {
      throw new UsageError(
        `not a uuid: ${bad.map((b) => `"${b}"`).join(', ')}`,
        'scopes are uuids such as 00000000-0000-4000-a000-000000000001 (see `aizk roster` for the sets that exist)',
        { invalid: bad },
      )
    }
    const db = await this.database()
    const sets = await rosterCounts(db.pool, settings, { contains: scopes })
    const result = { systemUserId: settings.systemUserId, count: sets.length, sets }
    if (this.jsonEnabled()) return result
    this.log(
      renderTable(
        sets,
        [
          { header: 'SCOPES', get: (r) => r.scopes.join(',') },
          { header: 'DOCUMENTS', get: (r) => formatCount(r.documents), align: 'right' },
          { header: 'SESSION ITEMS', get: (r) => formatCount(r.sessionItems), align: 'right' },
          { header: 'ARTIFACTS', get: (r) => formatCount(r.artifacts), align: 'right' },
          { header: 'PENDING CHUNKS', get: (r) => formatCount(r.chunksPendingProjection), align: 'right' },
          { header: 'ENTITIES', get: (r) => formatCount(r.entities), align: 'right' },
          { header: 'CLAIMS', get: (r) => formatCount(r.claims), align: 'right' },
          { header: 'COMMUNITIES', get: (r) => formatCount(r.communities), align: 'right' },
          { header: 'INSIGHTS', get: (r) => formatCount(r.insights), align: 'right' },
        ],
        { empty: '(no scope sets: nothing is stored yet)' },
      ),
    )
    if (sets.length) this.log(`${sets.length} scope set(s): a scoped pass fans out into one job per set`)
    return result
  }
}
