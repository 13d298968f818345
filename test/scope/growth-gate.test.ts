import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type pg from 'pg'
import { runIfGrown } from '../../src/scope/growth-gate.js'
import { User } from '../../src/scope/user.js'
import { A, B, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)

async function addClaims(scopes: string[], n: number): Promise<void> {
  await User.system(scopes, identity).transaction(app.scoped, (c) =>
    c.query("insert into claim (scopes, subject, predicate, object) select $1::uuid[], 's' || i, 'p', 'o' from generate_series(1, $2) i", [scopes, n]),
  )
}

/** One gated pass for {A, B} through the app role, as a scheduled pass runs it. */
async function pass(threshold: number): Promise<{ ran: boolean; factCount: number }> {
  return User.system([A, B], identity).transaction(app.scoped, async (c: pg.PoolClient) => {
    const out = await runIfGrown(c, { job: 'communities', scopes: [A, B], threshold }, async () => 'rebuilt')
    return { ran: out.ran, factCount: out.factCount }
  })
}

describe('runIfGrown', () => {
  it('runs the first time, then skips until the partition grows past the threshold', async () => {
    await addClaims([A, B], 10)
    assert.deepEqual(await pass(5), { ran: true, factCount: 10 })
    assert.deepEqual(await pass(5), { ran: false, factCount: 10 })
    await addClaims([A, B], 5) // grown by 5: not past a threshold of 5
    assert.deepEqual(await pass(5), { ran: false, factCount: 15 })
    await addClaims([A, B], 1) // grown by 6 since the last run
    assert.deepEqual(await pass(5), { ran: true, factCount: 16 })
    assert.deepEqual(await pass(5), { ran: false, factCount: 16 })
  })

  it('counts only claims whose scopes equal the set, not everything visible to it', async () => {
    await addClaims([A], 100)
    await addClaims([B], 100)
    assert.deepEqual(await pass(5), { ran: false, factCount: 16 })
  })

  it('keeps the watermark per job and exact set, under row security', async () => {
    const { rows } = await db.pool.query('select job, scopes, fact_count::int as n from aizk_watermark')
    assert.deepEqual(rows, [{ job: 'communities', scopes: [A, B], n: 16 }])
    const seen = await User.system([A], identity).transaction(app.scoped, (c) => c.query('select * from aizk_watermark'))
    assert.equal(seen.rows.length, 0)
  })
})
