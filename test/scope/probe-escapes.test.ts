/**
 * Existence probes and large objects, as the app login inside A's scoped transaction (B is the
 * victim). A leakproof condition (`=` on text or uuid) reaches an index before row security, so
 * `EXPLAIN (ANALYZE)` with `enable_seqscan = off` shows a row the policy then removed, and the
 * statistics counters (`pg_stat_get_xact_*`) count work done on rows A cannot see. The content
 * hash is closed (no index the app role's conditions reach leads with the content id, and
 * storing touches only the caller's set's row); what a tenant can still learn is shown here as
 * it is stated in docs/security.md ("Existence probes"), so a change to it is seen.
 */
import assert from 'node:assert/strict'
import { createHash, randomUUID } from 'node:crypto'
import { before, describe, it } from 'node:test'
import type pg from 'pg'
import { writeDocument } from '../../src/graph/project/write-memory.js'
import { ingestOriginal } from '../../src/ingest/ingest.js'
import { User } from '../../src/scope/user.js'
import { parseSettings } from '../../src/settings.js'
import { A, B, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
const settings = { ...parseSettings({}), ...identity }
const inSet = <T>(scopes: string[], fn: (c: pg.PoolClient) => Promise<T>) => User.system(scopes, identity).transaction(app.scoped, fn)
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')
const literal = (v: string) => `'${v.replaceAll("'", "''")}'`

const bSecret = Buffer.from('# B payroll\n\nthe salaries of tenant B, a file A has a copy of.\n')
let bChunk: string

/**
 * What `EXPLAIN (ANALYZE)` tells A of a query run in its own transaction with index scans
 * preferred: per plan node, its type, index, rows and rows removed (no timings, which vary).
 */
async function explained(sql: string): Promise<unknown> {
  return inSet([A], async (c) => {
    await c.query('set local enable_seqscan = off')
    const { rows } = await c.query(`explain (analyze, costs off, timing off, summary off, format json) ${sql}`)
    const keep = ['Node Type', 'Index Name', 'Actual Rows', 'Rows Removed by Filter', 'Rows Removed by Index Recheck']
    const walk = (node: Record<string, unknown>): unknown => ({
      ...Object.fromEntries(keep.filter((k) => k in node).map((k) => [k, node[k]])),
      plans: ((node.Plans as Record<string, unknown>[]) ?? []).map(walk),
    })
    return walk((rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0].Plan)
  })
}

/** Rows of `table` the statistics counted as fetched or inserted while `fn` ran in A's transaction. */
async function counted(table: string, fn: (c: pg.PoolClient) => Promise<unknown>): Promise<{ fetched: number; inserted: number }> {
  return inSet([A], async (c) => {
    await c.query('set local enable_seqscan = off')
    const read = async () =>
      (
        await c.query<{ fetched: number; inserted: number }>(
          'select pg_stat_get_xact_tuples_fetched($1::regclass)::int as fetched, pg_stat_get_xact_tuples_inserted($1::regclass)::int as inserted',
          [table],
        )
      ).rows[0]
    const before = await read()
    await fn(c)
    const after = await read()
    return { fetched: after.fetched - before.fetched, inserted: after.inserted - before.inserted }
  })
}

before(async () => {
  await ingestOriginal(app.scoped, settings, { scopes: [B], bytes: bSecret, filename: 'payroll.md', mediaType: 'text/markdown' })
  await inSet([B], async (c) => {
    await writeDocument(c, [B], { title: 'B notes', body: 'Tenant B keeps its notes here.' }, { chunkMaxChars: 400, chunkOverlapChars: 0 })
    await c.query(`insert into entity (scopes, name, normalized_name, kind) values ($1::uuid[], 'Project Nightjar', 'project nightjar', 'project')`, [[B]])
    await c.query(`insert into aizk_usage_event (capture_key, scopes, kind, occurred_at) values ('b-capture-key-1', $1::uuid[], 'tokens', now())`, [[B]])
  })
  // A set wider than A's own, holding A: its chunks are not A's to read.
  await inSet([A, B], (c) => writeDocument(c, [A, B], { title: 'AB', body: 'The merger codename is zeppelin.' }, { chunkMaxChars: 400, chunkOverlapChars: 0 }))
  bChunk = (await db.pool.query(`select id::text from chunk where scopes = $1::uuid[] limit 1`, [[B]])).rows[0].id
  await db.pool.query('analyze')
})

describe('the content hash: whether anyone stored given bytes', () => {
  const stored = sha256(bSecret)
  const nobody = sha256(Buffer.from('bytes nobody stored'))

  it("EXPLAIN (ANALYZE) of a lookup by content id shows the same for B's bytes and bytes nobody has", async () => {
    for (const table of ['artifact', 'aizk_content']) {
      const seen = await explained(`select 1 from ${table} where content_id = ${literal(stored)}`)
      assert.deepEqual(seen, await explained(`select 1 from ${table} where content_id = ${literal(nobody)}`), table)
      assert.doesNotMatch(JSON.stringify(seen), /Index/, `${table}: no index leads with the content id`)
    }
  })

  it('storing the bytes B stored counts and finds exactly what storing new bytes does', async () => {
    const store = (bytes: Buffer) => (c: pg.PoolClient) => c.query('select aizk_store_content($1)', [bytes])
    const again = await counted('aizk_content', store(bSecret))
    assert.deepEqual(again, await counted('aizk_content', store(Buffer.from(`new bytes ${randomUUID()}`))))
    assert.equal(again.inserted, 1, 'A stores its own copy')
    const artifactLookup = await counted('artifact', (c) => c.query('select * from aizk_artifact_of_content($1)', [stored]))
    assert.deepEqual(artifactLookup, await counted('artifact', (c) => c.query('select * from aizk_artifact_of_content($1)', [nobody])))
  })

  it("A reads none of B's bytes, by the function or the table", async () => {
    const viaFunction = await inSet([A], (c) => c.query('select aizk_read_content($1, $2::uuid[]) as b', [stored, [B]]))
    assert.equal(viaFunction.rows[0].b, null)
    // A's own copy (stored above) is A's; B's row stays out of sight.
    const viaTable = await inSet([A], (c) => c.query('select scopes::text[] as s from aizk_content where content_id = $1', [stored]))
    assert.deepEqual(
      viaTable.rows.map((r) => r.s),
      [[A]],
    )
  })
})

describe('what a tenant can still learn (docs/security.md, "Existence probes")', () => {
  it('whether some set has an entity of an exact normalized name: the name index serves scoped lookups', async () => {
    const hit = await explained(`select 1 from entity where normalized_name = 'project nightjar'`)
    const miss = await explained(`select 1 from entity where normalized_name = 'project nobody'`)
    assert.notDeepEqual(hit, miss)
    assert.match(JSON.stringify(hit), /"Rows Removed by Filter":1/)
  })

  it('whether a usage capture key was taken: its unique index serves the capture', async () => {
    const hit = await explained(`select 1 from aizk_usage_event where capture_key = 'b-capture-key-1'`)
    assert.match(JSON.stringify(hit), /"Rows Removed by Filter":1/)
    assert.doesNotMatch(JSON.stringify(await explained(`select 1 from aizk_usage_event where capture_key = 'b-capture-key-2'`)), /"Rows Removed by Filter":1/)
  })

  it('whether a row id exists: the primary keys (random UUIDs, so the id must be known already)', async () => {
    const hit = await explained(`select 1 from chunk where id = ${literal(bChunk)}`)
    assert.match(JSON.stringify(hit), /"Rows Removed by Filter":1/)
    assert.doesNotMatch(JSON.stringify(await explained(`select 1 from chunk where id = ${literal(randomUUID())}`)), /"Rows Removed by Filter":1/)
  })

  it("whether a word occurs in a chunk of a wider set holding A, through recall's index", async () => {
    const recall = (word: string) => (c: pg.PoolClient) =>
      c.query(`select * from aizk_recall_candidates(to_tsquery('english', $1), array[$1], '{}'::text[], 10)`, [word])
    const hit = await counted('chunk', recall('zeppelin'))
    const miss = await counted('chunk', recall('unicorn'))
    assert.ok(hit.fetched > miss.fetched, `${JSON.stringify(hit)} against ${JSON.stringify(miss)}`)
    const answered = await inSet([A], async (c) => (await recall('zeppelin')(c)).rowCount)
    assert.equal(answered, 0, 'and the answer itself holds nothing of the wider set')
  })
})

describe('large objects', () => {
  it('the app login creates, imports and reads none', async () => {
    for (const sql of [
      'select lo_create(0)',
      'select lo_creat(-1)',
      "select lo_from_bytea(0, 'planted'::bytea)",
      "select lo_import('/etc/hostname')",
      'select lo_get(1)',
    ]) {
      const err = await inSet([A], (c) => c.query(sql)).catch((e: Error) => e)
      assert.match(String(err), /permission denied for function lo_/, sql)
    }
  })
})
