/**
 * Benchmark of the weekly graph passes (issue 14), each run in a child process through its real
 * job handler, with the child's peak memory (maxRSS):
 *   node --import tsx bench/graph-maintenance.ts        (also `npm run bench:graph-maintenance`)
 *   communities: CommunitiesJob over 100,000 claims (20,000 entities, 400 planted groups), target < 30 s:
 *       the first build, then a rebuild after 1% more claims (the weekly case: the previous build
 *       is read for lineage and replaced)
 *   raptor: RaptorJob over 10,000 chunk vectors (BENCH_GM_RAPTOR_DIMS wide, default 384), embedding its
 *       summaries through a local OpenAI-compatible stand-in over HTTP, extractive summaries
 *   insights: InsightJob over the same 100,000 claims: a first pass (baseline, contradictions,
 *       new communities), then a second after 10% of the claims were reinforced (trends)
 * A scratch database (bench/scratch-db.ts). Knobs: docs/benchmarks.md#knobs (BENCH_GM_*,
 * BENCH_CPU_PROF, BENCH_KEEP); inside `npm run bench` the section "graph-maintenance" runs all three.
 */
import { spawn } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { availableParallelism, loadavg } from 'node:os'
import pg from 'pg'
import { benchAppRole, num, text, words } from './knobs.js'
import { createScratchDb } from './scratch-db.js'

const CLAIMS = num('BENCH_GM_CLAIMS', 100_000)
const CHUNKS = num('BENCH_GM_CHUNKS', 10_000)
const DIMS = num('BENCH_GM_RAPTOR_DIMS', 384)
const ENTITIES = Math.max(100, Math.round(CLAIMS / 5))
const GROUP = 50
const SCOPE = 'dddddddd-0000-4000-8000-000000000004'
const appRole = benchAppRole()
const SECTIONS = words('BENCH_GM_SECTIONS', 'communities raptor insights')
const profDir = text('BENCH_CPU_PROF')
const PROFILE = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []

/** An embeddings stand-in: a deterministic vector per text, DIMS wide. */
function startEmbeddings(): Promise<http.Server> {
  const s = http.createServer((req, res) => {
    const parts: Buffer[] = []
    req.on('data', (d) => parts.push(d))
    req.on('end', () => {
      const { input } = JSON.parse(Buffer.concat(parts).toString()) as { input: string[] }
      const data = input.map((text, index) => {
        const v = new Array(DIMS).fill(0)
        for (const w of text.toLowerCase().match(/[a-z]{3,}/g) ?? []) {
          let h = 0
          for (let i = 0; i < w.length; i++) h = (h * 31 + w.charCodeAt(i)) >>> 0
          v[h % DIMS] += 1
        }
        return { object: 'embedding', index, embedding: v }
      })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data }))
    })
  })
  // Longer than the client's idle keep-alive, so a reused connection is never closed under it.
  s.keepAliveTimeout = 120_000
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)))
}

async function seedClaims(pool: pg.Pool): Promise<void> {
  await pool.query(
    `CREATE TABLE bench_entity AS SELECT n, gen_random_uuid() AS id FROM generate_series(0, $1 - 1) AS n;
     CREATE UNIQUE INDEX ON bench_entity (n)`.replace('$1', String(ENTITIES)),
  )
  await pool.query(
    `INSERT INTO entity (id, scopes, name, normalized_name, kind)
     SELECT id, $1::uuid[], 'Entity ' || n, 'entity ' || n, (ARRAY['person','organisation','place','concept'])[1 + n % 4] FROM bench_entity`,
    [[SCOPE]],
  )
  // Each entity is the subject of five claims with distinct predicates; 90% of objects lie in
  // the subject's planted group of 50, 10% anywhere. 1% of subjects get a contradicting pair.
  const contradictions = Math.round(CLAIMS / 100)
  await pool.query(
    `INSERT INTO claim (scopes, subject_id, predicate, object_id, object_key, weight)
     SELECT $1::uuid[], s.id, 'relates ' || (g / $2), o.id, 'entity:' || o.id, 0.2 + (g % 97) / 32.0
       FROM generate_series(0, $3 - 1) AS g
       JOIN bench_entity s ON s.n = g % $2
       JOIN bench_entity o ON o.n = CASE WHEN g % 10 = 0 THEN (g % $2 + 1 + (g * 7919) % ($2 - 1)) % $2
                                         ELSE (g % $2) / ${GROUP} * ${GROUP} + ((g % $2) % ${GROUP} + 1 + (g * 37) % (${GROUP} - 1)) % ${GROUP} END
      WHERE o.n <> s.n`,
    [[SCOPE], ENTITIES, CLAIMS - 2 * contradictions],
  )
  await pool.query(
    `INSERT INTO claim (scopes, subject_id, predicate, object_text, object_key, weight)
     SELECT $1::uuid[], s.id, 'born in', c.city, 'text:' || lower(c.city), 1
       FROM bench_entity s CROSS JOIN (VALUES ('London'), ('Paris')) AS c(city) WHERE s.n < $2`,
    [[SCOPE], contradictions],
  )
  await pool.query('INSERT INTO document (scopes, title, body) VALUES ($1::uuid[], $2, $3)', [[SCOPE], 'bench', 'bench'])
}

async function seedChunks(pool: pg.Pool): Promise<void> {
  const words =
    'python module function class object list string dictionary loop error exception import package value type method file stream thread process queue memory graph claim entity scope worker job'.split(
      ' ',
    )
  for (let i = 0; i < CHUNKS; i += 1000) {
    const n = Math.min(1000, CHUNKS - i)
    const texts: string[] = []
    const vectors: number[][] = []
    for (let k = 0; k < n; k++) {
      const topic = (i + k) % 200
      texts.push(
        `Chunk ${i + k} on topic ${topic}: the ${words[topic % words.length]} and the ${words[(topic * 7) % words.length]} work together. More prose follows here about ${words[(i + k) % words.length]}.`,
      )
      vectors.push(Array.from({ length: DIMS }, (_, d) => (d % 200 === topic ? 5 : 0) + Math.sin((i + k) * (d + 1)) * 0.5))
    }
    await pool.query(
      `INSERT INTO chunk (scopes, source, ordinal, text, embedding, projection_status)
       SELECT $1::uuid[], 'document', o, t, v::real[], 'projected' FROM jsonb_to_recordset($2::jsonb) AS u(o int, t text, v float8[])`,
      [[SCOPE], JSON.stringify(texts.map((t, k) => ({ o: i + k, t, v: vectors[k] })))],
    )
  }
}

function runChild(pass: string, url: string, env: Record<string, string>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...PROFILE, '--import', 'tsx', 'bench/graph-maintenance-child.ts', pass, url, SCOPE], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1) as string)) : reject(new Error(`${pass} exited ${code}`))))
  })
}

const show = (label: string, r: Record<string, unknown>) =>
  console.log(
    `${label.padEnd(46)} ${(r.seconds as number).toFixed(2).padStart(7)} s (${(r.cpuSeconds as number).toFixed(1)} s CPU in the pass's process, its threads included; ` +
      `longest event-loop stall ${Math.round(r.longestStallMs as number)} ms)   peak RSS ${Math.round(r.peakRssMb as number)} MB (${Math.round(r.rssBeforeMb as number)} MB before)   ${JSON.stringify(r.detail)}   load ${loadavg()[0].toFixed(1)}`,
  )

/** 1% more claims between random entities: enough growth for the gate to rebuild. */
async function growClaims(pool: pg.Pool): Promise<void> {
  await pool.query(
    `INSERT INTO claim (scopes, subject_id, predicate, object_id, object_key, weight)
     SELECT $1::uuid[], s.id, 'grew with', o.id, 'entity:' || o.id, 1
       FROM generate_series(0, $2 - 1) AS g
       JOIN bench_entity s ON s.n = (g * 7907) % $3
       JOIN bench_entity o ON o.n = (g * 6841 + 13) % $3
      WHERE o.n <> s.n`,
    [[SCOPE], Math.round(CLAIMS / 100), ENTITIES],
  )
  await pool.query('ANALYZE claim')
}

async function main(): Promise<void> {
  const scratch = await createScratchDb(`aizk_bench_gm_${process.pid}`)
  const url = scratch.url
  const pool = new pg.Pool({ connectionString: url, max: 2 })
  // An idle connection ended by the server (a shared machine's clean-ups) is no failure of the figures.
  pool.on('error', (err) => console.error(`bench: idle connection lost: ${err.message}`))
  const embeddings = await startEmbeddings()
  try {
    const t = performance.now()
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${availableParallelism()} CPUs`,
    )
    await seedClaims(pool)
    await seedChunks(pool)
    await pool.query('VACUUM ANALYZE')
    const [counts] = (
      await pool.query(
        'SELECT (SELECT count(*) FROM claim)::int AS claims, (SELECT count(*) FROM entity)::int AS entities, (SELECT count(*) FROM chunk)::int AS chunks',
      )
    ).rows
    console.log(`seeded ${JSON.stringify(counts)} (${DIMS}-wide vectors) in ${((performance.now() - t) / 1000).toFixed(1)} s`)
    const base = { AIZK_DATABASE_URL: url, AIZK_LLM_URL: '', AIZK_APP_ROLE: appRole }
    if (SECTIONS.includes('communities')) {
      show(`communities, ${counts.claims} claims, first build`, await runChild('communities', url, base))
      await growClaims(pool)
      counts.claims = (await pool.query('SELECT count(*)::int AS n FROM claim')).rows[0].n
      show('communities, rebuild after 1% more claims', await runChild('communities', url, base))
    }
    const port = (embeddings.address() as AddressInfo).port
    const raptorEnv = { ...base, AIZK_RAPTOR_ENABLED: 'true', AIZK_EMBEDDINGS_URL: `http://127.0.0.1:${port}/v1` }
    if (SECTIONS.includes('raptor')) show(`RAPTOR, ${counts.chunks} chunk vectors`, await runChild('raptor', url, raptorEnv))
    if (SECTIONS.includes('insights')) {
      show(`insights, ${counts.claims} claims, first pass`, await runChild('insight', url, base))
      await pool.query('UPDATE claim SET weight = weight * 3, last_reinforced = now() WHERE subject_id IN (SELECT id FROM bench_entity WHERE n % 10 = 0)')
      show('insights, after 10% of entities reinforced', await runChild('insight', url, base))
    }
  } finally {
    embeddings.close()
    await pool.end()
    await scratch.drop()
  }
}

await main()
