import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import pg from 'pg'
import { loadMigrations, migrate, schemaState } from '../../src/db/migrate.js'
import { repoRoot, runCli } from '../support/cli.js'
import { freshDatabases } from '../support/db.js'
import { loadPgQueuerSchema } from '../support/pgqueuer-fixture.js'
import { schemaSnapshot } from '../support/schema-snapshot.js'

const opts = { appRole: 'aizk_app' }
const emptyDb = freshDatabases({ empty: true })

describe('aizk install', () => {
  it('installs every migration once; a second run has nothing to do', async () => {
    const db = await emptyDb()
    const client = await db.pool.connect()
    try {
      const first = await migrate(client, opts)
      assert.deepEqual(
        first.applied.map((m) => m.version),
        loadMigrations(opts).map((m) => m.version),
      )
      const second = await migrate(client, opts)
      assert.equal(second.applied.length, 0)
      const state = await schemaState(client, opts)
      assert.equal(state.pending.length, 0)
      assert.equal(state.current, state.latest)
    } finally {
      client.release()
    }
  })

  it('pins what a fresh install creates (UPDATE_SNAPSHOTS=1 rewrites the pin)', async () => {
    const db = await emptyDb()
    const client = await db.pool.connect()
    try {
      await migrate(client, opts)
      const actual = await schemaSnapshot(client)
      const file = path.join(repoRoot, 'test', 'fixtures', 'schema.snapshot.txt')
      if (process.env.UPDATE_SNAPSHOTS) writeFileSync(file, actual)
      assert.equal(actual, readFileSync(file, 'utf8'))
    } finally {
      client.release()
    }
  })

  it('two installs at once from two processes leave one consistent schema', async () => {
    const db = await emptyDb()
    const [a, b] = await Promise.all([
      runCli(['install', '--json'], { env: { AIZK_DATABASE_URL: db.url } }),
      runCli(['install', '--json'], { env: { AIZK_DATABASE_URL: db.url } }),
    ])
    assert.equal(a.code, 0, a.stderr)
    assert.equal(b.code, 0, b.stderr)
    const applied = [JSON.parse(a.stdout).applied.length, JSON.parse(b.stdout).applied.length].sort()
    assert.deepEqual(applied, [0, loadMigrations(opts).length])
    const { rows } = await db.pool.query('select version, count(*)::int as n from aizk_schema_version group by version')
    assert.ok(rows.every((r) => r.n === 1))
  })

  it('--dry-run prints the plan and changes nothing', async () => {
    const db = await emptyDb()
    const res = await runCli(['install', '--dry-run'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /would apply 0022_baseline/)
    const { rows } = await db.pool.query("select to_regclass('pgqueuer') as t, to_regclass('aizk_schema_version') as v")
    assert.equal(rows[0].t, null)
    assert.equal(rows[0].v, null)
  })

  it('adopts a database PgQueuer installed: adds what aizk needs, keeps PgQueuer objects and rows', async () => {
    const db = await emptyDb()
    await loadPgQueuerSchema(db.url)
    await db.pool.query(`insert into pgqueuer (priority, status, entrypoint, dedupe_key, payload)
      values (5, 'queued', 'py_job', 'k1', '{"a":1}'), (1, 'picked', 'py_job', null, null)`)
    await db.pool.query(`insert into pgqueuer_log (job_id, status, priority, entrypoint) values (99, 'successful', 1, 'py_job')`)
    const fnBefore = (await db.pool.query("select pg_get_functiondef('fn_pgqueuer_changed'::regproc) as d")).rows[0].d
    const idxBefore = (await db.pool.query("select indexname, indexdef from pg_indexes where tablename like 'pgqueuer%' order by 1")).rows

    const res = await runCli(['install', '--json'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(res.code, 0, res.stderr)
    assert.equal(JSON.parse(res.stdout).adopted, true)

    const fnAfter = (await db.pool.query("select pg_get_functiondef('fn_pgqueuer_changed'::regproc) as d")).rows[0].d
    assert.equal(fnAfter, fnBefore, "PgQueuer's trigger function is not rewritten")
    const idxAfter = (await db.pool.query("select indexname, indexdef from pg_indexes where tablename like 'pgqueuer%' order by 1")).rows
    for (const idx of idxBefore)
      assert.ok(
        idxAfter.some((i) => i.indexname === idx.indexname && i.indexdef === idx.indexdef),
        idx.indexname,
      )
    const jobs = (await db.pool.query('select entrypoint, status, dedupe_key, attempts from pgqueuer order by id')).rows
    assert.deepEqual(jobs, [
      { entrypoint: 'py_job', status: 'queued', dedupe_key: 'k1', attempts: 0 },
      { entrypoint: 'py_job', status: 'picked', dedupe_key: null, attempts: 0 },
    ])
    assert.equal((await db.pool.query('select count(*)::int as n from pgqueuer_log')).rows[0].n, 1)
    // aizk's additions: the held-aware dedupe index, the failed status, counts of the old rows.
    const added = (
      await db.pool.query("select indexname from pg_indexes where indexname in ('aizk_dedupe_key_live', 'pgqueuer_ep_prio_id_idx', 'pgqueuer_ep_ea_idx')")
    ).rows
    assert.equal(added.length, 3)
    const enumHasFailed = (await db.pool.query("select 'failed'::pgqueuer_status is not null as ok")).rows[0].ok
    assert.equal(enumHasFailed, true)
    const counts = (await db.pool.query("select status, n::int from aizk_queue_count where entrypoint = 'py_job' order by status")).rows
    assert.deepEqual(counts, [
      { status: 'queued', n: 1 },
      { status: 'picked', n: 1 },
    ])
  })

  it('adopts an older PgQueuer whose enum lacks the statuses aizk writes: the values are committed before they are used', async () => {
    const db = await emptyDb()
    await db.pool.query(`create type pgqueuer_status as enum ('queued', 'picked', 'successful', 'exception');
      create table pgqueuer (id bigserial primary key, priority int not null, queue_manager_id uuid,
        created timestamptz not null default now(), updated timestamptz not null default now(),
        heartbeat timestamptz not null default now(), status pgqueuer_status not null, entrypoint text not null, dedupe_key text, payload bytea);
      insert into pgqueuer (priority, status, entrypoint) values (1, 'queued', 'old_job')`)
    const client = await db.pool.connect()
    try {
      const result = await migrate(client, opts)
      assert.equal(result.adopted, true)
    } finally {
      client.release()
    }
    const labels = (await db.pool.query('select enum_range(null::pgqueuer_status)::text[] as l')).rows[0].l
    assert.deepEqual(labels, ['queued', 'picked', 'successful', 'exception', 'canceled', 'deleted', 'failed'])
    const jobs = (await db.pool.query('select entrypoint, status::text, attempts, dedupe_key from pgqueuer')).rows
    assert.deepEqual(jobs, [{ entrypoint: 'old_job', status: 'queued', attempts: 0, dedupe_key: null }])
    assert.equal((await db.pool.query("select to_regclass('aizk_dedupe_key_live') is not null as ok")).rows[0].ok, true)
  })

  it('creates an app role that owns nothing and cannot bypass row security', async () => {
    const db = await emptyDb()
    const client = await db.pool.connect()
    try {
      await migrate(client, opts)
    } finally {
      client.release()
    }
    const role = (await db.pool.query("select rolsuper, rolbypassrls, rolcanlogin from pg_roles where rolname = 'aizk_app'")).rows[0]
    assert.deepEqual(role, { rolsuper: false, rolbypassrls: false, rolcanlogin: false })
    const owned = (await db.pool.query("select count(*)::int as n from pg_class c join pg_roles r on r.oid = c.relowner where r.rolname = 'aizk_app'")).rows[0]
      .n
    assert.equal(owned, 0)
  })

  it('notifies ch_pgqueuer with PgQueuer payload on insert', async () => {
    const db = await emptyDb()
    const setup = await db.pool.connect()
    await migrate(setup, opts)
    setup.release()
    const listener = new pg.Client({ connectionString: db.url })
    await listener.connect()
    try {
      await listener.query('listen ch_pgqueuer')
      const got = new Promise<pg.Notification>((resolve) => listener.once('notification', resolve))
      await db.pool.query("insert into pgqueuer (priority, status, entrypoint) values (0, 'queued', 'x')")
      const n = await got
      const payload = JSON.parse(n.payload!)
      assert.deepEqual(Object.keys(payload).sort(), ['channel', 'operation', 'sent_at', 'table', 'type'])
      assert.equal(payload.operation, 'insert')
      assert.equal(payload.type, 'table_changed_event')
      assert.equal(payload.table, 'pgqueuer')
    } finally {
      await listener.end()
    }
  })

  it('writes AIZK_ENQUEUE_MAX_PAYLOAD_BYTES where the enqueue door reads it; a value out of range exits 3 and changes nothing', async () => {
    const db = await emptyDb()
    const limit = async () => (await db.pool.query('select max_payload_bytes from aizk_enqueue_limit')).rows[0].max_payload_bytes
    const raised = await runCli(['install'], { env: { AIZK_DATABASE_URL: db.url, AIZK_ENQUEUE_MAX_PAYLOAD_BYTES: '500000' } })
    assert.equal(raised.code, 0, raised.stderr)
    assert.match(raised.stdout, /the enqueue door accepts payloads up to 500000 bytes/)
    assert.equal(await limit(), 500000)
    const bad = await runCli(['install'], { env: { AIZK_DATABASE_URL: db.url, AIZK_ENQUEUE_MAX_PAYLOAD_BYTES: '10' } })
    assert.equal(bad.code, 3, bad.stderr)
    assert.match(bad.stderr, /AIZK_ENQUEUE_MAX_PAYLOAD_BYTES/)
    assert.equal(await limit(), 500000)
    // Schema up to date: the setting is still written back to its default.
    const reset = await runCli(['install'], { env: { AIZK_DATABASE_URL: db.url } })
    assert.equal(reset.code, 0, reset.stderr)
    assert.equal(await limit(), 262144)
  })
})
