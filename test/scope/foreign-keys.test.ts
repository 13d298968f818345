/**
 * Every foreign key between two scoped tables (tables with a `scopes` column), read from
 * pg_constraint rather than listed by hand, so the next one cannot be forgotten: as the app login
 * in A's scoped transaction, a row naming B's row is refused, with the very error a row naming an
 * id nobody has gets (the foreign key's own check reads past row security and would say which
 * ids exist), while naming A's own row gets past the check. Updates run the same check.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
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

interface ScopedKey {
  name: string
  table: string
  column: string
  attnum: number
  referenced: string
}

/** One row of every table a scoped foreign key may name, written by the set itself. */
async function seed(scopes: string[], tag: string): Promise<Record<string, string>> {
  await ingestOriginal(app.scoped, settings, {
    scopes,
    bytes: Buffer.from(`# ${tag}\n\noriginal of ${tag}\n`),
    filename: `${tag}.md`,
    mediaType: 'text/markdown',
  })
  return inSet(scopes, async (c) => {
    const doc = await writeDocument(c, scopes, { title: tag, body: `notes of ${tag}` }, { chunkMaxChars: 400, chunkOverlapChars: 0 })
    const one = async (sql: string, params: unknown[] = []) => (await c.query<{ id: string }>(sql, params)).rows[0].id
    return {
      document: doc.documentId,
      artifact: await one('select id::text from artifact where scopes = $1::uuid[]', [scopes]),
      chunk: await one('select id::text from chunk where document_id = $1 limit 1', [doc.documentId]),
      entity: await one(`insert into entity (scopes, name, normalized_name, kind) values ($1::uuid[], $2, $2, 'concept') returning id::text`, [scopes, tag]),
      claim: await one(`insert into claim (scopes, predicate) values ($1::uuid[], 'says') returning id::text`, [scopes]),
      community: await one(
        `insert into community (scopes, level, title, summary, size, lineage, novelty) values ($1::uuid[], 0, $2, $2, 1, gen_random_uuid(), 'first') returning id::text`,
        [scopes, tag],
      ),
      insight: await one(`insert into insight (scopes, kind, title, evidence_key) values ($1::uuid[], 'rising_entity', $2, $2) returning id::text`, [
        scopes,
        tag,
      ]),
    }
  })
}

/** The error an attempt ends in (null when it went through), with the id it named masked. */
async function attempt(key: ScopedKey, id: string, rowScopes: string[] = [A]): Promise<{ code: string; message: string } | null> {
  class Undo {
    constructor(readonly result: { code: string; message: string } | null) {}
  }
  // Thrown to roll the attempt back: a row that went through must not stay.
  const undone = await inSet([A], async (c) => {
    const result = await c
      .query(`insert into ${key.table} (scopes, ${key.column}) values ($1::uuid[], $2::uuid)`, [rowScopes, id])
      .then(() => null)
      .catch((e: pg.DatabaseError) => ({ code: String(e.code), message: e.message.replaceAll(id, '<id>') }))
    throw new Undo(result)
  }).catch((e: unknown) => e)
  if (!(undone instanceof Undo)) throw undone
  return undone.result
}

let keys: ScopedKey[]
let rowsA: Record<string, string>
let rowsB: Record<string, string>

before(async () => {
  rowsA = await seed([A], 'tenant-a')
  rowsB = await seed([B], 'tenant-b')
  const { rows } = await db.pool.query<ScopedKey & { columns: number }>(
    `select k.conname as name, t.relname as table, a.attname as column, a.attnum::int as attnum, r.relname as referenced,
            cardinality(k.conkey) as columns
       from pg_constraint k
       join pg_class t on t.oid = k.conrelid
       join pg_class r on r.oid = k.confrelid
       join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
      where k.contype = 'f' and t.relnamespace = 'public'::regnamespace
        and exists (select 1 from pg_attribute s where s.attrelid = k.conrelid and s.attname = 'scopes' and not s.attisdropped)
        and exists (select 1 from pg_attribute s where s.attrelid = k.confrelid and s.attname = 'scopes' and not s.attisdropped)
      order by 2, 3`,
  )
  for (const k of rows) assert.equal(k.columns, 1, `${k.name}: a foreign key over several columns needs its own check here`)
  keys = rows
})

describe('every foreign key between scoped tables refuses rows outside the set', () => {
  it('finds them all (the 22 of today, entity_merge included)', () => {
    assert.ok(keys.length >= 22, `${keys.length} scoped foreign keys found`)
    assert.ok(keys.some((k) => k.table === 'entity_merge' && k.column === 'merged_id'))
    assert.ok(keys.some((k) => k.table === 'entity_merge' && k.column === 'into_id'))
    for (const k of keys) assert.ok(rowsB[k.referenced], `seed() writes no ${k.referenced} row: add one so ${k.name} is tried`)
  })

  it("an {A} row naming B's row is refused, with the error an id nobody has gets", async () => {
    for (const k of keys) {
      const foreign = await attempt(k, rowsB[k.referenced])
      const missing = await attempt(k, randomUUID())
      assert.equal(foreign?.code, '42501', `${k.table}.${k.column} naming B's ${k.referenced}: ${JSON.stringify(foreign)}`)
      assert.match(foreign.message, /outside the write set/)
      assert.deepEqual(missing, foreign, `${k.table}.${k.column}: an id nobody has must look like B's`)
      // A row claiming {A,B} would contain B's row, but A cannot read it: the same refusal again,
      // not the policy's (which would come only for ids that exist).
      assert.deepEqual(await attempt(k, rowsB[k.referenced], [A, B]), foreign, `${k.table}.${k.column} in a row claiming {A,B}`)
    }
  })

  it("naming A's own row gets past the check (the refusal is about the set, not the statement)", async () => {
    for (const k of keys) {
      const own = await attempt(k, rowsA[k.referenced])
      assert.doesNotMatch(own?.message ?? '', /outside the write set/, `${k.table}.${k.column} naming A's own ${k.referenced}`)
    }
  })

  it('an update of each key column runs the same check before the row is written', async () => {
    const { rows } = await db.pool.query<{ table: string; attrs: number[]; fn: string; before: boolean; update: boolean; insert: boolean }>(
      `select c.relname as table, string_to_array(nullif(t.tgattr::text, ''), ' ')::int[] as attrs, t.tgfoid::regproc::text as fn,
              (t.tgtype & 2) <> 0 as before, (t.tgtype & 16) <> 0 as update, (t.tgtype & 4) <> 0 as insert
         from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where not t.tgisinternal and t.tgfoid::regproc::text like '%refs_visible'`,
    )
    for (const k of keys) {
      const onInsert = rows.find((t) => t.table === k.table && t.insert && t.before)
      assert.ok(onInsert, `${k.table}: no BEFORE INSERT refs trigger`)
      const onUpdate = rows.find((t) => t.table === k.table && t.update && t.before && t.fn === onInsert.fn && (t.attrs ?? [k.attnum]).includes(k.attnum))
      assert.ok(onUpdate, `${k.table}.${k.column}: no BEFORE UPDATE OF ${k.column} trigger running ${onInsert.fn}`)
    }
  })
})
