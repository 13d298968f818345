import { Flags } from '@oclif/core'
import { confirmOrRequireYes, operatorName } from '../cli/confirm.js'
import { JobActionCommand } from '../cli/job-action-command.js'
import { jobFilterFlags } from '../cli/job-filter-flags.js'
import { renderJobList } from '../cli/removed-jobs.js'
import { ACTION_WINDOW, countMatching } from '../queue/job-filter.js'
import { discardHeld, type RemovedJob } from '../queue/remove-jobs.js'

export default class Discard extends JobActionCommand {
  static override summary = 'Delete held jobs (status failed) for good, oldest first, each leaving a `deleted` log row.'
  static override description =
    'Held jobs that will never succeed can be dropped instead of requeued. Each one leaves the queue with one pgqueuer_log row of status `deleted` (its traceback record names who discarded it), so `aizk jobs show ID` still tells its story, and its dedupe key is free again. Filters and windows work as for `aizk requeue`. On a terminal the command asks first; elsewhere it needs --yes.'
  static override examples = [
    { command: '<%= config.bin %> discard --dry-run', description: 'List the held jobs a discard would delete; change nothing.' },
    {
      command: '<%= config.bin %> discard --entrypoint aizk_usage_event',
      description: 'Discard the held jobs of one entrypoint (repeat the flag for more); asks first.',
    },
    { command: '<%= config.bin %> discard --id 1234 --id 1240 --yes', description: 'Discard these held jobs without asking (exit 5 if one is not held).' },
    { command: '<%= config.bin %> discard --older-than 7d --limit 500 --yes', description: 'Discard at most the 500 oldest jobs held for a week or more.' },
    { command: '<%= config.bin %> discard -e aizk_convert_artifact --yes --json', description: 'Print {"discarded": [...], "matching", "remaining"} as JSON.' },
  ]
  static override flags = {
    ...jobFilterFlags('held', 'every match'),
    yes: Flags.boolean({ char: 'y', description: 'Do not ask (needed when there is no terminal).', default: false }),
  }

  async run(): Promise<DiscardResult> {
    const { flags } = await this.parse(Discard)
    const { db, filter, limit } = await this.startJobAction(flags, {
      statuses: ['failed'],
      not: 'held',
      hint: () => 'only held jobs (status failed) can be discarded; `aizk discard --dry-run` lists them, `aizk cancel` takes queued ones',
      detailsKey: 'notHeld',
    })
    const matching = await countMatching(db.pool, 'failed', filter)
    const target = Math.min(limit ?? matching, matching)
    let discarded: RemovedJob[] = []
    let confirmed = true
    if (flags['dry-run']) {
      discarded = target > 0 ? await discardHeld(db.pool, { ...filter, limit: Math.min(target, ACTION_WINDOW), dryRun: true }) : []
    } else if (target > 0) {
      confirmed = await confirmOrRequireYes(`Delete ${target} held job(s) for good?`, {
        yes: flags.yes,
        json: this.jsonEnabled(),
        what: `discard of ${target} held job(s)`,
      })
      if (confirmed) {
        const by = operatorName()
        discarded = await this.takeInWindows('discard', target, (n, afterId) => discardHeld(db.pool, { ...filter, limit: n, afterId, by }))
      }
    }
    const remaining = flags['dry-run'] ? matching : matching - discarded.length
    const result = { dryRun: flags['dry-run'], matching, count: discarded.length, remaining, discarded }
    if (this.jsonEnabled()) return result
    if (discarded.length === 0) this.log(matching === 0 ? 'no held jobs match' : confirmed ? 'nothing discarded' : 'not confirmed: nothing discarded')
    else this.log(renderJobList(discarded, flags['dry-run'] ? 'would discard' : 'discarded'))
    if (flags['dry-run'] && matching > discarded.length)
      this.log(`(${matching} held jobs match in all${target > discarded.length ? `; the list shows the first ${discarded.length}` : ''})`)
    return result
  }
}

export interface DiscardResult {
  dryRun: boolean
  matching: number
  count: number
  remaining: number
  discarded: RemovedJob[]
}
