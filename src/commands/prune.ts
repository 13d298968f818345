import { Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { confirm, isInteractive } from '../cli/confirm.js'
import { daysFlag, wholeFlag } from '../cli/flags.js'
import { createProgress } from '../cli/progress.js'
import { UsageError } from '../errors.js'
import { formatBytes } from '../operator/format.js'
import { countPrunable, logSize, pruneLog, reclaimLog } from '../queue/prune.js'
import { MAX_TIMER_SECONDS } from '../settings-types.js'

const RECLAIM_WARNING =
  'the rewrite (VACUUM FULL) takes an ACCESS EXCLUSIVE lock on pgqueuer_log: while it runs, workers cannot finish jobs (their log rows wait), and it needs free disk for a second copy of the table'

export default class Prune extends AizkCommand {
  static override summary = 'Delete queue history (pgqueuer_log) past its retention, in batches.'
  static override description =
    'The log pass of the CleanupJob, by hand. Deletes log rows older than the retention in batches, each an index scan on created, until a short batch ends the drain; then VACUUM (ANALYZE), which never locks writers out but never hands disk back either. --reclaim is the one-time recovery for a log that grew before pruning ever ran: a table rewrite that returns the space to the operating system under an exclusive lock.'
  static override examples = [
    { command: '<%= config.bin %> prune', description: 'Delete rows older than AIZK_CLEANUP_LOG_RETENTION_DAYS (7), 10,000 a batch.' },
    { command: '<%= config.bin %> prune --dry-run', description: 'Count the rows a prune would delete; change nothing.' },
    { command: '<%= config.bin %> prune --retention-days 1', description: 'Keep one day of history.' },
    { command: '<%= config.bin %> prune --batch 50000', description: 'Delete 50,000 rows per batch.' },
    { command: '<%= config.bin %> prune --no-vacuum', description: 'Skip the VACUUM (ANALYZE) after the drain.' },
    { command: '<%= config.bin %> prune --reclaim', description: 'Prune, then rewrite the table to hand disk back (asks first: exclusive lock).' },
    {
      command: '<%= config.bin %> prune --reclaim --yes --lock-timeout 30',
      description: 'The same from a script: no question, wait at most 30 s for the lock.',
    },
    { command: '<%= config.bin %> prune --json', description: 'Print {"deleted", "batches", ...} as JSON.' },
  ]
  static override flags = {
    'retention-days': daysFlag({
      description: 'Keep this many days of history (default: AIZK_CLEANUP_LOG_RETENTION_DAYS, 7).',
      example: '--retention-days 7 (or 0.5 for twelve hours)',
    }),
    batch: wholeFlag({ description: 'Rows per delete batch (default: AIZK_CLEANUP_LOG_DELETE_BATCH, 10000).', example: '--batch 10000' }),
    'dry-run': Flags.boolean({ description: 'Count what would be deleted; change nothing.', default: false }),
    vacuum: Flags.boolean({ description: 'VACUUM (ANALYZE) the log after the drain (--no-vacuum skips it).', default: true, allowNo: true }),
    reclaim: Flags.boolean({ description: 'Rewrite the log afterwards to return disk (ACCESS EXCLUSIVE lock; asks first).', default: false }),
    yes: Flags.boolean({ char: 'y', description: 'Do not ask before --reclaim (needed without a terminal).', default: false }),
    'lock-timeout': wholeFlag({
      description: 'Seconds --reclaim waits for its lock before giving up with exit 6 (default 10).',
      example: '--lock-timeout 30',
      min: 0,
      max: MAX_TIMER_SECONDS,
      default: 10,
    }),
  }

  async run() {
    const { flags } = await this.parse(Prune)
    const settings = await this.settings()
    const retentionDays = flags['retention-days'] ?? settings.cleanupLogRetentionDays
    const batch = flags.batch ?? settings.cleanupLogDeleteBatch
    if (flags.reclaim && !flags['dry-run'] && !flags.yes) {
      if (!isInteractive() || this.jsonEnabled()) {
        throw new UsageError(`--reclaim needs --yes without a terminal: ${RECLAIM_WARNING}`, 'run it in a quiet moment with --reclaim --yes')
      }
      process.stderr.write(`warning: ${RECLAIM_WARNING}\n`)
      if (!(await confirm('Rewrite pgqueuer_log now?')))
        throw new UsageError('reclaim cancelled: nothing was changed', 'run again and answer y, or leave out --reclaim')
    }
    const db = await this.database({ deadline: false, session: flags.reclaim && !flags['dry-run'] })

    if (flags['dry-run']) {
      const [count, size] = await Promise.all([countPrunable(db.pool, { retentionDays }), logSize(db.pool)])
      const plan = { dryRun: true as const, retentionDays, cutoff: count.cutoff, wouldDelete: count.rows, log: size }
      if (this.jsonEnabled()) return plan
      this.log(`would delete ${count.rows.toLocaleString('en-US')} log row(s) older than ${count.cutoff} (retention ${retentionDays} days)`)
      this.log(`pgqueuer_log: about ${size.rowsEstimate?.toLocaleString('en-US') ?? '?'} rows, ${formatBytes(size.bytes)}`)
      return plan
    }

    const json = this.jsonEnabled()
    const progress = json ? null : createProgress('prune')
    const result = await pruneLog(db.pool, {
      retentionDays,
      batch,
      vacuum: flags.vacuum,
      countFirst: !json,
      onProgress: (p) => progress?.update(p.deleted, p.total !== undefined ? Math.max(p.total, p.deleted) : undefined),
    })
    progress?.done()
    let reclaim: Awaited<ReturnType<typeof reclaimLog>> | null = null
    if (flags.reclaim) {
      if (!json) this.logToStderr(`rewriting pgqueuer_log (exclusive lock) ...`)
      reclaim = await reclaimLog(db.pool, { lockTimeoutMs: flags['lock-timeout'] * 1000 })
    }
    const done = { dryRun: false as const, retentionDays, batch, ...result, reclaim }
    if (json) return done
    this.log(
      `deleted ${result.deleted.toLocaleString('en-US')} log row(s) older than ${result.cutoff} in ${result.batches} batch(es), ${(result.ms / 1000).toFixed(1)}s${result.vacuumed ? '; vacuumed' : ''}`,
    )
    if (reclaim)
      this.log(
        `reclaimed ${formatBytes(reclaim.bytesBefore - reclaim.bytesAfter)}: pgqueuer_log ${formatBytes(reclaim.bytesBefore)} -> ${formatBytes(reclaim.bytesAfter)}`,
      )
    return done
  }
}
