import { Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { wholeFlag } from '../cli/flags.js'
import { UsageError } from '../errors.js'
import { formatAge, oneLine } from '../operator/format.js'
import { readJobFilter, readPriority } from '../operator/job-filter-input.js'
import { jobId } from '../operator/numbers.js'
import { type Column, renderTable } from '../operator/table.js'
import { JOB_STATES, type JobState, type ListedJob, listJobs } from '../queue/list-jobs.js'

export const JOBS_MAX_LIMIT = 1000

/** Narrowest the ERROR column gets, however little room the terminal leaves. */
const ERROR_MIN_WIDTH = 12

/**
 * Held jobs' last error, its first line cut to what the terminal leaves beside the other
 * columns (the whole first line when the output is not a terminal).
 */
function errorColumn(jobs: ListedJob[], others: Column<ListedJob>[]): Column<ListedJob> {
  const used =
    Math.max(
      ...renderTable(jobs, others)
        .split('\n')
        .map((l) => l.length),
    ) + 2
  const width = process.stdout.isTTY && process.stdout.columns ? Math.max(ERROR_MIN_WIDTH, process.stdout.columns - used) : Number.POSITIVE_INFINITY
  return { header: 'ERROR', get: (j) => (j.lastError ? oneLine(j.lastError, width) : j.state === 'held' ? '-' : '') }
}

export default class Jobs extends AizkCommand {
  static override summary = 'List the jobs themselves by state (queued, scheduled, picked, held), entrypoint, priority and age, a page at a time.'
  static override description =
    `Live jobs (their rows in pgqueuer), oldest id first; scheduled ones (queued but not yet due) soonest due first. AGE is how long a row has been in its state; held jobs show the first line of their last error (ERROR, cut to the terminal's width). Pages are keyset: pass the last id printed (or "nextAfter" of --json) to --after for the next page. A page costs the same on a thousand rows as on a million (docs/jobs-by-state.md). Finished jobs are in \`aizk jobs show ID\` while their log rows are kept; the job types are \`aizk jobs types\`.`
  static override examples = [
    { command: '<%= config.bin %> jobs', description: 'The first 50 live jobs, every state.' },
    { command: '<%= config.bin %> jobs --state held --entrypoint aizk_convert_artifact', description: 'Held jobs of one entrypoint (-e, repeatable).' },
    {
      command: '<%= config.bin %> jobs --priority 75 -e aizk_convert_artifact -e aizk_reindex_artifact',
      description: 'Jobs of priority 75 of two entrypoints.',
    },
    { command: '<%= config.bin %> jobs --state queued --older-than 1h', description: 'Jobs ready to run that have waited an hour or more.' },
    { command: '<%= config.bin %> jobs --state scheduled --limit 20', description: 'The next 20 jobs to come due.' },
    { command: '<%= config.bin %> jobs --after 1234', description: 'The page after job 1234.' },
    { command: '<%= config.bin %> jobs --state picked --json', description: 'Print {"jobs": [...], "nextAfter"} as JSON.' },
  ]
  static override flags = {
    state: Flags.string({ char: 's', description: 'Only jobs in this state (default: every live job).', options: [...JOB_STATES] }),
    entrypoint: Flags.string({ char: 'e', description: 'Only this entrypoint (repeatable).', multiple: true }),
    priority: Flags.string({ char: 'p', description: 'Only this priority (repeatable).', multiple: true }),
    'older-than': Flags.string({ description: 'Only jobs in their state for at least this long (30m, 2h, 7d).' }),
    after: Flags.string({ description: 'Start after this job id: the last id of the previous page.' }),
    limit: wholeFlag({ char: 'n', description: `Jobs per page, at most ${JOBS_MAX_LIMIT}.`, example: '--limit 100', default: 50 }),
  }

  async run() {
    const { flags } = await this.parse(Jobs)
    const { filter } = readJobFilter(flags)
    const priorities = (flags.priority ?? []).map((p) => readPriority(p, '--priority'))
    if (flags.limit > JOBS_MAX_LIMIT) throw new UsageError(`--limit ${flags.limit} is over ${JOBS_MAX_LIMIT}`, 'page with --after instead')
    const afterId = flags.after === undefined ? undefined : jobId(flags.after, '--after')
    await this.settings()
    const db = await this.database({ applicationName: 'aizk jobs', readOnly: true })
    const page = await listJobs(db.pool, {
      state: flags.state as JobState | undefined,
      entrypoints: filter.entrypoints,
      priorities,
      olderThanSeconds: filter.olderThanSeconds,
      afterId,
      limit: flags.limit,
    })
    if (this.jsonEnabled()) return page
    const columns: Column<ListedJob>[] = [
      { header: 'ID', get: (j) => j.id, align: 'right' },
      { header: 'STATE', get: (j) => j.state },
      { header: 'ENTRYPOINT', get: (j) => j.entrypoint },
      { header: 'PRIORITY', get: (j) => j.priority, align: 'right' },
      { header: 'ATTEMPTS', get: (j) => j.attempts, align: 'right' },
      { header: 'AGE', get: (j) => formatAge(j.ageSeconds), align: 'right' },
    ]
    // Held jobs are never due: their page gives the room to the error instead.
    if (flags.state !== 'held') columns.push({ header: 'DUE IN', get: (j) => (j.state === 'scheduled' ? formatAge(j.dueInSeconds) : ''), align: 'right' })
    if (page.jobs.some((j) => j.state === 'held')) columns.push(errorColumn(page.jobs, columns))
    this.log(renderTable(page.jobs, columns, { empty: '(no live jobs match)' }))
    if (page.nextAfter) this.log(`more: the same command with --after ${page.nextAfter}`)
    return page
  }
}
