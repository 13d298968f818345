/**
 * Wait for jobs to finish: each id resolves to its final status (successful, held, exception,
 * canceled, deleted, missing) or to `timeout`. PgQueuer's CompletionWatcher works the same way:
 * a LISTEN on ch_pgqueuer wakes a coalesced status read whenever the table changes (a
 * completion, cancel or discard deletes the row, and that statement notifies), and a polling
 * read is the safety net for what sends no notification (a hold is an UPDATE, which PgQueuer's
 * trigger never announces) and for notifications lost while the LISTEN link was down. The poll
 * backs off from `minPollMs` to `maxPollMs` while nothing changes and starts over on each
 * notification.
 */
import type pg from 'pg'
import { listenConfigOf } from '../db/connect.js'
import { UsageError } from '../errors.js'
import { MAX_TIMER_SECONDS } from '../settings-types.js'
import { type CurrentStatus, type FinalStatus, isFinal, readJobStatuses } from './job-status.js'
import { QueueListener } from './listen.js'

/** How often the wait's LISTEN connection proves itself (the worker's AIZK_LISTEN_CHECK_SECONDS default). */
const LISTEN_CHECK_MS = 10_000

export interface WaitOptions {
  /** Give up after this many milliseconds (at most 2,147,483,000, about 24.8 days): the ids still running resolve to `timeout`. Unset: wait for ever. */
  timeoutMs?: number
  /** Stop waiting early (the ids still running resolve to `timeout`). */
  signal?: AbortSignal
  /** The LISTEN connection's settings; default: those of a pool from openDatabase. `false`: poll only. */
  listen?: pg.ClientConfig | false
  /** First poll interval and the longest one the backoff reaches. Defaults 100 ms and 1,000 ms. */
  minPollMs?: number
  maxPollMs?: number
  /** Notifications arriving within this window are answered by one status read. Default 50 ms. */
  debounceMs?: number
}

export interface JobOutcome {
  id: string
  status: FinalStatus | 'timeout'
  /** The status last seen for an id that timed out (queued or picked). */
  lastSeen?: CurrentStatus
}

/** Each id's outcome, in the order given (an id given twice is read once and reported twice). */
export async function waitForJobs(pool: pg.Pool, ids: readonly string[], opts: WaitOptions = {}): Promise<JobOutcome[]> {
  const bad = ids.filter((id) => !/^\d{1,19}$/.test(id))
  if (bad.length) throw new UsageError(`not a job id: ${bad.slice(0, 5).join(', ')}`, 'job ids are whole numbers, as enqueue returns them')
  const { timeoutMs } = opts
  // Past a timer's limit setTimeout fires at once (TimeoutOverflowWarning): the wait would end before it began.
  if (timeoutMs !== undefined && !(timeoutMs >= 0 && timeoutMs <= MAX_TIMER_SECONDS * 1000)) {
    throw new UsageError(
      `timeoutMs ${timeoutMs} is out of range: from 0 to ${MAX_TIMER_SECONDS * 1000} (about 24.8 days)`,
      'wait less long, or leave timeoutMs out to wait for ever',
    )
  }
  const waiting = new Set(ids)
  const done = new Map<string, FinalStatus>()
  const lastSeen = new Map<string, CurrentStatus>()
  const minPoll = opts.minPollMs ?? 100
  const maxPoll = Math.max(minPoll, opts.maxPollMs ?? 1000)
  let pollMs = minPoll
  let timer: NodeJS.Timeout | undefined
  let reading = false
  let again = false
  let finish: () => void = () => {}
  let fail: (err: unknown) => void = () => {}
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve
    fail = reject
  })
  // Awaited below; a failure that comes first must not count as unhandled meanwhile.
  finished.catch(() => {})
  let over = false

  const read = async (): Promise<void> => {
    if (over) return
    if (reading) {
      again = true
      return
    }
    reading = true
    clearTimeout(timer)
    try {
      const statuses = await readJobStatuses(pool, [...waiting])
      for (const [id, status] of statuses) {
        lastSeen.set(id, status)
        if (isFinal(status)) {
          waiting.delete(id)
          done.set(id, status)
        }
      }
    } catch (err) {
      over = true
      fail(err)
      return
    } finally {
      reading = false
    }
    if (waiting.size === 0) {
      over = true
      finish()
      return
    }
    if (again) {
      again = false
      void read()
      return
    }
    timer = setTimeout(() => void read(), pollMs)
    pollMs = Math.min(maxPoll, Math.round(pollMs * 1.5))
  }

  let debounce: NodeJS.Timeout | undefined
  const wake = () => {
    pollMs = minPoll
    if (debounce) return
    debounce = setTimeout(() => {
      debounce = undefined
      void read()
    }, opts.debounceMs ?? 50)
  }

  const stopWaiting = () => {
    if (over) return
    over = true
    finish()
  }
  const deadline = timeoutMs !== undefined ? setTimeout(stopWaiting, timeoutMs) : undefined
  opts.signal?.addEventListener('abort', stopWaiting, { once: true })
  if (opts.signal?.aborted) stopWaiting()

  const config = opts.listen === false ? undefined : (opts.listen ?? listenConfigOf(pool) ?? undefined)
  const listener = config
    ? new QueueListener(config, LISTEN_CHECK_MS, {
        onWake: wake,
        onConnected: ({ reconnect }) => {
          if (reconnect) wake()
        },
        onLost: () => {},
      })
    : undefined
  try {
    // The first read comes after LISTEN, so a change between the two is not missed.
    if (listener && waiting.size > 0 && !over) await listener.start().catch(() => {})
    if (waiting.size === 0) stopWaiting()
    else await read()
    await finished
  } finally {
    over = true
    clearTimeout(timer)
    clearTimeout(debounce)
    clearTimeout(deadline)
    opts.signal?.removeEventListener('abort', stopWaiting)
    await listener?.stop()
  }
  return ids.map((id) => {
    const status = done.get(id)
    if (status) return { id, status }
    const seen = lastSeen.get(id)
    return seen ? { id, status: 'timeout', lastSeen: seen } : { id, status: 'timeout' }
  })
}
