/** How a waited-for job's outcome becomes an exit code (README exit codes 8, 9, 10). */
import { type AizkError, JobFailedError, JobGoneError, NotFoundError, WaitTimeoutError } from '../errors.js'
import type { JobOutcome } from '../queue/wait-for-jobs.js'

/** The error to exit with, or null when the job succeeded. */
export function outcomeError(o: JobOutcome, timeout: string | undefined): AizkError | null {
  const story = `\`aizk jobs show ${o.id}\` tells its story`
  switch (o.status) {
    case 'successful':
      return null
    case 'held':
      return new JobFailedError(`job ${o.id} failed and is held`, `${story}; \`aizk requeue --id ${o.id}\` runs it again once the cause is fixed`, o)
    case 'exception':
      return new JobFailedError(`job ${o.id} failed (a PgQueuer worker logged an exception)`, story, o)
    case 'canceled':
    case 'deleted':
      return new JobGoneError(`job ${o.id} was ${o.status === 'canceled' ? 'canceled' : 'discarded'} before it succeeded`, story, o)
    case 'missing':
      return new NotFoundError(`job ${o.id} is gone: no row and no log row`, 'its log rows may have been pruned already', o)
    case 'timeout':
      return new WaitTimeoutError(
        `job ${o.id} had not finished after ${timeout ?? 'the wait'} (still ${o.lastSeen ?? 'queued'})`,
        `it keeps running: \`aizk jobs show ${o.id}\` follows it; is a worker running (\`aizk status\`)?`,
        o,
      )
  }
}
