/**
 * The failover test's steady load and its samplers, all through one URL (HAProxy's): an enqueuing
 * client that keeps only the ids the server acknowledged (the INSERT returned), a sampler of the
 * workers' /readyz and /livez, and one of how many rows of a limited entrypoint are picked at once.
 * Each reconnects after any error, as an application would, and counts what failed.
 */
import pg from 'pg'
import { enqueueMany } from '../../src/queue/enqueue.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A loop on one connection, replaced after any error; `step` runs every `everyMs`. */
class Looper {
  private stopped = false
  private done: Promise<void> | undefined
  private client: pg.Client | undefined
  errors = 0
  paused = false

  constructor(
    private readonly url: string,
    private readonly everyMs: number,
    private readonly step: (c: pg.Client) => Promise<void>,
  ) {}

  start(): this {
    this.done = this.loop()
    return this
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const started = Date.now()
      if (!this.paused) {
        try {
          if (!this.client) {
            const c = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1000, query_timeout: 5000 })
            c.on('error', () => {})
            this.client = c
            await c.connect()
          }
          await this.step(this.client)
        } catch {
          this.errors++
          const c = this.client
          this.client = undefined
          await c?.end().catch(() => {})
        }
      }
      await sleep(Math.max(0, this.everyMs - (Date.now() - started)))
    }
  }

  async stop(): Promise<void> {
    this.stopped = true
    await this.done
    await this.client?.end().catch(() => {})
  }
}

export interface Acknowledged {
  id: string
  entrypoint: string
  /** Unique per enqueue (payload.tag; test_record writes it to test_runs.note): ids can repeat. */
  tag: string
  at: number
}

/** Every `everyMs`, `perTick` jobs in one INSERT, one in `limitedEvery` of them of the limited entrypoint. */
export function startEnqueuer(url: string, o: { everyMs: number; perTick: number; limited: string; plain: string; limitedEvery: number }) {
  const acknowledged: Acknowledged[] = []
  let n = 0
  const looper = new Looper(url, o.everyMs, async (c) => {
    const items = Array.from({ length: o.perTick }, () => {
      n++
      return n % o.limitedEvery === 0
        ? { entrypoint: o.limited, payload: { ms: 20 }, tag: `load-${n}` }
        : { entrypoint: o.plain, payload: { tag: `load-${n}` }, tag: `load-${n}` }
    })
    const ids = await enqueueMany(
      c,
      items.map(({ entrypoint, payload }) => ({ entrypoint, payload })),
    )
    const at = Date.now()
    ids.forEach((id, i) => {
      if (id) acknowledged.push({ id, entrypoint: items[i].entrypoint, tag: items[i].tag, at })
    })
  }).start()
  return {
    acknowledged,
    get failedBatches() {
      return looper.errors
    },
    pause: (on: boolean) => {
      looper.paused = on
    },
    stop: () => looper.stop(),
  }
}

export interface HealthSample {
  at: number
  port: number
  path: '/readyz' | '/livez'
  /** HTTP status, 0 when it did not answer within `answerMs`. */
  status: number
}

/** Asks each health port for /readyz and /livez every `everyMs`. */
export function startHealthSampler(ports: number[], everyMs = 250, answerMs = 3000) {
  const samples: HealthSample[] = []
  let stopped = false
  const ask = async (port: number, p: '/readyz' | '/livez') => {
    const at = Date.now()
    const status = await fetch(`http://127.0.0.1:${port}${p}`, { signal: AbortSignal.timeout(answerMs) })
      .then(async (r) => {
        await r.arrayBuffer()
        return r.status
      })
      .catch(() => 0)
    samples.push({ at, port, path: p, status })
  }
  const done = (async () => {
    while (!stopped) {
      const started = Date.now()
      await Promise.all(ports.flatMap((port) => [ask(port, '/readyz'), ask(port, '/livez')]))
      await sleep(Math.max(0, everyMs - (Date.now() - started)))
    }
  })()
  return {
    samples,
    async stop() {
      stopped = true
      await done
    },
  }
}

/** Samples how many jobs of `entrypoint` are picked at once (the concurrency limit's count). */
export function startPickedSampler(url: string, entrypoint: string, everyMs = 100) {
  const seen: number[] = []
  const looper = new Looper(url, everyMs, async (c) => {
    const { rows } = await c.query<{ n: number }>("select count(*)::int as n from pgqueuer where entrypoint = $1 and status = 'picked'", [entrypoint])
    seen.push(rows[0].n)
  }).start()
  return {
    get samples() {
      return seen.length
    },
    get max() {
      return Math.max(0, ...seen)
    },
    stop: () => looper.stop(),
  }
}
