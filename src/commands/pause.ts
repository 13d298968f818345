import { Args, Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { operatorName } from '../cli/confirm.js'
import { pauseTarget } from '../cli/pause-target.js'
import { pauseEntrypoint } from '../queue/pause.js'

export default class Pause extends AizkCommand {
  static override summary = 'Pause an entrypoint on every worker at once: its jobs stay queued until `aizk resume`.'
  static override description =
    'The pause is stored in the database (aizk_entrypoint_pause), so it holds across worker restarts and for workers started later. Running workers learn of it at once through NOTIFY on aizk_control (or within one heartbeat if that is lost) and stop picking the entrypoint; jobs already running finish. Enqueueing goes on. Pausing a paused entrypoint changes nothing and exits 0. Python PgQueuer workers do not read the pause.'
  static override examples = [
    { command: '<%= config.bin %> pause aizk_convert_artifact', description: 'Stop converting until resumed (say, while docling is down).' },
    {
      command: `<%= config.bin %> pause aizk_convert_artifact --reason 'docling upgrade'`,
      description: 'Keep a reason with the pause (shown by `aizk status`).',
    },
    { command: '<%= config.bin %> pause py_send_mail --force', description: 'Pause an entrypoint this process does not know.' },
    { command: '<%= config.bin %> pause aizk_usage_event --json', description: 'Print {"entrypoint", "paused", "changed", ...} as JSON.' },
  ]
  static override args = {
    entrypoint: Args.string({ description: 'The entrypoint to pause (see `aizk jobs types`).', required: true }),
  }
  static override flags = {
    reason: Flags.string({ char: 'r', description: 'Why: kept with the pause and shown by `aizk status`.' }),
    force: Flags.boolean({ description: 'Allow an entrypoint this process does not know.', default: false }),
  }

  async run() {
    const { args, flags } = await this.parse(Pause)
    await this.settings()
    const entrypoint = pauseTarget(args.entrypoint, flags.force)
    const db = await this.database()
    const { changed, pause } = await pauseEntrypoint(db.pool, entrypoint, { by: operatorName(), reason: flags.reason ?? null })
    const result = { entrypoint, paused: true, changed, pausedAt: pause.pausedAt, pausedBy: pause.pausedBy, reason: pause.reason }
    if (this.jsonEnabled()) return result
    this.log(
      changed
        ? `paused ${entrypoint}: workers stop picking its jobs; \`aizk resume ${entrypoint}\` lifts it`
        : `${entrypoint} was already paused (since ${pause.pausedAt}${pause.pausedBy ? `, by ${pause.pausedBy}` : ''})`,
    )
    return result
  }
}
