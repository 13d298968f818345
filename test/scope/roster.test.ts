import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { OwnerAccessError } from '../../src/errors.js'
import { scopeRoster } from '../../src/scope/roster.js'
import { User } from '../../src/scope/user.js'
import { A, B, C, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)

describe('scopeRoster', () => {
  it('an empty database has an empty roster', async () => {
    assert.deepEqual(await scopeRoster(db.pool, identity), [])
  })

  it('returns exactly the three distinct sets across document, session_item and artifact, sorted', async () => {
    const write = (scopes: string[], sql: string) => User.system(scopes, identity).transaction(app.scoped, (c) => c.query(sql, [scopes]))
    await write([B, C], "insert into document (scopes, title) values ($1::uuid[], 'd1')")
    await write([B, C], "insert into document (scopes, title) values ($1::uuid[], 'd2')")
    await write([A], "insert into session_item (scopes, content) values ($1::uuid[], 's')")
    await write([A, B], "insert into artifact (scopes, content_id) select $1::uuid[], aizk_store_content('x'::bytea)")
    await write([A], "insert into artifact (scopes, content_id) select $1::uuid[], aizk_store_content('y'::bytea)")
    // A chunk or a claim alone does not put a set on the roster.
    await write([C], "insert into claim (scopes, subject, predicate, object) values ($1::uuid[], 's', 'p', 'o')")
    assert.deepEqual(await scopeRoster(db.pool, identity), [[A], [A, B], [B, C]])
  })

  it('reads past row security only as the system user', async () => {
    await assert.rejects(
      User.system([A], identity).owner(db.pool, async () => 1),
      OwnerAccessError,
    )
  })
})
