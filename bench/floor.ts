/**
 * (e) the floor: pgbench, no JavaScript. Two measurements:
 * - aizk's own SQL on aizk's schema: one transaction picks 64 through aizk_pick, the next
 *   completes them through aizk_complete, exactly the two statements a batch of 64 costs the worker;
 * - the peer harness's reference floor (its floor script, tests b64 and c64: BENCH_PEERS_FLOOR, by
 *   default looked for in a checkout beside this one) when present, the figure issue 3 quotes
 *   (about 40,900/s here). See docs/benchmarks.md.
 * And the enqueue floors section (a) divides by: the harness's `an` (one INSERT + PgQueuer's NOTIFY
 * trigger) and `a64` (64 rows per INSERT) when its floor script is here, else the same two on
 * aizk's own pgqueuer table (its indexes and all its triggers: NOTIFY and the live counts).
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { text } from './knobs.js'

const run = promisify(execFile)

export interface FloorOptions {
  url: string
  seconds: number
  clients: number
  entrypoint: string
}

const FLOOR_QUEUE_MANAGER = '00000000-0000-4000-a000-00000000f100'
const PICK_COMPLETE = (entrypoint: string) => `
SELECT coalesce(array_agg(id)::text, '{}') AS ids FROM aizk_pick(64, '${FLOOR_QUEUE_MANAGER}', '{${entrypoint}}', '{0}', 0) \\gset
SELECT aizk_complete(:ids::bigint[], '${FLOOR_QUEUE_MANAGER}');
`

function pgEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url)
  return {
    ...process.env,
    PGHOST: u.hostname,
    PGPORT: u.port || '5432',
    PGUSER: decodeURIComponent(u.username || 'postgres'),
    PGPASSWORD: decodeURIComponent(u.password || process.env.PGPASSWORD || ''),
    PGDATABASE: u.pathname.slice(1),
  }
}

export type EnqueueFloorTest = 'an' | 'a64' | 'a1000'

const ROWS_PER_STATEMENT: Record<EnqueueFloorTest, number> = { an: 1, a64: 64, a1000: 1000 }

/** One enqueue per transaction, and 64 or 1,000 per INSERT, straight into aizk's pgqueuer table. */
const ENQUEUE_FLOORS = (entrypoint: string): Record<EnqueueFloorTest, string> => {
  const many = (n: number) => `INSERT INTO pgqueuer (priority, entrypoint, payload, status)
SELECT (random() * 9)::int, '${entrypoint}', '\\x7b2269223a317d'::bytea, 'queued' FROM generate_series(1, ${n});
`
  return {
    an: `\\set p random(0, 9)
INSERT INTO pgqueuer (priority, entrypoint, payload, status) VALUES (:p, '${entrypoint}', '\\x7b2269223a317d'::bytea, 'queued');
`,
    a64: many(64),
    a1000: many(1000),
  }
}

async function pgbenchTps(o: FloorOptions, name: string, script: string): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aizk-floor-'))
  const file = path.join(dir, `${name}.sql`)
  writeFileSync(file, script)
  const { stdout } = await run('pgbench', ['-n', '-M', 'prepared', '-c', String(o.clients), '-j', '2', '-T', String(o.seconds), '-f', file], {
    env: pgEnv(o.url),
    maxBuffer: 1 << 24,
  })
  return Number(/tps = ([0-9.]+) \(without initial connection time\)/.exec(stdout)?.[1])
}

/** Rows per second of the enqueue floor `test` on aizk's own table (the caller empties it after). */
export async function aizkEnqueueFloor(o: FloorOptions, test: EnqueueFloorTest): Promise<number> {
  return (await pgbenchTps(o, `enqueue-${test}`, ENQUEUE_FLOORS(o.entrypoint)[test])) * ROWS_PER_STATEMENT[test]
}

/** Jobs per second through aizk's pick + complete, 64 a batch, `clients` pgbench connections. */
export async function aizkFloor(o: FloorOptions): Promise<number> {
  return (await pgbenchTps(o, 'pick64-complete64', PICK_COMPLETE(o.entrypoint))) * 64
}

/** The harness's floor script (BENCH_PEERS_FLOOR, else a checkout beside this one), if present. */
export function peersFloorScript(): string | undefined {
  const script = text('BENCH_PEERS_FLOOR') ?? path.resolve('..', 'shared', 'bench-peers', 'floor', 'l-floor.sh')
  return existsSync(script) ? script : undefined
}

/** The peers' floor (rows/s per test, keyed L-<test>) if the harness is on this machine, else undefined. */
export async function peersFloor(url: string, seconds: number, tests = ['b64', 'c64']): Promise<Record<string, number> | undefined> {
  const script = peersFloorScript()
  if (!script) return undefined
  const env: NodeJS.ProcessEnv = { ...pgEnv(url), FLOOR_SECONDS: String(seconds), FLOOR_DB: `aizk_bench_floor_${process.pid}` }
  delete env.PGDATABASE
  const { stdout } = await run(script, tests, { env, maxBuffer: 1 << 24 })
  const out: Record<string, number> = {}
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('RESULT ')) continue
    const r = JSON.parse(line.slice(7)) as { workload: string; value: number }
    out[r.workload] = r.value
  }
  return out
}
