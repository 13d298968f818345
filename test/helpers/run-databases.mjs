// The names of a test run's databases, and the cleanup of those that killed runs left behind.
// Every database of a run starts with aizk_test_u<uid>_h<host>_r<pid>_: users and machines that
// share one server never drop each other's, and a run drops only its own user's databases on
// this machine whose run (the pid) is gone. Plain JavaScript: test/run.mjs imports it before tsx.
import { createHash } from 'node:crypto'
import os from 'node:os'

/** The start of every database name of this user's runs on this machine. */
export function runOwner(uid = process.getuid?.() ?? 0, host = os.hostname()) {
  return `aizk_test_u${uid}_h${createHash('sha1').update(host).digest('hex').slice(0, 6)}_r`
}

/** Drops the databases of `owner`'s runs that are no longer alive; returns their names. */
export async function dropStale(client, owner) {
  const { rows } = await client.query('select datname from pg_database where starts_with(datname, $1) order by 1', [owner])
  const dropped = []
  for (const { datname } of rows) {
    const pid = Number(datname.slice(owner.length).match(/^(\d+)_/)?.[1])
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
