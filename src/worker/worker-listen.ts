/** The worker's LISTEN link, and what each notification on it does. */
import type pg from 'pg'
import { listenConfigOf } from '../db/connect.js'
import { UsageError } from '../errors.js'
import { QueueListener } from '../queue/listen.js'
import type { DatabaseHealth } from './db-health.js'
import type { PickLoop } from './pick-loop.js'

export interface ListenReactions {
  picker: PickLoop
  health: DatabaseHealth
  /** Some entrypoint has a global limit: a completion anywhere may free one of its slots. */
  hasLimits: boolean
  refreshPauses: () => void
  claimedCancel: (ids: readonly string[]) => void
}

/** The connection LISTEN uses: the one given, else the one a pool from openDatabase names; false: poll only. */
export function listenConfig(listen: pg.ClientConfig | false | undefined, pool: pg.Pool): pg.ClientConfig | false {
  const config = listen ?? listenConfigOf(pool)
  if (config === undefined) throw new UsageError('the worker needs its LISTEN connection', 'pass `listen` (a pg client config), or a pool from openDatabase')
  return config
}

/**
 * The listener, not yet started; none without LISTEN (behind a transaction pooler without a
 * direct URL): the picks poll, and the heartbeat brings cancels and pauses.
 */
export function workerListener(listen: pg.ClientConfig | false, checkMs: number, r: ListenReactions): QueueListener | undefined {
  if (listen === false) return undefined
  const { picker, health } = r
  return new QueueListener(listen, checkMs, {
    // A completion anywhere may free a slot of a global limit: only then is a DELETE news.
    onWake: (kind) => {
      if (kind === 'work' || r.hasLimits) picker.wake(true)
    },
    // Notifications sent while LISTEN was down are lost: poll again once it is back.
    onConnected: ({ reconnect }) => {
      if (!reconnect) return
      // A link back proves the server answers, not that it writes: a pick or a heartbeat says that.
      if (!health.writesRefused) health.recovered()
      r.refreshPauses()
      picker.wake(true)
    },
    onLost: (error) => health.lost(error),
    onCancel: (ids) => r.claimedCancel(ids),
    onControl: () => r.refreshPauses(),
  })
}
