import { Flags } from '@oclif/core'
import { ask, isInteractive } from '../cli/confirm.js'
import { wholeFlag } from '../cli/flags.js'
import { JobActionCommand } from '../cli/job-action-command.js'
import { jobFilterFlags } from '../cli/job-filter-flags.js'
import { renderJobList } from '../cli/removed-jobs.js'
import { countHeld, type RequeuedJob, requeueFailed } from '../queue/requeue.js'

export default class Requeue extends JobActionCommand {
  static override summary = 'Put held jobs (status failed) back in the queue, oldest first.'
  static override description =
    'Moves a bounded window of held jobs back to queued: attempts reset to 0, one more terminal cycle counted on the row (headers.aizk.cycles), and ch_pgqueuer notified so sleeping workers (Python PgQueuer ones too) wake. Without --limit the window is AIZK_REQUEUE_DEFAULT_LIMIT: on a terminal the command asks before moving more, elsewhere it needs --yes to go past it. Two requeues at once never move the same row twice.'
  static override examples = [
    { command: '<%= config.bin %> requeue --dry-run', description: 'List the held jobs a requeue would move; change nothing.' },
    {
      command: '<%= config.bin %> requeue --entrypoint aizk_build_graph_chunk',
      description: 'Requeue held jobs of one entrypoint (repeat the flag for more).',
    },
    { command: '<%= config.bin %> requeue --entrypoint aizk_convert_artifact --limit 50', description: 'Requeue at most the 50 oldest held jobs.' },
    { command: '<%= config.bin %> requeue --max-cycles 3', description: 'Skip jobs that were already requeued and held again 3 times.' },
    { command: '<%= config.bin %> requeue --id 1234 --id 1240', description: 'Requeue these held jobs (exit 5 if one is not held).' },
    { command: '<%= config.bin %> requeue --older-than 2h', description: 'Only jobs held for at least two hours.' },
    { command: '<%= config.bin %> requeue --yes', description: 'Requeue every held job, past the default window, without asking.' },
    { command: '<%= config.bin %> requeue --entrypoint aizk_usage_event --json', description: 'Print {"requeued": [...], "remaining": n} as JSON.' },
  ]
  static override flags = {
    ...jobFilterFlags('held', 'AIZK_REQUEUE_DEFAULT_LIMIT, 1000'),
    'max-cycles': wholeFlag({
      description: 'Skip jobs whose terminal cycles already reached this (default: no cap).',
      example: '--max-cycles 3, or leave it out for no cap',
    }),
    yes: Flags.boolean({ char: 'y', description: 'Go past the default window without asking.', default: false }),
  }

  async run(): Promise<RequeueResult> {
    const { flags } = await this.parse(Requeue)
    const settings = await this.settings()
    const {
      db,
      filter: base,
      limit: limitFlag,
    } = await this.startJobAction(flags, {
      statuses: ['failed'],
      not: 'held',
      hint: () => 'only held jobs (status failed) can be requeued; `aizk requeue --dry-run` lists them',
      detailsKey: 'notHeld',
    })
    const filter = { ...base, maxCycles: flags['max-cycles'] }

    const matching = await countHeld(db.pool, filter)
    const window = settings.requeueDefaultLimit
    let limit = limitFlag ?? Math.min(matching, window)
    let note: string | null = null
    if (limitFlag === undefined && matching > window && !flags['dry-run']) {
      if (flags.yes) limit = matching
      else if (isInteractive() && !this.jsonEnabled()) {
        const answer = await ask(
          `${matching} held jobs match, more than the default window of ${window}. Requeue all ${matching} (a), the oldest ${window} (w), or none (N)? `,
        )
        if (answer === 'a' || answer === 'all') limit = matching
        else if (answer === 'w' || answer === 'window') limit = window
        else limit = 0
      } else {
        note = `${matching} held jobs match; requeued the oldest ${window} (the default window). Pass --yes to requeue all, or --limit N`
      }
    }

    let requeued: RequeuedJob[] = []
    if (flags['dry-run']) {
      requeued = limit > 0 ? await requeueFailed(db.pool, { ...filter, limit, dryRun: true }) : []
    } else if (limit > 0) {
      requeued = await this.takeInWindows('requeue', limit, (n, afterId) => requeueFailed(db.pool, { ...filter, limit: n, afterId }))
    }
    const remaining = flags['dry-run'] ? matching : Math.max(0, matching - requeued.length)
    const result = { dryRun: flags['dry-run'], matching, count: requeued.length, remaining, requeued, note }
    if (!this.jsonEnabled()) this.render(requeued, result)
    return result
  }

  private render(rows: RequeuedJob[], o: { dryRun: boolean; matching: number; note: string | null }): void {
    if (rows.length === 0) {
      this.log(o.matching === 0 ? 'no held jobs match' : 'nothing requeued')
      return
    }
    this.log(renderJobList(rows, o.dryRun ? 'would requeue' : 'requeued', { attempts: false, cycleHeader: 'CYCLE' }))
    if (o.dryRun && o.matching > rows.length) this.log(`(${o.matching} held jobs match in all; the window is ${rows.length})`)
    if (o.note) this.logToStderr(o.note)
  }
}

export interface RequeueResult {
  dryRun: boolean
  matching: number
  count: number
  remaining: number
  requeued: RequeuedJob[]
  note: string | null
}
