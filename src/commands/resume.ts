import { Args, Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { pauseTarget } from '../cli/pause-target.js'
import { resumeEntrypoint } from '../queue/pause.js'

export default class Resume extends AizkCommand {
  static override summary = 'Resume a paused entrypoint on every worker at once.'
  static override description =
    'Deletes the pause `aizk pause` stored; running workers learn of it at once through NOTIFY on aizk_control and pick the queued jobs again. Resuming an entrypoint that is not paused changes nothing and exits 0.'
  static override examples = [
    { command: '<%= config.bin %> resume aizk_convert_artifact', description: 'Start picking conversions again.' },
    { command: '<%= config.bin %> resume py_send_mail --force', description: 'Resume an entrypoint this process does not know.' },
    { command: '<%= config.bin %> resume aizk_usage_event --json', description: 'Print {"entrypoint", "paused": false, "changed", ...} as JSON.' },
  ]
  static override args = {
    entrypoint: Args.string({ description: 'The entrypoint to resume.', required: true }),
  }
  static override flags = {
    force: Flags.boolean({ description: 'Allow an entrypoint this process does not know.', default: false }),
  }

  async run() {
    const { args, flags } = await this.parse(Resume)
    await this.settings()
    const entrypoint = pauseTarget(args.entrypoint, flags.force)
    const db = await this.database()
    const lifted = await resumeEntrypoint(db.pool, entrypoint)
    const result = { entrypoint, paused: false, changed: lifted !== null, pausedSince: lifted?.pausedAt ?? null }
    if (this.jsonEnabled()) return result
    this.log(lifted ? `resumed ${entrypoint} (paused since ${lifted.pausedAt})` : `${entrypoint} was not paused`)
    return result
  }
}
