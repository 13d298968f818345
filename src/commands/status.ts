import { Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { wholeFlag } from '../cli/flags.js'
import { canDrawLive } from '../cli/terminal.js'
import { countIntegrityFailures } from '../content/integrity.js'
import { UnhealthyError } from '../errors.js'
import { statsJobHooks } from '../operator/job-inventory.js'
import { queueStats, type StatsOptions } from '../queue/stats.js'
import { memoryBacklog } from '../scope/memory-backlog.js'
import { MAX_TIMER_SECONDS } from '../settings-types.js'
import { renderTextFrame } from '../ui/status/text-frame.js'

/** Held jobs the live view loads for its scrolling pane (the newest, through aizk_failed_ep_id_idx). */
const LIVE_HELD_ROWS = 200

export default class Status extends AizkCommand {
  static override summary = 'Show what the queue is doing: live on a terminal, one frame or JSON elsewhere.'
  static override description =
    'Jobs by entrypoint and status (queued, picked, held) with priority and concurrency in use against the limit, throughput now and over the last 15 minutes, the oldest queued age, held jobs with their last error and cycles, workers alive and stale picks, schedules with their next fire, and the log table size. Counts come from trigger-kept tables and the catalogue, so a refresh stays cheap on millions of rows. --check exits 7 when something is unhealthy: stale picks, suspect picks (a PgQueuer worker silent past aizk’s heartbeat timeout), a live worker whose handlers’ statements are stuck past their deadline (or, without one, the job timeout), held jobs over the threshold, an enabled cron of aizk’s own that has not fired in twice its period (--include-foreign-schedules judges PgQueuer’s schedules too), or artifact originals that failed re-verification. PgQueuer workers, seen through the jobs they hold picked, are listed as foreign workers.'
  static override examples = [
    {
      command: '<%= config.bin %> status',
      description: 'The live dashboard (tab or ←→ move between panes, ↑↓ and PgUp/PgDn scroll one, q quits); one plain frame when not on a terminal.',
    },
    { command: '<%= config.bin %> status --once', description: 'Print one plain-text frame and exit.' },
    { command: '<%= config.bin %> status --json', description: 'Print one JSON document (see the README for its shape).' },
    { command: '<%= config.bin %> status --check', description: 'Exit 7 and say why when the queue is unhealthy (for probes and alerts).' },
    { command: '<%= config.bin %> status --check --max-held 100', description: 'Tolerate up to 100 held jobs (default AIZK_STATUS_HELD_THRESHOLD, 0).' },
    { command: '<%= config.bin %> status --interval 5', description: 'Refresh the dashboard every 5 seconds.' },
    {
      command: '<%= config.bin %> status --check --include-foreign-schedules',
      description: "Also judge schedules aizk does not own (a PgQueuer scheduler's) as overdue.",
    },
  ]
  static override flags = {
    once: Flags.boolean({ description: 'Print one plain-text frame and exit.', default: false }),
    check: Flags.boolean({ description: 'Exit 7 when unhealthy, printing why; 0 when healthy.', default: false }),
    'max-held': wholeFlag({ description: 'Held jobs tolerated by --check (default: AIZK_STATUS_HELD_THRESHOLD, 0).', example: '--max-held 100', min: 0 }),
    interval: wholeFlag({ description: 'Seconds between dashboard refreshes (default 1).', example: '--interval 2', max: MAX_TIMER_SECONDS, default: 1 }),
    'include-foreign-schedules': Flags.boolean({
      description: "--check also judges schedules aizk does not own (not aizk_cron_*, e.g. PgQueuer's) as overdue.",
      default: false,
    }),
  }

  async run() {
    const { flags } = await this.parse(Status)
    const settings = await this.settings()
    const db = await this.database({ poolSize: 4, applicationName: 'aizk status' })
    const opts: StatsOptions = {
      heartbeatTimeoutSeconds: settings.heartbeatTimeoutSeconds,
      foreignHeartbeatTimeoutSeconds: settings.foreignHeartbeatTimeoutSeconds,
      includeForeignSchedules: flags['include-foreign-schedules'],
      heldThreshold: flags['max-held'] ?? settings.statusHeldThreshold,
      timezone: settings.timezone,
      ...statsJobHooks(settings),
      integrity: countIntegrityFailures,
    }
    const load = async (o: StatsOptions = opts) => ({ ...(await queueStats(db.pool, o)), memory: await memoryBacklog(db.pool, settings) })

    if (flags.check) {
      const stats = await load()
      if (!stats.health.healthy) {
        throw new UnhealthyError(
          `unhealthy:\n${stats.health.problems.map((p) => `  - ${p.message}`).join('\n')}`,
          'see `aizk status` for the whole picture',
          stats.health.problems,
        )
      }
      this.log('healthy')
      return { healthy: true, problems: [] }
    }
    // The live dashboard streams frames; --json, --once and a pipe get one frame, returned.
    const live = !this.jsonEnabled() && !flags.once && canDrawLive() && process.stdin.isTTY
    if (!live) {
      const stats = await load()
      if (!this.jsonEnabled()) this.log(renderTextFrame(stats))
      return stats
    }
    const { runStatusView } = await import('../ui/status/run-status-view.js')
    // The live held pane scrolls, so it reads more of the newest held jobs than one frame shows.
    await runStatusView({ load: () => load({ ...opts, heldLimit: LIVE_HELD_ROWS }), intervalMs: flags.interval * 1000 })
    return undefined
  }
}
