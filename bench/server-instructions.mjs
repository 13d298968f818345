// What one job of a steady-state drain costs the server, in CPU instructions (callgrind), by part:
// the statements a busy worker sends (aizk_complete of the last batch, then aizk_pick) run by one
// PostgreSQL backend in single-user mode under valgrind, on a private cluster made here from
// aizk's migrations. Instruction counts do not depend on what else the machine runs, unlike times.
// Each variant switches one piece of the per-job work off (not a supported configuration: only a
// price tag); a variant's cost per job is the difference between K2 and K1 picks of B jobs, so
// start-up and set-up cancel out.
//   npm run build && node bench/server-instructions.mjs
// Needs valgrind and PostgreSQL's server binaries (AIZK_PG_BINDIR, default `pg_config --bindir`).
// Run as root, the server runs as the `postgres` user (runuser). Knobs (env): BENCH_VARIANTS
// (all below), BENCH_BATCH (256), BENCH_K1 (4), BENCH_K2 (16), AIZK_APP_ROLE (aizk_app).
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { migrate } from '../dist/index.js'

const env = process.env
const B = Number(env.BENCH_BATCH ?? 256)
const K1 = Number(env.BENCH_K1 ?? 4)
const K2 = Number(env.BENCH_K2 ?? 16)
const QM = '11111111-1111-1111-1111-111111111111'
const bindir = env.AIZK_PG_BINDIR ?? execFileSync('pg_config', ['--bindir']).toString().trim()
const asRoot = process.getuid?.() === 0
const run = (cmd, args, opts = {}) => (asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], opts) : spawnSync(cmd, args, opts))

/** SQL that switches one piece off, run after the set-up and before the picks. */
const VARIANTS = {
  'as migrated': '',
  'without the limit trigger (0021)': 'ALTER TABLE pgqueuer DISABLE TRIGGER aizk_limit_foreign_pick',
  // Dropped, not disabled: the picks and completions write their own counts and the triggers
  // skip them, so what they still cost is the capture of their transition tables.
  'without the live-count and throughput triggers':
    'DROP TRIGGER aizk_count_update ON pgqueuer; DROP TRIGGER aizk_count_delete ON pgqueuer; DROP TRIGGER aizk_throughput_insert ON pgqueuer_log',
  'without the NOTIFY trigger': 'ALTER TABLE pgqueuer DISABLE TRIGGER tg_pgqueuer_changed',
  'without aizk_picked_heartbeat_idx': 'DROP INDEX aizk_picked_heartbeat_idx',
  'without the successful log row': `CREATE OR REPLACE FUNCTION aizk_complete(p_ids bigint[], p_queue_manager_id uuid) RETURNS bigint LANGUAGE plpgsql AS $f$
     DECLARE v_n bigint;
     BEGIN
       DELETE FROM pgqueuer q WHERE q.id = ANY (p_ids) AND q.queue_manager_id = p_queue_manager_id AND q.status = 'picked';
       GET DIAGNOSTICS v_n = ROW_COUNT;
       RETURN v_n;
     END $f$`,
}

function script(ddl, picks) {
  const jobs = (K2 + 2) * B
  const s = [
    'TRUNCATE pgqueuer, pgqueuer_log, aizk_queue_count, aizk_queue_count_delta, aizk_throughput, aizk_worker',
    'CREATE TABLE IF NOT EXISTS bench_carry (ids bigint[])',
    'TRUNCATE bench_carry',
    "INSERT INTO bench_carry VALUES ('{}')",
    `INSERT INTO aizk_worker (queue_manager_id, host, pid, version, entrypoints, limits) VALUES ('${QM}', 'bench', 1, 'bench', '{bench}', '{}')`,
    `INSERT INTO pgqueuer (priority, entrypoint, payload, status) SELECT 0, 'bench', convert_to('{"i":' || g || '}', 'UTF8'), 'queued' FROM generate_series(1, ${jobs}) g`,
    'VACUUM ANALYZE pgqueuer',
    'VACUUM ANALYZE pgqueuer_log',
    'CHECKPOINT',
  ]
  if (ddl) s.push(ddl)
  // One statement (one transaction) per completion and per pick, as a worker's: the ids a pick took are the next completion's.
  for (let i = 0; i < picks; i++) {
    s.push(`SELECT aizk_complete((SELECT ids FROM bench_carry), '${QM}')`)
    s.push(`UPDATE bench_carry SET ids = (SELECT coalesce(array_agg(id), '{}') FROM aizk_pick(${B}, '${QM}', '{bench}', '{0}', 0))`)
  }
  s.push("SELECT count(*) AS logged FROM pgqueuer_log WHERE status = 'successful'")
  return `${s.join(';\n\n')};\n\n`
}

function instructions(dataDir, work, sql, label) {
  const file = path.join(work, `${label}.sql`)
  fs.writeFileSync(file, sql)
  const out = path.join(work, `${label}.callgrind`)
  const r = run('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, path.join(bindir, 'postgres'), '--single', '-j', '-D', dataDir, 'bench'], {
    input: sql,
    encoding: 'utf8',
    cwd: work,
  })
  const collected = /Collected : (\d+)/.exec(r.stderr ?? '')
  const logged = /logged = "(\d+)"/.exec(r.stdout ?? '')
  if (!collected || !logged) throw new Error(`callgrind run ${label} failed: ${(r.stderr ?? '').slice(-400)}`)
  return { ir: Number(collected[1]), logged: Number(logged[1]) }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'aizk-server-instr-'))
fs.chmodSync(work, 0o777)
const base = path.join(work, 'data')
try {
  const init = run(path.join(bindir, 'initdb'), ['-D', base, '-A', 'trust', '-U', 'postgres'], { encoding: 'utf8' })
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`)
  const port = 20000 + (process.pid % 20000)
  const start = run(
    path.join(bindir, 'pg_ctl'),
    ['-D', base, '-o', `-p ${port} -k ${work} -c listen_addresses=''`, '-w', 'start', '-l', path.join(work, 'log')],
    { encoding: 'utf8' },
  )
  if (start.status !== 0) throw new Error(`pg_ctl start failed: ${start.stderr}`)
  try {
    const admin = new pg.Client({ host: work, port, user: 'postgres', database: 'postgres' })
    await admin.connect()
    await admin.query('CREATE DATABASE bench')
    await admin.end()
    const c = new pg.Client({ host: work, port, user: 'postgres', database: 'bench' })
    await c.connect()
    await migrate(c, { appRole: env.AIZK_APP_ROLE ?? 'aizk_app' })
    await c.end()
  } finally {
    run(path.join(bindir, 'pg_ctl'), ['-D', base, '-m', 'fast', '-w', 'stop'])
  }
  const names = env.BENCH_VARIANTS ? env.BENCH_VARIANTS.split(',').map((s) => s.trim()) : Object.keys(VARIANTS)
  const rows = []
  for (const name of names) {
    const dataDir = path.join(work, `d${rows.length}`)
    fs.cpSync(base, dataDir, { recursive: true })
    if (asRoot) execFileSync('chown', ['-R', 'postgres', dataDir])
    fs.chmodSync(dataDir, 0o700)
    const a = instructions(dataDir, work, script(VARIANTS[name], K1), `v${rows.length}-k1`)
    const b = instructions(dataDir, work, script(VARIANTS[name], K2), `v${rows.length}-k2`)
    const jobs = (K2 - K1) * B
    const perJob = (b.ir - a.ir) / jobs
    rows.push({ name, perJob })
    console.log(
      `  ${name}: ${Math.round(perJob).toLocaleString('en-US')} instructions per job (${jobs} jobs between the runs; logged ${a.logged} / ${b.logged})`,
    )
  }
  const whole = rows[0]?.perJob
  console.log('')
  console.log(`| server instructions per job, picks of ${B}, each after the completion of the last pick's jobs | per job | ÷ as migrated | the part's cost |`)
  console.log('|---|---:|---:|---:|')
  for (const r of rows)
    console.log(
      `| ${r.name} | ${Math.round(r.perJob).toLocaleString('en-US')} | ${(r.perJob / whole).toFixed(3)} | ${Math.round(whole - r.perJob).toLocaleString('en-US')} (${(((whole - r.perJob) / whole) * 100).toFixed(1)}%) |`,
    )
} finally {
  fs.rmSync(work, { recursive: true, force: true })
}
