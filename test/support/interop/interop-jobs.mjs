// aizk's side of the interop suite: jobs an aizk worker (AIZK_WORKER_JOB_MODULES) runs beside a
// PgQueuer worker. Each records what it saw in interop_runs, which the test creates.
import { z } from 'zod'
import { bytesPayload, QueueJob } from '../../../dist/index.js'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function start(ctx, payloadHex, payloadJson) {
  const { rows } = await ctx.pool.query(
    `INSERT INTO interop_runs (job_id, entrypoint, side, attempts, payload_hex, payload_json)
     VALUES ($1, $2, 'aizk', $3, $4, $5) RETURNING seq`,
    [ctx.jobId, ctx.entrypoint, ctx.attempts, payloadHex, payloadJson === undefined ? null : JSON.stringify(payloadJson)],
  )
  return rows[0].seq
}

async function finish(ctx, seq) {
  await ctx.pool.query('UPDATE interop_runs SET finished = clock_timestamp() WHERE seq = $1', [seq])
}

/** JSON payloads, as PgQueuer producers usually send them; a null payload arrives as null. */
export class InteropJsonJob extends QueueJob {
  static entrypoint = 'interop_json'
  static payload = z.any()
  async handle(payload, ctx) {
    await finish(ctx, await start(ctx, null, payload))
  }
}

/** Raw bytes, unchanged: any bytes PgQueuer's enqueue accepts, or none. */
export class InteropBytesJob extends QueueJob {
  static entrypoint = 'interop_bytes'
  static payloadFormat = 'bytes'
  static payload = bytesPayload
  async handle(payload, ctx) {
    await finish(ctx, await start(ctx, payload === null ? null : payload.toString('hex'), undefined))
  }
}

/** Global limit 2 (or INTEROP_LIMIT's), each run takes `ms` (default 1500). */
export class InteropLimitedJob extends QueueJob {
  static entrypoint = 'interop_limited'
  static payload = z.object({ ms: z.number().optional() }).passthrough().nullable()
  static concurrencyLimit = Number(process.env.INTEROP_LIMIT ?? 2)
  async handle(payload, ctx) {
    const seq = await start(ctx, null, payload)
    await sleep(payload?.ms ?? 1500)
    await finish(ctx, seq)
  }
}

/** Fails at once and is held (one attempt). */
export class InteropHoldJob extends QueueJob {
  static entrypoint = 'interop_hold'
  static payload = z.any()
  static maxAttempts = 1
  async handle(payload, ctx) {
    await start(ctx, null, payload)
    throw new RangeError(`interop hold of job ${ctx.jobId}`)
  }
}

/** Bound by both sides in the heartbeat-mismatch scenario. */
export class InteropSharedJob extends QueueJob {
  static entrypoint = 'interop_shared'
  static payload = z.any()
  async handle(payload, ctx) {
    await finish(ctx, await start(ctx, null, payload))
  }
}

/** Runs until its signal aborts (a cancel), then records the reason and rejects with it. */
export class InteropCancelableJob extends QueueJob {
  static entrypoint = 'interop_cancelable'
  static payload = z.any()
  async handle(payload, ctx) {
    const seq = await start(ctx, null, payload)
    const reason = await new Promise((resolve) => {
      if (ctx.signal.aborted) resolve(ctx.signal.reason)
      ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason))
    })
    await finish(ctx, seq)
    throw reason
  }
}
