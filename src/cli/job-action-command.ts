/**
 * The skeleton requeue, discard and cancel share: the filter flags read and checked (entrypoints
 * that exist, ids in the statuses the command takes) before anything changes, then the matching
 * rows taken a window at a time, oldest first, with progress on big runs. Each command keeps only
 * what differs: which rows, how it confirms, what it prints.
 */
import type { Database } from '../db/database.js'
import { NotFoundError } from '../errors.js'
import { type JobFilterFlagValues, readJobFilter } from '../operator/job-filter-input.js'
import { ACTION_WINDOW, idsNotIn, inWindows, type JobFilter, type LiveStatus, statusWord } from '../queue/job-filter.js'
import { AizkCommand } from './base-command.js'
import { checkFilterEntrypoints } from './filter-entrypoints.js'
import { createProgress } from './progress.js'

export type MissingJob = { id: string; status: string | null }

export interface JobActionStart {
  db: Database
  filter: JobFilter
  ids: string[]
  limit: number | undefined
}

/** How a command refuses ids it cannot take: its message, hint and the key its details go under. */
export interface IdRefusal {
  statuses: LiveStatus[]
  /** What the ids were not, as in "not held: job 12 (queued)". */
  not: string
  hint: (missing: MissingJob[]) => string
  detailsKey: string
}

export abstract class JobActionCommand extends AizkCommand {
  /** Reads the filter flags, opens the database and checks the named entrypoints and ids. */
  protected async startJobAction(flags: JobFilterFlagValues, refusal: IdRefusal): Promise<JobActionStart> {
    await this.settings()
    const { filter, ids, limit } = readJobFilter(flags)
    const db = await this.database()
    await checkFilterEntrypoints(db.pool, flags.entrypoint)
    const missing = await idsNotIn(db.pool, ids, refusal.statuses)
    if (missing.length) {
      throw new NotFoundError(`not ${refusal.not}: ${missing.map((m) => `job ${m.id} (${statusWord(m.status)})`).join(', ')}`, refusal.hint(missing), {
        [refusal.detailsKey]: missing,
      })
    }
    return { db, filter, ids, limit }
  }

  /**
   * Takes `target` rows, ACTION_WINDOW per statement, each window after the last id of the one
   * before; a progress bar named `label` shows on stderr when there is more than one window.
   */
  protected async takeInWindows<T extends { id: string }>(
    label: string | null,
    target: number,
    take: (limit: number, afterId: string | undefined) => Promise<T[]>,
  ): Promise<T[]> {
    const progress = label !== null && target > ACTION_WINDOW && !this.jsonEnabled() ? createProgress(label) : null
    const rows = await inWindows(target, ACTION_WINDOW, take, (done) => progress?.update(done, target))
    progress?.done()
    return rows
  }
}
