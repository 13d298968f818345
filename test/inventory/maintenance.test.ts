import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { checkDumpVersion, runBackup } from '../../src/backup/index.js'
import { countIntegrity } from '../../src/content/integrity.js'
import { PermanentJobError } from '../../src/convert/errors.js'
import { ingestOriginal } from '../../src/ingest/index.js'
import { ArtifactIntegrityJob, ChunkRecoveryJob, CleanupJob } from '../../src/jobs/inventory/index.js'
import { enqueueMany } from '../../src/queue/enqueue.js'
import { parseSettings, type Settings } from '../../src/settings.js'
import { createEmptyDatabase, fileDatabase } from '../support/db.js'
import { runSystem } from '../support/inventory/run-jobs.js'

const run = promisify(execFile)
const A = ['33333333-3333-4333-8333-333333333333']
const B = ['44444444-4444-4444-8444-444444444444']

const db = await fileDatabase()
let dir: string
let settings: Settings
const ctxOf = (s: Settings) => ({ pool: db.pool, settings: s, signal: new AbortController().signal })

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aizk-maint-'))
  settings = parseSettings({ AIZK_CONTENT_STORE_DIR: path.join(dir, 'store') })
})
db.beforeDrop(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('ArtifactIntegrityJob', () => {
  it('re-hashes old originals, least recently verified first, and marks mismatches and missing files', async () => {
    const good = await ingestOriginal(db.pool, settings, { bytes: Buffer.from('good bytes'), filename: 'g.txt', scopes: A })
    const bad = await ingestOriginal(db.pool, settings, { bytes: Buffer.from('bad bytes!'), filename: 'b.txt', scopes: B })
    const folder = { ...settings, contentStore: 'folder' as const }
    const gone = await ingestOriginal(db.pool, folder, { bytes: Buffer.from('folder bytes'), filename: 'f.txt', scopes: A })
    const fresh = await ingestOriginal(db.pool, settings, { bytes: Buffer.from('fresh'), filename: 'n.txt', scopes: A })
    await db.pool.query("update artifact set created = now() - interval '40 days' where id <> $1", [fresh.artifactId])
    // Corrupt one stored original (same length, different bytes), delete the folder one's file.
    // Rot happens below the hash constraint, which checks writes only: drop it to simulate rot.
    await db.pool.query('alter table aizk_content drop constraint aizk_content_id_is_hash_of_bytes')
    await db.pool.query("update aizk_content set bytes = 'BAD bytes!'::bytea where content_id = $1", [bad.contentId])
    await rm(path.join(dir, 'store', gone.contentId.slice(0, 2), gone.contentId))

    const raised: { name: string; artifactId: unknown; status: unknown }[] = []
    const emit = (name: string, e: object) => {
      raised.push({ name, ...(e as { artifactId: unknown; status: unknown }) })
    }
    const report = await new ArtifactIntegrityJob().verify({ ...ctxOf(settings), emit })
    assert.equal(report.checked, 3)
    // Each problem is also an event on the worker's stream, not a line written past it.
    assert.deepEqual(
      raised.map((e) => [e.name, e.artifactId, e.status]).sort(),
      report.problems.map((p) => ['artifact:integrity', p.artifactId, p.status]).sort(),
    )
    assert.deepEqual(
      report.problems.map((p) => [p.artifactId, p.status]).sort(),
      [
        [bad.artifactId, 'mismatch'],
        [gone.artifactId, 'missing'],
      ].sort(),
    )
    const { rows } = await db.pool.query('select id::text, integrity_status, verified_at is not null as verified from artifact')
    const by = Object.fromEntries(rows.map((r) => [r.id, [r.integrity_status, r.verified]]))
    assert.deepEqual(by[good.artifactId], ['ok', true])
    assert.deepEqual(by[fresh.artifactId], ['unverified', false])
    assert.deepEqual(await countIntegrity(db.pool), { unverified: 1, ok: 1, mismatch: 1, missing: 1 })

    // With a batch of one, the least recently verified original goes next.
    await db.pool.query("update artifact set verified_at = now() - interval '5 days' where id = $1", [bad.artifactId])
    const one = await new ArtifactIntegrityJob().verify(ctxOf({ ...settings, integrityBatch: 1 }))
    assert.deepEqual(
      one.problems.map((p) => p.artifactId),
      [bad.artifactId],
    )
  })
})

describe('ChunkRecoveryJob', () => {
  it('requeues held chunk jobs up to the batch, skipping those that burned their cycles', async () => {
    const ids = await enqueueMany(db.pool, [
      { entrypoint: 'aizk_build_graph_chunk', priority: 50, dedupeKey: 'c1' },
      { entrypoint: 'aizk_build_graph_chunk', priority: 50, dedupeKey: 'c2', headers: { aizk: { cycles: 3 } } },
      { entrypoint: 'aizk_build_graph_chunk', priority: 50, dedupeKey: 'c3', headers: { aizk: { cycles: 2 } } },
      { entrypoint: 'other_thing', dedupeKey: 'o1' },
    ])
    await db.pool.query("update pgqueuer set status = 'failed', attempts = 5 where id = any($1::bigint[])", [ids])
    await runSystem(ChunkRecoveryJob, db.pool, settings)
    const { rows } = await db.pool.query('select dedupe_key, status::text from pgqueuer where id = any($1::bigint[]) order by dedupe_key', [ids])
    assert.deepEqual(
      rows.map((r) => [r.dedupe_key, r.status]),
      [
        ['c1', 'queued'],
        ['c2', 'failed'],
        ['c3', 'queued'],
        ['o1', 'failed'],
      ],
    )
  })
})

describe('CleanupJob', () => {
  it('trims queue history past the retention, then vacuums', async () => {
    await db.pool.query(`insert into pgqueuer_log (created, job_id, status, priority, entrypoint)
      select now() - (g || ' days')::interval, g, 'successful', 0, 'x' from generate_series(1, 20) g`)
    await runSystem(CleanupJob, db.pool, { ...settings, cleanupLogDeleteBatch: 3 })
    const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_log where entrypoint = 'x'")
    assert.equal(rows[0].n, 6) // 1..6 days old stay; 7..20 were past the 7-day retention
    const vac = await db.pool.query(
      "select last_vacuum is not null or last_autovacuum is not null as v from pg_stat_user_tables where relname = 'pgqueuer_log'",
    )
    assert.equal(vac.rows[0].v, true)
  })
})

describe('backup', () => {
  it('dumps in custom format, keeps the newest N, and restores into a fresh database with the same rows', async () => {
    const out = path.join(dir, 'backups')
    const results = []
    for (let i = 0; i < 3; i++) {
      results.push(await runBackup(db.pool, { url: db.url, dir: out, keep: 2, env: process.env, now: new Date(Date.UTC(2025, 0, 1, 2, 0, i)) }))
    }
    assert.ok(results.every((r) => r.entries > 10 && r.bytes > 0))
    const files = (await readdir(out)).sort()
    assert.deepEqual(files, ['aizk-20250101T020001000Z.dump', 'aizk-20250101T020002000Z.dump'])
    assert.deepEqual(results[2].removed, ['aizk-20250101T020000000Z.dump'])

    const fresh = await createEmptyDatabase()
    try {
      await run('pg_restore', ['--no-owner', `--dbname=${fresh.url}`, results[2].file])
      const counts = async (pool: typeof db.pool) =>
        (
          await pool.query(`select (select count(*) from artifact)::int as a, (select count(*) from aizk_content)::int as c,
            (select count(*) from pgqueuer)::int as q, (select string_agg(content_id || integrity_status, ',' order by content_id) from artifact) as s`)
        ).rows[0]
      assert.deepEqual(await counts(fresh.pool), await counts(db.pool))
    } finally {
      await fresh.drop()
    }
  })

  it('a missing pg_dump, an older one, or no folder is permanent and says what to do', async () => {
    await assert.rejects(runBackup(db.pool, { url: db.url, dir, keep: 1, env: process.env, pgBin: '/nonexistent' }), (err) => {
      assert.ok(err instanceof PermanentJobError)
      assert.match(err.message, /pg_dump was not found in \/nonexistent/)
      assert.match(err.hint ?? '', /AIZK_BACKUP_PG_BIN/)
      return true
    })
    assert.throws(() => checkDumpVersion(14, 150004), /pg_dump 14 is older than the server \(PostgreSQL 15\)/)
    assert.doesNotThrow(() => checkDumpVersion(16, 150004))
    await assert.rejects(runBackup(db.pool, { url: db.url, dir: undefined, keep: 1, env: process.env }), /AIZK_BACKUP_DIR/)
  })
})
