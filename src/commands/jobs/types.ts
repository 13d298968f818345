import { Flags } from '@oclif/core'
import { AizkCommand } from '../../cli/base-command.js'
import { jobInventory, renderJobInventory } from '../../operator/job-inventory.js'

export default class JobsTypes extends AizkCommand {
  static override summary = 'List the job inventory: entrypoint, kind, priority, concurrency, attempts, cron, next fire, payload fields.'
  static override description =
    "The job types, not the jobs themselves (`aizk jobs` lists those). Every job this process registers (aizk's own and those of AIZK_WORKER_JOB_MODULES). Scheduled jobs show their effective cron and whether they are enabled (AIZK_<NAME>_CRON / AIZK_<NAME>_ENABLED) and their next fire computed from the cron in AIZK_TIMEZONE. Needs no database."
  static override examples = [
    { command: '<%= config.bin %> jobs types', description: 'The inventory as a table.' },
    { command: '<%= config.bin %> jobs types --kind scoped', description: 'Only scoped scheduled jobs (on-write, scoped or system).' },
    { command: 'AIZK_DECAY_ENABLED=false <%= config.bin %> jobs types', description: 'See the effect of a setting on the schedule.' },
    { command: '<%= config.bin %> jobs types --json', description: 'Print {"jobs": [...]} as JSON.' },
  ]
  static override flags = {
    kind: Flags.string({ description: 'Only jobs of this kind.', options: ['on-write', 'scoped', 'system'] }),
  }

  async run() {
    const { flags } = await this.parse(JobsTypes)
    const settings = await this.settings()
    const now = new Date()
    const rows = jobInventory(settings, now).filter((r) => !flags.kind || r.kind === flags.kind)
    const result = { timezone: settings.timezone, jobs: rows }
    if (this.jsonEnabled()) return result
    this.log(renderJobInventory(rows, now))
    return result
  }
}
