// This user's embedded test server, shared by the user's concurrent test runs and stopped by the
// last of them to end. Each run registers itself (a file named by its pid under the data folder's
// test-runs/) before it asks for the server; a run that ends unregisters and, when no run whose
// pid is alive is registered, stops the server. The check and the stop happen under the server's
// start lock, and a run takes that lock once after registering, so a run starting while another
// stops the server waits for the stop and then starts it again rather than use it as it goes
// down. A run that was killed leaves its file; its dead pid does not keep the server up, and the
// next run to end stops it.
// Plain JavaScript: test/run.mjs imports it before tsx is loaded.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * Registers this run and returns the server (started if needed) with `release`, which stops it
 * when this was the last live run. `embedded` is dist/db/embedded.js, `lock` dist/db/embedded-lock.js;
 * `pid` names the run (this process; tests name others).
 */
export async function acquireTestServer({ dataDir, port, log, env, embedded, lock, pid = process.pid }) {
  const runs = path.join(dataDir, 'test-runs')
  const mine = path.join(runs, String(pid))
  mkdirSync(runs, { recursive: true })
  writeFileSync(mine, '')
  const lockPath = path.join(dataDir, 'server.lock')
  // Wait out a run that is stopping the server right now (it decided before this file existed).
  await lock.withStartLock(lockPath, async () => {})
  const server = await embedded.ensureEmbeddedServer({ dataDir, port, log, env })
  return {
    server,
    /** Unregisters; stops the server when no other live run is registered. Returns whether it stopped it. */
    async release() {
      return lock.withStartLock(lockPath, async () => {
        rmSync(mine, { force: true })
        if (liveRuns(runs).length > 0) return false
        return embedded.stopEmbeddedServer(dataDir, env)
      })
    },
  }
}

/** The pids of registered runs still alive; the files of dead ones are removed. */
export function liveRuns(runs) {
  const live = []
  for (const name of readdirSync(runs)) {
    const pid = Number(name)
    if (pid && isAlive(pid)) live.push(pid)
    else rmSync(path.join(runs, name), { force: true })
  }
  return live
}

function isAlive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}
