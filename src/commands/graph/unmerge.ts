import { Args } from '@oclif/core'
import { AizkCommand } from '../../cli/base-command.js'
import { checkScopes, scopeFlag } from '../../cli/scope-flags.js'
import { undoMerge } from '../../graph/resolve/merge-history.js'

export default class GraphUnmerge extends AizkCommand {
  static override summary =
    'Undo one entity merge from its record: the merged entity, its claims, evidence and mentions come back, and the pair is never merged again.'
  static override description =
    'Takes a merge id from `aizk graph merges`. The survivor gives back what the merge added (claims folded into its own, their weight and evidence, mentions, its old name); both profiles are rebuilt by the next profile pass. Exit 2 when the id is not a merge of this set, was already undone, or a later merge holds its survivor (the message names the merge to undo first).'
  static override examples = [
    {
      command: '<%= config.bin %> graph unmerge 3f1c2a9e-5d4b-4c1a-9e2f-0a1b2c3d4e5f --scope aaaaaaaa-0000-4000-8000-000000000001',
      description: 'Undo that merge in the set {A}.',
    },
    {
      command: '<%= config.bin %> graph unmerge 3f1c2a9e-5d4b-4c1a-9e2f-0a1b2c3d4e5f --scope aaaaaaaa-0000-4000-8000-000000000001 --json',
      description: 'Print the undone record as JSON.',
    },
  ]
  static override args = {
    merge: Args.string({ description: 'The merge id (the ID column of `aizk graph merges`).', required: true }),
  }
  static override flags = { scope: scopeFlag }

  async run() {
    const { args, flags } = await this.parse(GraphUnmerge)
    checkScopes(flags.scope)
    const settings = await this.settings()
    const db = await this.database({ deadline: false })
    const record = await undoMerge(db.pool, flags.scope, settings, args.merge)
    if (!this.jsonEnabled()) this.log(`undone: "${record.mergedName}" is its own entity again (it had been merged into "${record.intoName}" by ${record.rule})`)
    return record
  }
}
