/**
 * Network stalls: a spawned worker (and the CLI) reaches PostgreSQL through a TCP proxy in this
 * process that, on the test's word, stops forwarding both ways without closing anything. Short
 * deadlines (AIZK_DB_DEADLINE_SECONDS) keep the file around a minute.
 */
import assert from 'node:assert/strict'
import { afterEach, before, describe, it } from 'node:test'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { runCli } from '../support/cli.js'
import { cliEnv } from '../support/commands/env.js'
import { fileDatabase } from '../support/db.js'
import { type StallProxy, startStallProxy } from '../support/stall-proxy.js'
import { waitFor } from '../support/wait-for.js'
import { FIXTURE_TABLES, fastWorkerEnv, freePort, isEvent, spawnWorker, type WorkerEvent, type WorkerProcess } from '../support/worker-process.js'

const DEADLINE_SECONDS = 1.5
const SHUTDOWN_SECONDS = 2
const STALL_ENV = {
  AIZK_DB_DEADLINE_SECONDS: String(DEADLINE_SECONDS),
  AIZK_LISTEN_CHECK_SECONDS: '0.5',
  AIZK_SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_SECONDS),
  AIZK_JOB_TIMEOUT_SECONDS: '60',
}

const db = await fileDatabase()
let proxy: StallProxy
let worker: WorkerProcess | undefined

before(async () => {
  await db.pool.query(FIXTURE_TABLES)
})
afterEach(async () => {
  await worker?.kill()
  worker = undefined
  await proxy?.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** GET a health path; resolves with the status and how long the answer took. */
async function probe(port: number, path: string): Promise<{ status: number; body: string; ms: number }> {
  const t0 = Date.now()
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(10_000) })
  return { status: res.status, body: await res.text(), ms: Date.now() - t0 }
}

async function enqueueNoops(n: number, tag: string, priority = 0): Promise<string[]> {
  return (await enqueueMany(
    db.pool,
    Array.from({ length: n }, (_, i) => ({ entrypoint: 'test_noop', payload: { tag, i }, priority })),
  )) as string[]
}

/** Jobs whose handler runs one INSERT on ctx.pool (the handlers' pool). */
async function enqueueRecords(n: number, tag: string): Promise<string[]> {
  return (await enqueueMany(
    db.pool,
    Array.from({ length: n }, () => ({ entrypoint: 'test_record', payload: { tag } })),
  )) as string[]
}

/** Each job has exactly one successful log row, none is left in the queue, and the worker said nothing unparseable. */
async function assertOnceEach(ids: string[]): Promise<void> {
  const runs = await successfulRuns(ids)
  assert.deepEqual(
    ids.filter((id) => runs.get(id) !== 1).map((id) => [id, runs.get(id)]),
    [],
    'every job has exactly one successful log row',
  )
  const left = await db.pool.query<{ n: number }>('select count(*)::int as n from pgqueuer where id = any($1::bigint[])', [ids])
  assert.equal(left.rows[0].n, 0, 'no row left picked or queued')
  assert.deepEqual(worker?.badLines, [])
}

async function successfulRuns(ids: string[]): Promise<Map<string, number>> {
  const { rows } = await db.pool.query<{ id: string; n: number }>(
    "select job_id::text as id, count(*)::int as n from pgqueuer_log where status = 'successful' and job_id = any($1::bigint[]) group by job_id",
    [ids],
  )
  return new Map(rows.map((r) => [r.id, r.n]))
}

async function allDone(ids: string[]): Promise<boolean> {
  const runs = await successfulRuns(ids)
  return ids.every((id) => runs.has(id))
}

describe('aizk worker end to end: network stalls', () => {
  it('picks again after a short stall and after one longer than the deadlines; /livez is 503 during the stall and answers at once', async () => {
    proxy = await startStallProxy(db.url)
    const healthPort = await freePort()
    worker = spawnWorker(fastWorkerEnv(proxy.url, { ...STALL_ENV, AIZK_WORKER_ENTRYPOINTS: 'test_noop', AIZK_WORKER_HEALTH_PORT: String(healthPort) }))
    await worker.waitFor(isEvent('worker:started'), 'the worker to start')
    const first = await enqueueNoops(3, 'before')
    await waitFor('the first jobs to run', () => allDone(first), 15_000)
    assert.equal((await probe(healthPort, '/livez')).status, 200)

    // Shorter than the deadline: what was on its way is lost, and given up at its deadline.
    proxy.stall()
    await sleep(DEADLINE_SECONDS * 500)
    proxy.resume()
    const short = await enqueueNoops(3, 'after a short stall')
    await waitFor('the jobs queued after a short stall to run', () => allDone(short), 15_000)

    // Longer than every deadline: the pick's reply is lost for good.
    proxy.stall()
    const during = await enqueueNoops(3, 'during a long stall')
    const failing = await waitFor(
      '/livez to fail during the stall',
      async () => {
        const res = await probe(healthPort, '/livez')
        assert.ok(res.ms < 2000, `/livez answered within 2 s during the stall (took ${res.ms} ms)`)
        return res.status === 503 ? res : undefined
      },
      { timeoutMs: DEADLINE_SECONDS * 1000 * 4 + 5000, everyMs: 200 },
    )
    assert.match(failing.body, /no pick came back/)
    const ready = await probe(healthPort, '/readyz')
    assert.ok(ready.ms < 2000, `/readyz answered within 2 s during the stall (took ${ready.ms} ms)`)
    const metrics = await probe(healthPort, '/metrics')
    assert.ok(metrics.ms < 3000, `/metrics answered within 3 s during the stall (took ${metrics.ms} ms)`)
    await worker.waitFor(isEvent('db:lost'), 'db:lost during the stall', 10_000)
    await sleep(2000)
    proxy.resume()

    const resumedAt = Date.now()
    await waitFor('the jobs queued during the stall to run once the path is back', () => allDone(during), 15_000)
    const after = await enqueueNoops(3, 'after a long stall')
    await waitFor('the jobs queued after the stall to run', () => allDone(after), 15_000)
    await worker.waitFor(isEvent('db:reconnected'), 'db:reconnected', 10_000)
    await waitFor('/livez to answer 200 again', async () => (await probe(healthPort, '/livez')).status === 200, 10_000)
    assert.ok(Date.now() - resumedAt < 20_000)

    const every = [...first, ...short, ...during, ...after]
    const runs = await successfulRuns(every)
    assert.deepEqual(
      every.filter((id) => runs.get(id) !== 1),
      [],
      'every job has exactly one successful log row',
    )
    assert.deepEqual(worker.badLines, [])
  })

  it('runs every job exactly once across repeated stalls and a reset under load', async () => {
    proxy = await startStallProxy(db.url)
    worker = spawnWorker(
      fastWorkerEnv(proxy.url, {
        ...STALL_ENV,
        AIZK_WORKER_ENTRYPOINTS: 'test_noop,test_sleep',
        AIZK_QUEUE_BATCH_SIZE: '8',
        AIZK_QUEUE_CONCURRENT_TASKS: '8',
        // A handler's own statement whose reply was lost fails at the job timeout and is retried.
        AIZK_JOB_TIMEOUT_SECONDS: '4',
      }),
    )
    await worker.waitFor(isEvent('worker:started'), 'the worker to start')
    const ids: string[] = []
    for (let round = 0; round < 4; round++) {
      ids.push(...(await enqueueNoops(150, `round ${round}`)))
      ids.push(
        ...((await enqueueMany(
          db.pool,
          Array.from({ length: 20 }, () => ({ entrypoint: 'test_sleep', payload: { ms: 50 } })),
        )) as string[]),
      )
      await sleep(300)
      proxy.stall()
      // Past the deadline and the heartbeat timeout (FAST_ENV: 1.5 s): picks, completions and
      // heartbeats all fail, and what was picked under the lost replies goes stale.
      await sleep(DEADLINE_SECONDS * 1000 + 1500)
      if (round === 2) proxy.reset()
      proxy.resume()
      await sleep(1000)
    }
    await waitFor('every job to run', () => allDone(ids), 60_000)
    const runs = await successfulRuns(ids)
    assert.deepEqual(
      ids.filter((id) => runs.get(id) !== 1).map((id) => [id, runs.get(id)]),
      [],
      'every job has exactly one successful log row',
    )
    const left = await db.pool.query<{ n: number }>('select count(*)::int as n from pgqueuer where id = any($1::bigint[])', [ids])
    assert.equal(left.rows[0].n, 0)
    assert.ok(worker.events.some(isEvent('db:lost')), 'the stalls were noticed')
    assert.deepEqual(worker.badLines, [])
  })

  it("fails handlers' statements on a stalled path at the deadline: probes run on the freed slots, and every job runs once", async () => {
    proxy = await startStallProxy(db.url)
    const healthPort = await freePort()
    worker = spawnWorker(
      fastWorkerEnv(proxy.url, {
        ...STALL_ENV,
        AIZK_WORKER_ENTRYPOINTS: 'test_record,test_noop',
        AIZK_QUEUE_BATCH_SIZE: '4',
        AIZK_QUEUE_CONCURRENT_TASKS: '4',
        AIZK_WORKER_HEALTH_PORT: String(healthPort),
      }),
    )
    await worker.waitFor(isEvent('worker:started'), 'the worker to start')
    const warm = await enqueueRecords(4, 'before')
    await waitFor('the first jobs to run', () => allDone(warm), 15_000)

    // Only the handlers' connections go silent: the queue's picks and heartbeats go on.
    proxy.stall({ applicationName: 'aizk-worker-jobs' })
    const stuck = await enqueueRecords(8, 'stalled handlers')
    await worker.waitForCount((e) => e.event === 'job:picked' && stuck.includes(String(e.jobId)), 4, 'every slot to take a job whose SQL stalls')
    // Without a deadline of their own the four would hold every slot until the job timeout (60 s).
    const probes = await enqueueNoops(3, 'probes during the stall', 10)
    await waitFor('the probes to run while the handlers stall', () => allDone(probes), DEADLINE_SECONDS * 1000 * 3 + 8000)
    // Each retry is announced once written, which may come just after the probes' completions.
    const isRetried = (e: WorkerEvent) => e.event === 'job:retried' && stuck.includes(String(e.jobId))
    await worker.waitForCount(isRetried, 4, 'the stalled statements to fail their jobs', 10_000)
    for (const e of worker.events.filter(isRetried)) assert.match(String(e.error), /no reply from PostgreSQL|timeout|terminated/)
    const live = await probe(healthPort, '/livez')
    assert.equal(live.status, 200, `a worker whose handlers fail at the deadline is making progress: ${live.body}`)

    proxy.resume()
    await waitFor('the jobs whose SQL stalled to run once the path is back', () => allDone(stuck), DEADLINE_SECONDS * 1000 + 10_000)
    await assertOnceEach([...warm, ...stuck, ...probes])
  })

  it('ends a statement its job declared long once the server shows it is not running it, well before its own deadline', async () => {
    proxy = await startStallProxy(db.url)
    worker = spawnWorker(fastWorkerEnv(proxy.url, { ...STALL_ENV, AIZK_WORKER_ENTRYPOINTS: 'test_sql_long,test_noop' }))
    await worker.waitFor(isEvent('worker:started'), 'the worker to start')
    const warm = (await enqueueMany(db.pool, [{ entrypoint: 'test_sql_long', payload: { seconds: 0 } }])) as string[]
    await waitFor('the first job to run', () => allDone(warm), 15_000)
    proxy.stall({ applicationName: 'aizk-worker-jobs' })
    // test_sql_long declares a 30 s deadline: without asking the server it would wait that long.
    const long = (await enqueueMany(db.pool, [{ entrypoint: 'test_sql_long', payload: { seconds: 0 } }])) as string[]
    const retried = await worker.waitFor(
      (e) => e.event === 'job:retried' && e.jobId === long[0],
      'the lost statement to fail its job',
      DEADLINE_SECONDS * 1000 * 2 + 8000,
    )
    assert.match(String(retried.error), /PostgreSQL is not running this statement/)
    proxy.resume()
    await waitFor('the job to run once the path is back', () => allDone(long), 15_000)
    await assertOnceEach([...warm, ...long])
  })

  it('makes `status --check` exit 7 naming a worker whose handler statement nothing ends (no deadline, past the job timeout), and 0 once it ends', async () => {
    proxy = await startStallProxy(db.url)
    const healthPort = await freePort()
    const jobTimeoutSeconds = 2
    worker = spawnWorker(
      fastWorkerEnv(proxy.url, {
        ...STALL_ENV,
        AIZK_WORKER_ENTRYPOINTS: 'test_sql_no_deadline,test_noop',
        AIZK_WORKER_HEALTH_PORT: String(healthPort),
        AIZK_JOB_TIMEOUT_SECONDS: String(jobTimeoutSeconds),
      }),
    )
    const started = await worker.waitFor(isEvent('worker:started'), 'the worker to start')
    const check = () => runCli(['status', '--check', '--json', '--max-held', '1000'], { env: cliEnv(db.url) })
    const healthy = await check()
    assert.equal(healthy.code, 0, healthy.stdout + healthy.stderr)
    // One run on an open path leaves the handlers' pool a connection; the next statement goes on it and is lost.
    const warm = (await enqueueMany(db.pool, [{ entrypoint: 'test_sql_no_deadline', payload: { seconds: 0 } }])) as string[]
    await waitFor('the first job to run', () => allDone(warm), 15_000)
    proxy.stall({ applicationName: 'aizk-worker-jobs' })
    const [lost] = (await enqueueMany(db.pool, [{ entrypoint: 'test_sql_no_deadline', payload: { seconds: 0 } }])) as string[]
    await worker.waitFor((e) => e.event === 'job:held' && e.jobId === lost, 'the job timeout to end the job', jobTimeoutSeconds * 1000 + 10_000)

    const stuck = await waitFor(
      'status --check to say the worker is stuck',
      async () => {
        const res = await check()
        return res.code === 7 ? res : undefined
      },
      20_000,
    )
    const problems = JSON.parse(stuck.stdout).error.details as { code: string; message: string }[]
    assert.deepEqual(
      problems.map((p) => p.code),
      ['stuck_handlers'],
      stuck.stdout,
    )
    assert.match(problems[0].message, new RegExp(`pid ${started.pid} \\(${started.queueManagerId}\\) has 1 handler statement\\(s\\) stuck`))
    const live = await probe(healthPort, '/livez')
    assert.equal(live.status, 503, live.body)
    assert.equal(JSON.parse(live.body).checks.handlers.ok, false, live.body)
    const frame = await runCli(['status', '--once'], { env: cliEnv(db.url) })
    assert.match(frame.stdout, /stuck \(1\)/, frame.stdout)
    // Probes still run on the free slots: stuck is about a connection, not a worker that does nothing.
    const probes = await enqueueNoops(3, 'probes while stuck')
    await waitFor('the probes to run', () => allDone(probes), 15_000)

    // The connection finally ends (here: reset): the next heartbeat says so.
    proxy.resume()
    proxy.reset()
    await waitFor('status --check to be healthy again', async () => (await check()).code === 0, 20_000)
    await waitFor('/livez to answer 200 again', async () => (await probe(healthPort, '/livez')).status === 200, 10_000)
    const row = await db.pool.query('select stuck_calls, stuck_since from aizk_worker where queue_manager_id = $1', [started.queueManagerId])
    assert.deepEqual(row.rows, [{ stuck_calls: 0, stuck_since: null }])
  })

  it("resumes jobs that run SQL within the deadline and a few seconds after every connection stalled (the handlers' too)", async () => {
    proxy = await startStallProxy(db.url)
    worker = spawnWorker(
      fastWorkerEnv(proxy.url, {
        ...STALL_ENV,
        AIZK_WORKER_ENTRYPOINTS: 'test_record,test_noop',
        AIZK_QUEUE_BATCH_SIZE: '8',
        AIZK_QUEUE_CONCURRENT_TASKS: '8',
      }),
    )
    await worker.waitFor(isEvent('worker:started'), 'the worker to start')
    const ids = await enqueueRecords(300, 'load')
    await waitFor('the load to be under way', async () => (await successfulRuns(ids)).size >= 20, 15_000)
    proxy.stall()
    ids.push(...(await enqueueNoops(4, 'probes during the stall')))
    // Past the deadline and the heartbeat timeout: handlers' statements, picks and heartbeats fail.
    await sleep(DEADLINE_SECONDS * 1000 * 2 + 1000)
    proxy.resume()
    ids.push(...(await enqueueNoops(4, 'probes after the stall')))
    // Handlers stuck on a lost reply would hold their slots until the job timeout (60 s).
    await waitFor('every job to run once the path is back', () => allDone(ids), DEADLINE_SECONDS * 1000 + 10_000)
    await assertOnceEach(ids)
    assert.ok(worker.events.some(isEvent('db:lost')), 'the stall was noticed')
  })

  it('exits within the shutdown timeout on SIGTERM during a stall, saying what it could not release', async () => {
    proxy = await startStallProxy(db.url)
    worker = spawnWorker(fastWorkerEnv(proxy.url, { ...STALL_ENV, AIZK_WORKER_ENTRYPOINTS: 'test_hang' }))
    await worker.waitFor(isEvent('worker:started'), 'the worker to start')
    const [hung] = (await enqueueMany(db.pool, [{ entrypoint: 'test_hang' }])) as string[]
    await worker.waitFor((e) => e.event === 'job:picked' && e.jobId === hung, 'the hanging job to be picked')
    await waitFor(
      'the hanging job to record its start',
      async () => (await db.pool.query('select 1 from test_runs where job_id = $1', [hung])).rowCount,
      10_000,
    )
    proxy.stall()
    const t0 = Date.now()
    worker.child.kill('SIGTERM')
    const { code, signal } = await worker.exited
    const tookMs = Date.now() - t0
    assert.equal(signal, null)
    assert.equal(code, 0, worker.stderr())
    // The shutdown timeout for the jobs, at most the deadline more for the last writes, a second for goodbyes.
    const boundMs = (SHUTDOWN_SECONDS + DEADLINE_SECONDS) * 1000 + 1000
    assert.ok(tookMs < boundMs + 1500, `exited ${tookMs} ms after SIGTERM (bound ${boundMs} ms)`)
    const said = worker.events.find((e) => e.event === 'worker:error' && e.where === 'shutdown')
    assert.match(String(said?.error), new RegExp(`1 job outcomes or releases could not be written .*jobs ${hung} stay picked`))
    assert.equal(worker.events.find(isEvent('worker:stopped'))?.unwritten, 1)
    proxy.resume()
    // Not lost: the row stays picked, and goes stale for another worker once its heartbeat stops.
    const { rows } = await db.pool.query('select status::text from pgqueuer where id = $1', [hung])
    assert.deepEqual(rows, [{ status: 'picked' }])
  })

  it('ends status --check, requeue and jobs show with exit 4 within the deadline through a stalled path', async () => {
    proxy = await startStallProxy(db.url)
    const [id] = await enqueueNoops(1, 'cli')
    const env = { AIZK_DATABASE_URL: proxy.url, AIZK_DB_DEADLINE_SECONDS: '1' }
    assert.equal((await runCli(['jobs', 'show', id, '--json'], { env })).code, 0)
    const commands = [
      ['status', '--check'],
      ['requeue', '--entrypoint', 'test_noop', '--yes'],
      ['jobs', 'show', id],
    ]
    // Stalled from the start (the handshake hangs), and stalled once the command has connected
    // and read the schema's version (three ReadyForQuery: the handshake, two statements), so its
    // own first statement hangs.
    for (const [args, readyBeforeStall] of [...commands.map((c) => [c, 0] as const), ...commands.map((c) => [c, 3] as const)]) {
      if (readyBeforeStall) proxy.stallAfterReady(readyBeforeStall)
      else proxy.stall()
      const t0 = Date.now()
      const res = await runCli([...args], { env, timeoutMs: 30_000 })
      const tookMs = Date.now() - t0
      const what = `${args.join(' ')} (stalled after ${readyBeforeStall} ReadyForQuery)`
      assert.equal(res.code, 4, `${what}: ${res.stdout}${res.stderr}`)
      assert.match(res.stderr, /PostgreSQL/, what)
      // Node's start-up and oclif's, the connection's deadline, a second for goodbyes.
      assert.ok(tookMs < 8000, `${what} took ${tookMs} ms`)
      proxy.resume()
    }
  })
})
