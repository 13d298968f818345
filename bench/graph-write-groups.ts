/**
 * What writing several chunks' projections in one transaction would save on the server
 * (docs/memory-graph.md, "Known limits"): BENCH_WRITE_CHUNKS (600) real chunks of the bench corpus
 * are extracted here once, then written by the projection's own statement (lockedWriteSql), a
 * group of them per scoped transaction, into a fresh scratch database per run; printed are the
 * database backends' CPU and the wall time per chunk. No queue, no extraction in the timed part.
 *   node --import tsx bench/graph-write-groups.ts          # BENCH_WRITE_GROUPS="1 8 1 8"
 */
import pg from 'pg'
import { migrate } from '../src/db/migrate.js'
import { extractBuiltin } from '../src/graph/extract/builtin-extractor.js'
import { cleanExtraction } from '../src/graph/extract/extraction.js'
import { lockedWriteSql } from '../src/graph/project/sql/projection-sql.js'
import { User } from '../src/scope/user.js'
import { parseSettings } from '../src/settings.js'
import { backendCpuMs, backendCpuSpent } from './cpu.js'
import { benchCorpusFiles, corpusChunks, insertChunks } from './graph-data.js'
import { num, words } from './knobs.js'
import { createScratchDb } from './scratch-db.js'

const SET = ['11111111-0000-4000-8000-00000000000c']
const HALF_LIFE_DAYS = 30
const count = num('BENCH_WRITE_CHUNKS', 600)
const groups = words('BENCH_WRITE_GROUPS', '1 8 1 8').map(Number)
// Past the first 2,000 chunks, so the sample is not only the corpus's opening pages.
const texts = corpusChunks(benchCorpusFiles(), 2000).slice(2000, 2000 + count)
const extractions = texts.map((t) => cleanExtraction(extractBuiltin(t)))
const user = User.system(SET, parseSettings({}))

async function writeInGroups(group: number): Promise<void> {
  const db = await createScratchDb(`aizk_write_groups_${group}`)
  const pool = new pg.Pool({ connectionString: db.url, max: 2 })
  try {
    const client = await pool.connect()
    try {
      await migrate(client, { appRole: 'aizk_app' })
    } finally {
      client.release()
    }
    await insertChunks(pool, SET, texts)
    const { rows } = await pool.query<{ id: string; text: string }>('SELECT id, text FROM chunk ORDER BY ordinal')
    await pool.query('VACUUM ANALYZE')
    const cpuBefore = await backendCpuMs(pool)
    const started = performance.now()
    for (let i = 0; i < rows.length; i += group) {
      const statements = rows.slice(i, i + group).map((r, k) => lockedWriteSql(SET, r.id, r.text, extractions[i + k], HALF_LIFE_DAYS))
      await user.readOnce(pool, statements.join('; '))
    }
    const wallMs = performance.now() - started
    const cpuMs = backendCpuSpent(cpuBefore, await backendCpuMs(pool))
    const { rows: done } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM chunk WHERE projection_status = 'projected'")
    console.log(
      `${group} a transaction: server CPU ${(cpuMs / rows.length).toFixed(2)} ms a chunk, wall ${(wallMs / rows.length).toFixed(2)} ms a chunk (${done[0].n} of ${rows.length} projected)`,
    )
  } finally {
    await pool.end()
    await db.drop()
  }
}

for (const group of groups) await writeInGroups(group)
