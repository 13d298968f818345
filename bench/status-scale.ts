/**
 * Does `aizk status --json` cost the same on a queue of 1,000,000 jobs as on one of 1,000?
 * Builds two scratch databases (bench/scratch-db.ts), fills them the same way at both sizes (ready and
 * future queued jobs over several entrypoints and priorities, some picked, some held, and as many
 * log rows as jobs), then times (a) the whole CLI, `status --json` in a fresh process, and (b)
 * `queueStats` in process, the part that touches the database. Prints medians and the ratio
 * (target: at most 2x). Run: node --import tsx bench/status-scale.ts; sizes: BENCH_STATUS_SIZES.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { countIntegrityFailures } from '../src/content/integrity.js'
import { queueStats } from '../src/queue/stats.js'
import { words } from './knobs.js'
import { createScratchDb } from './scratch-db.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const sizes = words('BENCH_STATUS_SIZES', '1000 1000000').map(Number)
const RUNS_CLI = 7
const RUNS_INPROC = 30

async function fill(pool: pg.Pool, n: number): Promise<void> {
  const eps = ['aizk_build_graph_chunk', 'aizk_convert_artifact', 'aizk_reindex_artifact', 'aizk_usage_event', 'aizk_task_decay']
  // 80% ready queued, 15% queued for tomorrow, 4% held, 1% picked (heartbeating now).
  await pool.query(
    `INSERT INTO pgqueuer (priority, entrypoint, status, execute_after, queue_manager_id, headers)
     SELECT (ARRAY[50, 75, 75, 0, 10])[1 + g % 5], ($2::text[])[1 + g % 5],
            (CASE WHEN g % 100 < 80 THEN 'queued' WHEN g % 100 < 95 THEN 'queued' WHEN g % 100 < 99 THEN 'failed' ELSE 'picked' END)::pgqueuer_status,
            CASE WHEN g % 100 BETWEEN 80 AND 94 THEN now() + interval '1 day' ELSE now() - interval '10 minutes' END,
            CASE WHEN g % 100 = 99 THEN '44444444-4444-4444-8444-444444444444'::uuid END,
            CASE WHEN g % 100 BETWEEN 95 AND 98 THEN '{"aizk":{"cycles":1,"lastError":"Error: bench"}}'::jsonb END
       FROM generate_series(1, $1::int) g`,
    [n, eps],
  )
  await pool.query(
    `INSERT INTO pgqueuer_log (created, job_id, status, priority, entrypoint)
     SELECT now() - (g % 86400) * interval '1 second', g, 'successful', 0, 'aizk_usage_event' FROM generate_series(1, $1::int) g`,
    [n],
  )
  await pool.query(
    `INSERT INTO aizk_worker (queue_manager_id, host, pid, version, entrypoints) VALUES ('44444444-4444-4444-8444-444444444444', 'bench', 1, '0', '{}')`,
  )
  await pool.query('VACUUM ANALYZE pgqueuer')
  await pool.query('VACUUM ANALYZE pgqueuer_log')
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

async function measure(n: number): Promise<{ n: number; cliMs: number; statsMs: number; fillS: number }> {
  const scratch = await createScratchDb(`aizk_bench_status_${process.pid}_${n}`)
  const url = scratch.url
  const pool = new pg.Pool({ connectionString: url, max: 4 })
  try {
    const t0 = Date.now()
    await fill(pool, n)
    const fillS = (Date.now() - t0) / 1000
    const opts = { heartbeatTimeoutSeconds: 30, heldThreshold: 0, integrity: countIntegrityFailures }
    await queueStats(pool, opts)
    const inproc: number[] = []
    for (let i = 0; i < RUNS_INPROC; i++) {
      const s = performance.now()
      const stats = await queueStats(pool, opts)
      inproc.push(performance.now() - s)
      if (stats.totals.queued + stats.totals.picked + stats.totals.held !== n) throw new Error(`counts are off: ${JSON.stringify(stats.totals)}`)
    }
    const cli: number[] = []
    for (let i = 0; i < RUNS_CLI; i++) {
      const s = performance.now()
      const r = spawnSync(process.execPath, [path.join(root, 'bin', 'run.js'), 'status', '--json'], {
        env: { ...process.env, AIZK_DATABASE_URL: url },
        encoding: 'utf8',
      })
      cli.push(performance.now() - s)
      if (r.status !== 0) throw new Error(`status --json failed: ${r.stderr}`)
    }
    return { n, cliMs: median(cli), statsMs: median(inproc), fillS }
  } finally {
    await pool.end()
    await scratch.drop()
  }
}

const results = []
for (const n of sizes) results.push(await measure(n))
const [small, large] = results
console.log('status --json: cost against queue size (medians)')
console.log(`${'jobs'.padStart(10)}  ${'CLI ms'.padStart(8)}  ${'stats ms'.padStart(9)}  fill s`)
for (const r of results)
  console.log(`${r.n.toLocaleString('en-US').padStart(10)}  ${r.cliMs.toFixed(0).padStart(8)}  ${r.statsMs.toFixed(1).padStart(9)}  ${r.fillS.toFixed(1)}`)
const cliRatio = large.cliMs / small.cliMs
const statsRatio = large.statsMs / small.statsMs
console.log(
  `ratio ${large.n.toLocaleString('en-US')} / ${small.n.toLocaleString('en-US')}: CLI ${cliRatio.toFixed(2)}x, stats ${statsRatio.toFixed(2)}x (target <= 2x)`,
)
