/**
 * The start lock of the embedded server: a file created exclusively in the data folder, so two
 * aizk processes using it for the first time at once start one server. A lock left by a killed
 * process (its pid gone) is taken over.
 */
import fs from 'node:fs/promises'
import { ConflictError, DatabaseError, errorMessage } from '../errors.js'

export async function withStartLock<T>(lockPath: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 120_000
  for (;;) {
    try {
      const handle = await fs.open(lockPath, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const holder = Number(await fs.readFile(lockPath, 'utf8').catch(() => ''))
      if (!holder || !isAlive(holder)) {
        // Left by a process that was killed while starting the server.
        await fs.rm(lockPath, { force: true })
        continue
      }
      if (Date.now() > deadline) {
        throw new ConflictError(`process ${holder} has been starting the embedded server for 2 minutes`, `remove ${lockPath} if that process is gone`)
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  try {
    return await fn()
  } catch (err) {
    if (err instanceof DatabaseError || err instanceof ConflictError) throw err
    throw new DatabaseError(`the embedded PostgreSQL could not start: ${errorMessage(err)}`)
  } finally {
    await fs.rm(lockPath, { force: true })
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
