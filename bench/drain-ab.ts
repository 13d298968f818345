/**
 * Drain A/B sections of `npm run bench`, alternating rounds on one database so drift on a noisy
 * machine hits both sides; medians per side and the B/A ratio are printed, with cpuMsPer1k and
 * the CPU of the worker process and the database's backends alone per 1,000 jobs (the figure
 * that holds while other work shares the machine).
 *   (h) one entrypoint vs the same jobs spread round-robin over BENCH_SPREAD (20) entrypoints,
 *       the worker bound to all of them (issue 15 target 2: within 10%)
 *   (i) the live-count and throughput triggers enabled vs disabled: what they still cost a drain
 *       whose picks and completions write their own counts (the triggers skip those statements
 *       but PostgreSQL still captures their transition tables)
 *   (u) pgqueuer_log logged vs unlogged (`aizk durability durable` / `balanced`): what the log
 *       row's WAL costs
 */
import type pg from 'pg'
import { enqueueMany } from '../src/queue/enqueue.js'
import { monotonicMs, spreadEntrypoints } from './bench-jobs.js'
import { backendCpuMs, backendCpuSpent, cpuBusyMs, cpuMsPer1k } from './cpu.js'
import { forkBenchWorker } from './worker-process.js'

export interface AbRow {
  section: string
  what: string
  value: string
  note?: string
}

export interface AbOptions {
  url: string
  batch: number
  concurrency: number
  jobs: number
  rounds: number
}

export interface Sample {
  rate: number
  /** cpuMsPer1k: the whole machine. */
  cpu: number
  /** CPU ms per 1,000 jobs of the worker process and this database's backends only. */
  own: number
  logged: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const COUNT_TRIGGERS = ['aizk_count_insert', 'aizk_count_update', 'aizk_count_delete']

/** One drain of `o.jobs` pre-enqueued no-op jobs by a forked worker, spread round-robin over `spread` entrypoints. */
export async function measureDrain(
  pool: pg.Pool,
  o: Pick<AbOptions, 'url' | 'jobs' | 'batch' | 'concurrency'> & { localQueueSize?: number },
  spread = 1,
): Promise<Sample> {
  await pool.query('TRUNCATE pgqueuer, pgqueuer_log, aizk_queue_count, aizk_queue_count_delta, aizk_throughput')
  const eps = spreadEntrypoints(spread)
  for (let b = 0; b < o.jobs; b += 1000) {
    const items = Array.from({ length: Math.min(1000, o.jobs - b) }, (_, k) => ({ entrypoint: eps[(b + k) % eps.length], payload: { i: b + k } }))
    await enqueueMany(pool, items)
  }
  await pool.query('VACUUM ANALYZE')
  await pool.query('CHECKPOINT')
  const w = await forkBenchWorker({
    url: o.url,
    batch: o.batch,
    concurrency: o.concurrency,
    env: { BENCH_SPREAD_ENTRYPOINTS: String(spread), ...(o.localQueueSize === undefined ? {} : { BENCH_LOCAL_QUEUE: String(o.localQueueSize) }) },
  })
  const cpu0 = cpuBusyMs()
  const back0 = await backendCpuMs(pool)
  const { tStart, cpuMs: w0 } = await w.request<{ tStart: number; cpuMs: number }>('start', 'started')
  for (;;) {
    const { rows } = await pool.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM pgqueuer) AS any')
    if (!rows[0].any) break
    await sleep(20)
  }
  const rate = o.jobs / ((monotonicMs() - tStart) / 1000)
  const cpu = cpuMsPer1k(cpu0, o.jobs)
  const { cpuMs: w1 } = await w.request<{ cpuMs: number }>('status', 'status')
  const own = ((w1 - w0 + backendCpuSpent(back0, await backendCpuMs(pool))) / o.jobs) * 1000
  await w.stop()
  const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pgqueuer_log WHERE status = 'successful'")
  return { rate, cpu, own, logged: rows[0].n }
}

async function alternate(o: AbOptions, a: () => Promise<Sample>, b: () => Promise<Sample>): Promise<[Sample[], Sample[]]> {
  const as: Sample[] = []
  const bs: Sample[] = []
  for (let r = 0; r < o.rounds; r++) {
    as.push(await a())
    bs.push(await b())
  }
  return [as, bs]
}

function abRow(section: string, what: string, labels: [string, string], [as, bs]: [Sample[], Sample[]], rounds: number): AbRow {
  const ra = median(as.map((s) => s.rate))
  const rb = median(bs.map((s) => s.rate))
  const ca = median(as.map((s) => s.cpu))
  const cb = median(bs.map((s) => s.cpu))
  const oa = median(as.map((s) => s.own))
  const ob = median(bs.map((s) => s.own))
  const logged = [...as, ...bs].map((s) => s.logged)
  return {
    section,
    what,
    value: `${labels[0]} ${fmt(ra)} / ${labels[1]} ${fmt(rb)} jobs/s`,
    note: `${labels[1]}/${labels[0]} ${(rb / ra).toFixed(2)}; cpuMsPer1k ${ca.toFixed(0)} / ${cb.toFixed(0)}; worker + backends CPU ms per 1,000 jobs ${oa.toFixed(0)} / ${ob.toFixed(0)} (${(ob / oa).toFixed(2)}); successful log rows per run ${Math.min(...logged)}..${Math.max(...logged)} (median of ${rounds} alternating rounds)`,
  }
}

export async function spreadSection(pool: pg.Pool, o: AbOptions & { spread: number }): Promise<AbRow> {
  const runs = await alternate(
    o,
    () => measureDrain(pool, o, 1),
    () => measureDrain(pool, o, o.spread),
  )
  return abRow(
    'h',
    `drain ${fmt(o.jobs)} no-op jobs: 1 entrypoint vs spread over ${o.spread}, worker bound to all`,
    ['1 ep', `${o.spread} eps`],
    runs,
    o.rounds,
  )
}

export async function countTriggerSection(pool: pg.Pool, o: AbOptions): Promise<AbRow> {
  const withTriggers = async (on: boolean) => {
    await pool.query(`ALTER TABLE pgqueuer ${COUNT_TRIGGERS.map((t) => `${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${t}`).join(', ')}`)
    await pool.query(`ALTER TABLE pgqueuer_log ${on ? 'ENABLE' : 'DISABLE'} TRIGGER aizk_throughput_insert`)
    try {
      return await measureDrain(pool, o, 1)
    } finally {
      await pool.query(`ALTER TABLE pgqueuer ${COUNT_TRIGGERS.map((t) => `ENABLE TRIGGER ${t}`).join(', ')}`)
      await pool.query('ALTER TABLE pgqueuer_log ENABLE TRIGGER aizk_throughput_insert')
    }
  }
  const runs = await alternate(
    o,
    () => withTriggers(false),
    () => withTriggers(true),
  )
  return abRow('i', `drain ${fmt(o.jobs)} no-op jobs: live-count and throughput triggers off vs on`, ['off', 'on'], runs, o.rounds)
}

/** Section u: the same drain with the log logged and unlogged, alternating; the log is left logged. */
export async function logPersistenceSection(pool: pg.Pool, o: AbOptions): Promise<AbRow> {
  const withLog = async (persistence: 'LOGGED' | 'UNLOGGED') => {
    await pool.query(`ALTER TABLE pgqueuer_log SET ${persistence}`)
    return measureDrain(pool, o, 1)
  }
  try {
    const runs = await alternate(
      o,
      () => withLog('LOGGED'),
      () => withLog('UNLOGGED'),
    )
    return abRow('u', `drain ${fmt(o.jobs)} no-op jobs: pgqueuer_log logged vs unlogged`, ['logged', 'unlogged'], runs, o.rounds)
  } finally {
    await pool.query('ALTER TABLE pgqueuer_log SET LOGGED')
  }
}
