// The names of a test run's databases, and the cleanup of those that killed runs left behind.
// Every database of a run starts with aizk_test_<pid>_u<uid>_h<host>: users and machines that
// share one server never drop each other's, and a run drops only its own user's databases on
// this machine whose run (the pid) is gone. The run's pid comes first, where runners before
// this naming read it, so that they too keep a live run's databases.
// Plain JavaScript: test/run.mjs imports it before tsx is loaded.
import { createHash } from 'node:crypto'
import os from 'node:os'

const hostTag = (host) => createHash('sha1').update(host).digest('hex').slice(0, 6)

/** Who runs: this user on this machine. */
export function runOwner(uid = process.getuid?.() ?? 0, host = os.hostname()) {
  return { uid, host: hostTag(host) }
}

/** The start of every database name of the run `pid` of `owner`. */
export function runPrefix(pid, owner = runOwner()) {
  return `aizk_test_${pid}_u${owner.uid}_h${owner.host}`
}

/** Drops the databases of `owner`'s runs that are no longer alive; returns their names. */
export async function dropStale(client, owner = runOwner()) {
  const mine = new RegExp(`^aizk_test_(\\d+)_u${owner.uid}_h${owner.host}(?:_|$)`)
  const { rows } = await client.query("select datname from pg_database where datname like 'aizk\\_test\\_%' order by 1")
  const dropped = []
  for (const { datname } of rows) {
    const pid = Number(datname.match(mine)?.[1])
    if (!pid || isAlive(pid)) continue
    await client.query(`drop database if exists ${datname} with (force)`).catch(() => {})
    dropped.push(datname)
  }
  return dropped
}

function isAlive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}
