/** The queue's settings: what enqueue accepts, how retries wait, how foreign picks go stale, the operator's defaults. */
import { boolSetting, intSetting, MAX_TIMER_SECONDS, numberSetting, settingsGroup } from '../settings-types.js'

/** Default of AIZK_FOREIGN_HEARTBEAT_TIMEOUT_SECONDS (docs/pgqueuer-interop.md). */
export const FOREIGN_HEARTBEAT_TIMEOUT_SECONDS = 600

export const queueSettings = settingsGroup({
  name: 'queue',
  title: 'Queue',
  settings: {
    enqueueMaxPayloadBytes: {
      schema: intSetting(262_144, { min: 1024, max: 1_073_741_823 }),
      description:
        "Largest payload (bytes) scoped work may enqueue through the database's enqueue door; a larger one is refused (docs/security.md#the-enqueue-door). The database enforces it: `aizk install` writes it there.",
    },
    retryBaseSeconds: { schema: numberSetting(2, { min: 0, max: MAX_TIMER_SECONDS }), description: 'First retry delay; doubles per attempt, jittered.' },
    retryMaxSeconds: { schema: numberSetting(600, { min: 0, max: MAX_TIMER_SECONDS }), description: 'Cap of the retry delay.' },
    foreignHeartbeatTimeoutSeconds: {
      schema: numberSetting(FOREIGN_HEARTBEAT_TIMEOUT_SECONDS, { min: 0, max: MAX_TIMER_SECONDS }),
      description:
        "A job picked by a queue manager aizk does not know (a PgQueuer worker) is picked again only when its heartbeat is older than this; keep it above PgQueuer's `heartbeat_timeout`; 0 = never.",
    },
    queueLogParity: {
      schema: boolSetting(false),
      description: "Write `queued` (enqueue, requeue) and `picked` log rows as PgQueuer does, so its `job_status` and duration percentiles see aizk's jobs.",
    },
    requeueDefaultLimit: { schema: intSetting(1000, { min: 1 }), description: '`aizk requeue` window without `--limit`.' },
    statusHeldThreshold: { schema: intSetting(0, { min: 0 }), description: '`aizk status --check` is unhealthy above this many held jobs.' },
  },
})
