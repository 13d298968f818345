import { Flags } from '@oclif/core'
import { confirmOrRequireYes, operatorName } from '../cli/confirm.js'
import { JobActionCommand } from '../cli/job-action-command.js'
import { jobFilterFlags } from '../cli/job-filter-flags.js'
import { renderJobList } from '../cli/removed-jobs.js'
import { type CancelRequestedJob, requestCancel } from '../queue/cancel-request.js'
import { ACTION_WINDOW, countMatching } from '../queue/job-filter.js'
import { cancelQueued, type RemovedJob } from '../queue/remove-jobs.js'

export default class Cancel extends JobActionCommand {
  static override summary = 'Cancel queued jobs (and, with --running, ask running ones to stop), each leaving a `canceled` log row.'
  static override description =
    "Queued jobs matching the filters leave the queue at once with one pgqueuer_log row of status `canceled`. With --running, picked jobs that match are asked to stop: the row is marked and PgQueuer's `cancellation_event` is sent on ch_pgqueuer, the worker running the job aborts its handler's signal, and when the handler ends the job leaves with a `canceled` log row (a worker that missed the notification finds the mark within one heartbeat). Filters and windows work as for `aizk requeue`. On a terminal the command asks first; elsewhere it needs --yes."
  static override examples = [
    { command: '<%= config.bin %> cancel --entrypoint aizk_usage_event --dry-run', description: 'List the queued jobs a cancel would remove; change nothing.' },
    { command: '<%= config.bin %> cancel --entrypoint aizk_usage_event --yes', description: 'Cancel every queued job of one entrypoint without asking.' },
    { command: '<%= config.bin %> cancel --id 1234 --running --yes', description: 'Cancel this job whether queued or running (exit 5 if it is neither).' },
    {
      command: '<%= config.bin %> cancel -e aizk_convert_artifact --running --older-than 1h --yes',
      description: 'Also stop the conversions running for an hour or more.',
    },
    {
      command: '<%= config.bin %> cancel -e aizk_usage_event --limit 100 --yes --json',
      description: 'Print {"canceled": [...], "cancelRequested": [...], ...} as JSON.',
    },
  ]
  static override flags = {
    ...jobFilterFlags('queued', 'every match'),
    running: Flags.boolean({ description: 'Also ask the workers running matching picked jobs to cancel them.', default: false }),
    yes: Flags.boolean({ char: 'y', description: 'Do not ask (needed when there is no terminal).', default: false }),
  }

  async run(): Promise<CancelResult> {
    const { flags } = await this.parse(Cancel)
    const { db, filter, limit } = await this.startJobAction(flags, {
      statuses: flags.running ? ['queued', 'picked'] : ['queued'],
      not: flags.running ? 'queued or running' : 'queued',
      hint: (missing) =>
        missing.some((m) => m.status === 'picked')
          ? 'add --running to ask the worker running it to cancel it'
          : 'only queued (and with --running, picked) jobs can be canceled; `aizk discard` takes held ones',
      detailsKey: 'notCancelable',
    })
    const matchingQueued = await countMatching(db.pool, 'queued', filter)
    const matchingRunning = flags.running ? await countMatching(db.pool, 'picked', filter) : 0
    const queuedTarget = Math.min(limit ?? matchingQueued, matchingQueued)
    const runningTarget = Math.min(limit === undefined ? matchingRunning : limit - queuedTarget, matchingRunning)
    let canceled: RemovedJob[] = []
    let requested: CancelRequestedJob[] = []
    let confirmed = true
    if (flags['dry-run']) {
      if (queuedTarget > 0) canceled = await cancelQueued(db.pool, { ...filter, limit: Math.min(queuedTarget, ACTION_WINDOW), dryRun: true })
      if (runningTarget > 0) requested = await requestCancel(db.pool, { ...filter, limit: Math.min(runningTarget, ACTION_WINDOW), dryRun: true })
    } else if (queuedTarget + runningTarget > 0) {
      const what = [queuedTarget ? `${queuedTarget} queued job(s)` : '', runningTarget ? `${runningTarget} running job(s)` : ''].filter(Boolean).join(' and ')
      confirmed = await confirmOrRequireYes(`Cancel ${what}?`, { yes: flags.yes, json: this.jsonEnabled(), what: `cancel of ${what}` })
      if (confirmed) {
        const by = operatorName()
        canceled = await this.takeInWindows('cancel', queuedTarget, (n, afterId) => cancelQueued(db.pool, { ...filter, limit: n, afterId, by }))
        requested = await this.takeInWindows(null, runningTarget, (n, afterId) => requestCancel(db.pool, { ...filter, limit: n, afterId, by }))
      }
    }
    const matching = { queued: matchingQueued, running: matchingRunning }
    const result = { dryRun: flags['dry-run'], matching, count: canceled.length + requested.length, canceled, cancelRequested: requested }
    if (this.jsonEnabled()) return result
    const verb = flags['dry-run'] ? 'would cancel' : 'canceled'
    if (canceled.length + requested.length === 0) {
      this.log(
        matchingQueued + matchingRunning === 0
          ? `no ${flags.running ? 'queued or running' : 'queued'} jobs match`
          : confirmed
            ? 'nothing canceled'
            : 'not confirmed: nothing canceled',
      )
    }
    if (canceled.length) this.log(renderJobList(canceled, verb))
    if (requested.length) {
      this.log(renderJobList(requested, flags['dry-run'] ? 'would ask the workers to cancel' : 'asked the workers running them to cancel'))
      if (!flags['dry-run']) this.log('(each leaves the queue with a `canceled` log row once its handler returns: `aizk jobs show ID` follows it)')
    }
    return result
  }
}

export interface CancelResult {
  dryRun: boolean
  matching: { queued: number; running: number }
  count: number
  canceled: RemovedJob[]
  cancelRequested: CancelRequestedJob[]
}
