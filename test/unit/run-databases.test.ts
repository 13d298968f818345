// A run's cleanup on a server that other users and machines share: it drops only the databases
// its own user's killed runs left on this machine, never another user's, another machine's, a
// live run's, or a name it did not make.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { after, describe, it } from 'node:test'
import pg from 'pg'
import { adminQuery, urlFor } from '../support/db.js'
import { dropStale, runOwner, runPrefix } from '../support/run-databases.mjs'

/** Owners no real run has: user ids far above any real one. */
const me = runOwner(4_000_000_001, 'this-machine')
const otherUser = runOwner(4_000_000_002, 'this-machine')
const otherMachine = runOwner(4_000_000_001, 'another-machine')
const suffix = `x${Math.random().toString(36).slice(2, 8)}`

/** A pid that existed and is gone. */
const deadPid = spawnSync(process.execPath, ['-e', '0']).pid as number

const names = {
  mineDead: `${runPrefix(deadPid, me)}_template_${suffix}`,
  mineDeadClone: `${runPrefix(deadPid, me)}_${process.pid}_1_${suffix}`,
  mineLive: `${runPrefix(process.pid, me)}_template_${suffix}`,
  otherUserDead: `${runPrefix(deadPid, otherUser)}_template_${suffix}`,
  otherMachineDead: `${runPrefix(deadPid, otherMachine)}_template_${suffix}`,
  unrelated: `aizk_test_template_${deadPid}_${suffix}`,
}

after(async () => {
  for (const name of Object.values(names)) await adminQuery(`drop database if exists ${name} with (force)`)
})

async function existing(): Promise<string[]> {
  const { rows } = await adminQuery('select datname from pg_database where datname = any($1) order by 1', [Object.values(names)])
  return rows.map((r) => r.datname)
}

describe("dropping a killed run's databases", () => {
  it("drops this user's dead runs' databases on this machine and nothing else", async () => {
    for (const name of Object.values(names)) await adminQuery(`create database ${name}`)
    const client = new pg.Client({ connectionString: urlFor('postgres') })
    await client.connect()
    try {
      const dropped = await dropStale(client, me)
      assert.deepEqual(dropped.sort(), [names.mineDead, names.mineDeadClone].sort())
    } finally {
      await client.end()
    }
    assert.deepEqual(await existing(), [names.mineLive, names.otherMachineDead, names.otherUserDead, names.unrelated].sort())
  })
})
