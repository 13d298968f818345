/**
 * The queue through a PostgreSQL failover, on the real thing: two PostgreSQL 15 nodes under
 * Patroni with etcd, HAProxy routing to the leader by Patroni's /primary check
 * (test/support/ha-cluster.ts), three real workers and an enqueuing client through HAProxy under
 * steady load. With synchronous_mode on: a planned switchover, a failover (SIGKILL of the leader's
 * PostgreSQL and Patroni), the old leader back as a replica, and a leader turned read-only under
 * connected workers; then with asynchronous replication a failover whose losses are measured, not
 * asserted. The figures are printed for docs/deployment.md ("High availability").
 * Skips, with the reason, where scripts/fetch-ha.sh cannot provide Patroni, etcd and HAProxy.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { migrate } from '../../src/db/migrate.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { repoRoot } from '../support/cli.js'
import { canWrite, type HaCluster, haParts, startHaCluster } from '../support/ha-cluster.js'
import { startEnqueuer, startHealthSampler, startPickedSampler } from '../support/ha-load.js'
import { firedTicks, listenLinks, outcomes, recordedRuns, resumeMs, runsPerJob, tickProblems, unrecorded } from '../support/ha-measure.js'
import { waitFor } from '../support/wait-for.js'
import { FIXTURE_TABLES, freePort, isEvent, killAll, spawnWorker, TEST_JOBS, type WorkerProcess, workerEnv } from '../support/worker-process.js'

const parts = haParts()
const skip = 'skip' in parts ? parts.skip : false
const LIMIT = 2 // test_limited's concurrencyLimit (test/fixtures/test-jobs.mjs)
const TICK = 'aizk_cron_ha_tick'
/** Long enough that a prompt pick after a quiet enqueue can only come from NOTIFY. */
const POLL_SECONDS = 30

let cluster: HaCluster
let workers: WorkerProcess[] = []
let healthPorts: number[] = []
let load: ReturnType<typeof startEnqueuer>
let health: ReturnType<typeof startHealthSampler>
let picked: ReturnType<typeof startPickedSampler>
const outages: [number, number][] = []
const figures: string[] = []
const note = (line: string) => {
  figures.push(line)
  console.log(`ha: ${line}`)
}

/** Polls a direct write on `node` until it commits: when the new leader accepts writes. */
async function writableAt(node: string): Promise<number> {
  await waitFor(`${node} accepting writes`, () => canWrite(cluster.nodeUrl(node)), { timeoutMs: 90_000, everyMs: 100 })
  return Date.now()
}

/** Every worker picked within the bound after `since`; returns the slowest, in ms. */
async function allPickedAgain(since: number, what: string): Promise<number> {
  await waitFor(`every worker picking after ${what}`, () => resumeMs(workers, since).every((ms) => ms !== undefined), { timeoutMs: 60_000, everyMs: 100 })
  const slowest = Math.max(...(resumeMs(workers, since) as number[]))
  note(`${what}: workers picking again ${slowest} ms after the new leader accepted writes`)
  assert.ok(slowest <= 10_000, `${what}: a worker picked only ${slowest} ms after the leader accepted writes (promised: within 10 s)`)
  return slowest
}

/** Each worker's /readyz failed at least once in [from, to], and answers 200 again afterwards. */
async function readyzFollowed(from: number, to: number, what: string): Promise<void> {
  const failing = healthPorts.map(
    (port) => health.samples.filter((s) => s.port === port && s.path === '/readyz' && s.at >= from && s.at <= to && s.status !== 200).length,
  )
  note(`${what}: /readyz failing samples per worker while no writable leader: ${failing.join(', ')}`)
  assert.ok(
    failing.every((n) => n > 0),
    `${what}: every worker's /readyz failed while no leader took writes (${failing.join(', ')})`,
  )
  for (const port of healthPorts) {
    await waitFor(
      `/readyz 200 on ${port} after ${what}`,
      () => health.samples.some((s) => s.port === port && s.path === '/readyz' && s.at > to && s.status === 200),
      { timeoutMs: 30_000 },
    )
  }
}

/** With the load paused and the queue empty, a new job is picked within 2 s: a NOTIFY woke a worker. */
async function notifyDrivenPick(leader: string, what: string): Promise<void> {
  await waitFor(`every LISTEN link on ${leader}`, async () => (await listenLinks(cluster.nodeUrl(leader))) >= workers.length, {
    timeoutMs: 30_000,
    everyMs: 200,
  })
  load.pause(true)
  try {
    await waitFor('the queue drained', () => queuedCount().then((n) => n === 0), { timeoutMs: 60_000, everyMs: 200 })
    const c = new pg.Client({ connectionString: cluster.url })
    await c.connect()
    const enqueuedAt = Date.now()
    const [id] = (await enqueueMany(c, [{ entrypoint: 'test_record', payload: { tag: 'marker' } }])) as string[]
    await c.end()
    const pick = await Promise.race(workers.map((w) => w.waitFor((e) => e.event === 'job:picked' && e.jobId === id, 'the marker picked', 60_000)))
    const ms = Date.parse(pick.ts) - enqueuedAt
    note(`${what}: a quiet enqueue picked after ${ms} ms (LISTEN links on the leader: ${await listenLinks(cluster.nodeUrl(leader))})`)
    assert.ok(ms < 2000, `${what}: the marker waited ${ms} ms: no NOTIFY reached a worker (poll every ${POLL_SECONDS} s)`)
  } finally {
    load.pause(false)
  }
}

async function queuedCount(): Promise<number> {
  const c = new pg.Client({ connectionString: cluster.url, connectionTimeoutMillis: 2000 })
  c.on('error', () => {})
  try {
    await c.connect()
    const { rows } = await c.query<{ n: number }>("select count(*)::int as n from pgqueuer where entrypoint like 'test_%'")
    return rows[0].n
  } catch {
    return -1
  } finally {
    await c.end().catch(() => {})
  }
}

const other = (name: string) => cluster.nodeNames.find((n) => n !== name) as string

describe('the queue through a Patroni failover behind HAProxy', { skip }, () => {
  before(async () => {
    const started = Date.now()
    cluster = await startHaCluster(parts as Exclude<typeof parts, { skip: string }>, { synchronous: true })
    const c = new pg.Client({ connectionString: cluster.url })
    await c.connect()
    await migrate(c, { appRole: 'aizk_app' })
    await c.query(FIXTURE_TABLES)
    await c.end()
    healthPorts = [await freePort(), await freePort(), await freePort()]
    const modules = `${TEST_JOBS},${path.join(repoRoot, 'test', 'fixtures', 'ha-jobs.mjs')}`
    workers = healthPorts.map((port) =>
      spawnWorker(
        workerEnv(cluster.url, {
          AIZK_WORKER_OUTPUT: 'json',
          AIZK_WORKER_JOB_MODULES: modules,
          AIZK_WORKER_NO_SCHEDULER: 'false',
          AIZK_POLL_INTERVAL_SECONDS: String(POLL_SECONDS),
          AIZK_QUEUE_BATCH_SIZE: '10',
        }),
        ['--health-port', String(port)],
      ),
    )
    await Promise.all(workers.map((w) => w.waitFor(isEvent('worker:started'), 'the worker started', 60_000)))
    // 5 jobs every 100 ms: 3000 a minute, one in five of the entrypoint limited to 2 at once.
    load = startEnqueuer(cluster.url, { everyMs: 100, perTick: 5, plain: 'test_record', limited: 'test_limited', limitedEvery: 5 })
    health = startHealthSampler(healthPorts)
    picked = startPickedSampler(cluster.url, 'test_limited')
    await Promise.all(workers.map((w) => w.waitForCount(isEvent('job:completed'), 50, 'work flowing', 60_000)))
    note(`cluster, schema and three workers ready in ${Date.now() - started} ms`)
  })

  after(async () => {
    await Promise.all([load?.stop(), health?.stop(), picked?.stop()])
    await killAll(workers)
    // AIZK_HA_LOG names a file for the cluster's own output (Patroni, PostgreSQL, etcd, HAProxy).
    if (process.env.AIZK_HA_LOG && cluster) writeFileSync(process.env.AIZK_HA_LOG, cluster.log())
    await cluster?.stop()
    console.log(`ha: figures\n${figures.map((f) => `  ${f}`).join('\n')}`)
  })

  it('a planned switchover (patronictl switchover)', async () => {
    const leader = (await cluster.leader()) as string
    const candidate = other(leader)
    const from = Date.now()
    const writable = writableAt(candidate)
    await cluster.patronictl(['switchover', '--leader', leader, '--candidate', candidate, '--force'])
    const to = await writable
    outages.push([from, to])
    note(`switchover: no writable leader for at most ${to - from} ms`)
    await allPickedAgain(to, 'switchover')
    await cluster.settled(2)
    await notifyDrivenPick(candidate, 'switchover')
  })

  it('a failover: SIGKILL of the leader and its Patroni', async () => {
    const leader = (await cluster.leader()) as string
    const from = Date.now()
    await cluster.kill(leader)
    const to = await writableAt(other(leader))
    outages.push([from, to])
    note(`failover: no writable leader for ${to - from} ms after the kill`)
    await allPickedAgain(to, 'failover')
    await readyzFollowed(from + 1500, to, 'failover')
    await notifyDrivenPick(other(leader), 'failover')
    // The old leader comes back as a replica (rewound if it had gone further), under load.
    const back = Date.now()
    cluster.restart(leader)
    await cluster.settled(2)
    note(`old leader back as a replica (sync standby) after ${Date.now() - back} ms`)
    assert.equal(await cluster.leader(), other(leader), 'the new leader kept its role')
  })

  it('a leader turned read-only under connected workers (every write answers 25006), then back', async () => {
    const leader = (await cluster.leader()) as string
    const admin = new pg.Client({ connectionString: cluster.nodeUrl(leader) })
    await admin.connect()
    const from = Date.now()
    await admin.query('alter system set default_transaction_read_only = on')
    await admin.query('select pg_reload_conf()')
    await waitFor('the leader refusing writes', async () => !(await canWrite(cluster.nodeUrl(leader))), { timeoutMs: 10_000 })
    const completedBefore = workers.map((w) => w.events.filter(isEvent('job:completed')).length)
    await new Promise((r) => setTimeout(r, 5000))
    const completedDuring = workers.map((w, i) => w.events.filter(isEvent('job:completed')).length - completedBefore[i])
    await admin.query('set default_transaction_read_only = off')
    await admin.query('alter system reset default_transaction_read_only')
    await admin.query('select pg_reload_conf()')
    await admin.end()
    const to = await writableAt(leader)
    outages.push([from, to])
    const during = (name: string) =>
      workers.flatMap((w) => w.events.filter((e) => e.event === name && Date.parse(e.ts) >= from && Date.parse(e.ts) <= to)).length
    note(
      `read-only leader: completions reported while it refused writes: ${completedDuring.join(', ')}; meanwhile ${during('job:retried')} retried, ${during('job:held')} held, ${during('db:lost')} db:lost, ${during('worker:error')} worker:error events`,
    )
    const errors = workers.flatMap((w) => w.events.filter((e) => e.event === 'worker:error' && Date.parse(e.ts) >= from && Date.parse(e.ts) <= to))
    if (errors.length) note(`read-only leader: the workers' errors: ${[...new Set(errors.map((e) => `${e.where}: ${e.error}`))].slice(0, 5).join(' | ')}`)
    await allPickedAgain(to, 'read-only leader')
    await readyzFollowed(from + 500, to, 'read-only leader')
  })

  it('synchronous replication: nothing acknowledged lost, one success per job, limits held, ticks once each', async () => {
    const jobs = [...load.acknowledged]
    await waitFor('every acknowledged job done', async () => (await outcomes(cluster.url, jobs)).successful.size === jobs.length, {
      timeoutMs: 120_000,
      everyMs: 500,
    })
    const { successful, queued } = await outcomes(cluster.url, jobs)
    const picks = runsPerJob(workers, 'job:picked')
    const recorded = await recordedRuns(cluster.url)
    const twice = jobs.filter((j) => (picks.get(j.id) ?? 0) > 1).length
    const ticks = tickProblems(firedTicks(workers, TICK), outages)
    note(
      `sync: ${jobs.length} acknowledged enqueues, ${jobs.length - successful.size} lost, ${twice} picked twice, max ${Math.max(...picks.values())} picks of one job, limited entrypoint max ${picked.max} picked at once (${picked.samples} samples), ${ticks.doubled} doubled ticks, ${ticks.outageGaps} tick gaps at a switch and ${ticks.lateGaps} after a late fire (coalesced), ${load.failedBatches} enqueue batches refused`,
    )
    assert.equal(jobs.length - successful.size, 0, 'acknowledged enqueues lost')
    assert.deepEqual(
      await unrecorded(
        cluster.url,
        jobs.filter((j) => j.entrypoint === 'test_record'),
      ),
      [],
      'acknowledged test_record jobs that never ran',
    )
    assert.deepEqual(
      [...successful.entries()].filter(([, n]) => n !== 1),
      [],
      'each job has exactly one successful log row',
    )
    assert.equal(queued.size, 0)
    assert.ok(Math.max(...picks.values()) <= 2, 'at most one extra run per job')
    assert.ok(Math.max(0, ...[...recorded.values()]) <= 2, 'at most two handler runs wrote their row')
    assert.ok(picked.max <= LIMIT, `the limit of ${LIMIT} was exceeded: ${picked.max} picked at once`)
    assert.equal(ticks.doubled, 0, 'a cron tick fired twice')
    assert.deepEqual(ticks.unexplainedGaps, [], 'cron ticks missing outside a switch')
    const livez = health.samples.filter((s) => s.path === '/livez')
    note(
      `sync: /livez answered ${livez.filter((s) => s.status !== 0).length} of ${livez.length} probes, ${livez.filter((s) => s.status === 503).length} answered 503`,
    )
    assert.ok(
      livez.every((s) => s.status !== 0),
      '/livez always answered',
    )
    for (const w of workers) assert.deepEqual(w.badLines, [])
  })

  it('asynchronous replication: a failover with the replica 2 s behind, what it loses measured', async () => {
    await cluster.setSynchronous(false)
    const leader = (await cluster.leader()) as string
    const replica = other(leader)
    await new Promise((r) => setTimeout(r, 2000))
    // For 2 s the leader acknowledges commits the replica never receives, then dies with them.
    const firstUnsent = load.acknowledged.length
    const endSenders = await cluster.stallReplication(leader)
    await new Promise((r) => setTimeout(r, 2000))
    const completedBefore = runsPerJob(workers, 'job:completed')
    const ticksBefore = firedTicks(workers, TICK)
    const from = Date.now()
    await cluster.kill(leader)
    endSenders()
    const unsent = load.acknowledged.slice(firstUnsent).filter((j) => j.at <= from)
    const to = await writableAt(replica)
    outages.push([from, to])
    note(`async: no writable leader for ${to - from} ms after the kill`)
    await allPickedAgain(to, 'async failover')
    // What survived drains on the new leader alone (the old one stays down: its rewind is the
    // sync scenario's). A completion it never saw is a picked row whose heartbeat stopped: it
    // runs again once the heartbeat timeout (30 s) passes.
    const all = [...load.acknowledged]
    const drained = await waitFor('the queue drained', async () => (await queuedCount()) === 0, { timeoutMs: 90_000, everyMs: 500 }).catch(() => false)
    const { successful, queued } = await outcomes(cluster.url, all)
    const idsLost = all.filter((j) => !successful.has(j.id) && !queued.has(j.id)).length
    const recordJobs = unsent.filter((j) => j.entrypoint === 'test_record')
    const lost = (await unrecorded(cluster.url, recordJobs)).length
    const reused = all.length - new Set(all.map((j) => j.id)).size
    const completions = runsPerJob(workers, 'job:completed')
    const ranAgain = [...completedBefore.keys()].filter((id) => (completions.get(id) ?? 0) > (completedBefore.get(id) ?? 0)).length
    const doubledLog = [...successful.values()].filter((n) => n > 1).length
    const lastTickBefore = Math.max(...ticksBefore.map((f) => f.tick))
    const refired = firedTicks(workers, TICK).filter((f) => f.at > from && f.tick <= lastTickBefore).length
    note(
      `async: ${unsent.length} enqueues acknowledged while replication stalled; of its ${recordJobs.length} test_record jobs ${lost} never ran (lost); ${reused} job ids handed out twice (${idsLost} acknowledged ids with no successful log row); ${ranAgain} completed jobs ran again, ${doubledLog} jobs with two successful log rows, ${refired} cron ticks fired again, ${drained ? 'queue drained' : `${queued.size} still queued or picked after 90 s`}`,
    )
  })
})
