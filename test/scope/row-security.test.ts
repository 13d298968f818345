import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { OwnerAccessError } from '../../src/errors.js'
import { User } from '../../src/scope/user.js'
import { A, B, C, createAppLogin, fileAppLogin, identity, SYSTEM } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
const as = (scopes: string[]) => User.system(scopes, identity)

async function insertDocument(user: User, scopes: string[], title: string): Promise<void> {
  await user.transaction(app.scoped, (c) => c.query('insert into document (scopes, title) values ($1::uuid[], $2)', [scopes, title]))
}

before(async () => {
  // Each set's rows are written by a pass for exactly that set, through the app role.
  for (const set of [[A], [B], [A, B], [A, C], [C]]) {
    await insertDocument(as(set), set, set.map((s) => s[0]).join(''))
  }
})

const refused = (err: unknown) => /row-level security/.test((err as Error).message)

describe('row security through the app role', () => {
  it('the test login is neither owner nor superuser, and a pass runs as the app role', async () => {
    const { rows } = await as([A]).transaction(app.scoped, (c) =>
      c.query(`select current_user::text as cur, session_user::text as login,
                      (select rolsuper from pg_roles where rolname = session_user) as super,
                      (select tableowner from pg_tables where tablename = 'document') as owner`),
    )
    assert.equal(rows[0].cur, 'aizk_app')
    assert.equal(rows[0].login, app.role)
    assert.equal(rows[0].super, false)
    assert.notEqual(rows[0].owner, app.role)
  })

  it('without a scope transaction the app login reads nothing at all', async () => {
    await assert.rejects(app.pool.query('select * from document'), /permission denied/)
  })

  it('a pass for {A, B} reads {A}, {B} and {A, B}, not {A, C} or {C}', async () => {
    const { rows } = await as([B, A]).transaction(app.scoped, (c) => c.query('select title from document order by title'))
    assert.deepEqual(
      rows.map((r) => r.title),
      ['a', 'ab', 'b'],
    )
  })

  it('a pass for {A, B} cannot insert a row scoped {C}, nor one scoped {A}', async () => {
    await assert.rejects(insertDocument(as([A, B]), [C], 'leak'), refused)
    await assert.rejects(insertDocument(as([A, B]), [A], 'narrowed'), refused)
    await insertDocument(as([A, B]), [A, B], 'exact')
    const { rows } = await db.pool.query("select scopes from document where title in ('leak', 'narrowed', 'exact')")
    assert.deepEqual(
      rows.map((r) => r.scopes),
      [[A, B]],
    )
  })

  it('a pass cannot move a row it can read out of its write set, nor delete a narrower row', async () => {
    const moved = await as([A, B]).transaction(app.scoped, (c) => c.query("update document set title = 'x' where title = 'a'").catch((e) => e))
    assert.ok(refused(moved), String(moved))
    const del = await as([A, B]).transaction(app.scoped, (c) => c.query("delete from document where title = 'a'"))
    assert.equal(del.rowCount, 0)
    const own = await as([A, B]).transaction(app.scoped, (c) => c.query("update document set body = 'seen' where title = 'ab'"))
    assert.equal(own.rowCount, 1)
  })

  it('a malformed scopes array is refused by a constraint, whoever writes it (even the owner)', async () => {
    const bad: [string, string][] = [
      ['{}', 'empty'],
      [`{${B},${A}}`, 'unsorted'],
      [`{${A},${A}}`, 'duplicate'],
      [`{${A},NULL}`, 'null element'],
      [`{{${A}},{${B}}}`, 'two dimensions'],
      [`{NULL,${A}}`, 'null first element'],
      [`[2:3]={${A},${B}}`, 'lower bound 2'],
      [`{${A},${B},${A}}`, 'repeat after a sorted pair'],
    ]
    for (const [literal, why] of bad) {
      await assert.rejects(
        db.pool.query('insert into document (scopes) values ($1::uuid[])', [literal]),
        /violates check constraint "document_scopes_valid"/,
        why,
      )
    }
    await assert.rejects(db.pool.query('insert into document (scopes) values (null)'), /null value/)
  })

  it('scope settings are local to the transaction: the pooled connection carries nothing on', async () => {
    const single = await createAppLogin(db)
    single.pool.options.max = 1
    try {
      await as([A]).transaction(single.scoped, (c) => c.query('select 1'))
      const { rows } = await single.pool.query(
        "select current_user::text as cur, current_setting('aizk.read_scopes', true) as r, current_setting('aizk.write_scopes', true) as w",
      )
      assert.equal(rows[0].cur, single.role)
      assert.ok(!rows[0].r, `read scopes leaked: ${rows[0].r}`)
      assert.ok(!rows[0].w, `write scopes leaked: ${rows[0].w}`)
    } finally {
      await single.drop()
    }
  })

  it('a failing pass rolls back its writes', async () => {
    await assert.rejects(
      as([A]).transaction(app.scoped, async (c) => {
        await c.query("insert into document (scopes, title) values ($1::uuid[], 'rolled back')", [[A]])
        throw new Error('boom')
      }),
      /boom/,
    )
    const { rows } = await db.pool.query("select 1 from document where title = 'rolled back'")
    assert.equal(rows.length, 0)
  })

  it('User.system: exact set on both sides, normalized; empty falls back to the system user', () => {
    const u = as([B.toUpperCase(), A, B])
    assert.deepEqual([...u.read], [A, B])
    assert.deepEqual([...u.write], [A, B])
    assert.deepEqual([...as([]).read], [SYSTEM])
    assert.deepEqual([...as([]).write], [SYSTEM])
  })

  it('the owner connection refuses any caller but the bare system user, with a typed error', async () => {
    await assert.rejects(
      as([A]).owner(db.pool, async () => 'opened'),
      OwnerAccessError,
    )
    await assert.rejects(
      as([SYSTEM, A]).owner(db.pool, async () => 'opened'),
      OwnerAccessError,
    )
    assert.equal(await as([]).owner(db.pool, async () => 'opened'), 'opened')
    assert.equal(await as([SYSTEM]).owner(db.pool, async () => 'opened'), 'opened')
  })

  it('the owner connection is read-only', async () => {
    await assert.rejects(
      as([]).owner(db.pool, (c) => c.query('insert into document (scopes) values ($1::uuid[])', [[A]])),
      /read-only transaction/,
    )
  })
})
