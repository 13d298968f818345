/**
 * Commands and the worker pointed at a real hot standby (a private primary and a `pg_basebackup -R`
 * copy of it: test/support/standby-pair.ts): a command that writes, and the worker once its
 * start-up wait is over, exit 4 with `database_read_only`, naming the server and the primary to
 * use; the commands that only read (jobs, jobs show) work there (docs/running-the-worker.md#read-only-servers).
 * Skipped, saying why, where the machine has no PostgreSQL binaries with pg_basebackup.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { migrate } from '../../src/db/migrate.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { runCli } from '../support/cli.js'
import { withClient } from '../support/db.js'
import { machineBinDir, type StandbyPair, startStandbyPair } from '../support/standby-pair.js'
import { waitFor } from '../support/wait-for.js'
import { isEvent, spawnWorker, workerEnv } from '../support/worker-process.js'

const { dir: binDir, missing } = await machineBinDir()
let pair: StandbyPair | undefined
let jobId: string

before(async () => {
  if (!binDir) return
  pair = await startStandbyPair(binDir)
  const primary = pair.primaryUrl
  jobId = await withClient(primary, async (c) => {
    await migrate(c, { appRole: 'aizk_app' })
    return ((await enqueueMany(c, [{ entrypoint: 'test_sleep', payload: { ms: 1 } }])) as string[])[0]
  })
  // The standby has replayed the schema and the job once it shows the row.
  await waitFor('the standby replaying the primary', () =>
    withClient((pair as StandbyPair).standbyUrl, async (c) => (await c.query('select 1 from pgqueuer where id = $1', [jobId])).rowCount === 1).catch(
      () => false,
    ),
  )
})

after(async () => {
  await pair?.stop()
})

const env = (extra: Record<string, string> = {}) => ({ AIZK_DATABASE_URL: (pair as StandbyPair).standbyUrl, ...extra })
const port = () => new URL((pair as StandbyPair).standbyUrl).port

describe('a command or a worker pointed at a hot standby', { skip: missing }, () => {
  it('refuses a command that writes: exit 4, database_read_only, the server and the primary to use', async () => {
    const text = await runCli(['enqueue', 'test_sleep', '--payload', '{"ms":1}', '--force'], { env: env() })
    assert.equal(text.code, 4, text.stderr)
    assert.match(text.stderr, new RegExp(`error: PostgreSQL at 127\\.0\\.0\\.1:${port()}/postgres is a hot standby \\(in recovery\\)`))
    assert.match(text.stderr, /hint: point AIZK_DATABASE_URL at the primary \(Patroni: HAProxy .*\/primary.*CloudNativePG: the <cluster>-rw service\)/)
    const json = await runCli(['pause', 'test_sleep', '--force', '--json'], { env: env() })
    assert.equal(json.code, 4, json.stderr)
    assert.equal(JSON.parse(json.stdout).error.code, 'database_read_only')
  })

  it('lets the commands that only read work there (jobs, jobs show); status, which folds the live counts, is refused', async () => {
    const list = await runCli(['jobs', '--json'], { env: env() })
    assert.equal(list.code, 0, list.stderr)
    assert.deepEqual(
      JSON.parse(list.stdout).jobs.map((j: { id: string }) => j.id),
      [jobId],
    )
    const status = await runCli(['status', '--json'], { env: env() })
    assert.equal(status.code, 4, status.stderr)
    assert.equal(JSON.parse(status.stdout).error.code, 'database_read_only')
    const show = await runCli(['jobs', 'show', jobId, '--json'], { env: env() })
    assert.equal(show.code, 0, show.stderr)
    assert.match(show.stdout, new RegExp(`"${jobId}"`))
  })

  it('a worker waits out its start-up wait for a writable server, then exits 4 saying so', async () => {
    const worker = spawnWorker(workerEnv((pair as StandbyPair).standbyUrl, { AIZK_WORKER_STARTUP_WAIT_SECONDS: '1', AIZK_WORKER_OUTPUT: 'json' }))
    const waiting = await worker.waitFor(isEvent('worker:waiting'), 'the worker waiting for a writable server')
    assert.match(String(waiting.error), /hot standby/)
    const { code } = await worker.exited
    assert.equal(code, 4, worker.stderr())
    assert.match(worker.stderr(), /is a hot standby .*\n.*hint: point AIZK_DATABASE_URL at the primary/)
    assert.equal(worker.events.some(isEvent('worker:started')), false)
  })
})
