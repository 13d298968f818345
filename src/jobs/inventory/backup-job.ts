/**
 * BackupJob (system, 02:00 daily, off unless AIZK_BACKUP_ENABLED): pg_dump in custom format to
 * backupDir, timestamped, the newest backupKeep kept, each checked with pg_restore --list. A
 * missing pg_dump, or one older than the server, is a held job with an error saying what to do.
 */
import { DatabasePool } from '../../db/database-pool.js'
import { PermanentJobError } from '../../permanent-error.js'
import { type ScheduledContext, SystemScheduledJob } from '../scheduled-job.js'

export class BackupJob extends SystemScheduledJob {
  static override defaultCron = '0 2 * * *'
  static override defaultEnabled = false

  async execute(ctx: ScheduledContext): Promise<void> {
    const url = ctx.pool instanceof DatabasePool ? ctx.pool.url : ''
    if (!url) {
      throw new PermanentJobError(
        'the worker pool was not opened by openDatabase (or createPool), so there is no server URL to hand to pg_dump',
        'run backups in `aizk worker`, or give the embedded Worker the pool openDatabase returns',
      )
    }
    const { runBackup } = await import('../../backup/run-backup.js')
    const result = await runBackup(ctx.pool, {
      url,
      dir: ctx.settings.backupDir,
      keep: ctx.settings.backupKeep,
      env: ctx.settings.env,
      pgBin: ctx.settings.backupPgBin,
      signal: ctx.signal,
    })
    ctx.emit?.('backup:written', result)
  }
}
