/**
 * pg_dump and pg_restore, found on PATH or in a configured folder, with their major version
 * checked against the server's: an older pg_dump cannot dump a newer server.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { PermanentJobError } from '../permanent-error.js'
import { type Environment, envName } from '../settings.js'

const run = promisify(execFile)

export function toolPath(tool: 'pg_dump' | 'pg_restore', bin?: string): string {
  return bin ? path.join(bin, tool) : tool
}

/** The tool's major version, or a PermanentJobError naming what to install or set. */
export async function toolMajor(tool: 'pg_dump' | 'pg_restore', env: Environment, bin?: string): Promise<number> {
  const file = toolPath(tool, bin)
  let stdout: string
  try {
    ;({ stdout } = await run(file, ['--version'], { env }))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'was not found' : `did not run (${(err as Error).message.split('\n')[0]})`
    throw new PermanentJobError(
      `${tool} ${why}${bin ? ` in ${bin}` : ' on PATH'}: backups need the PostgreSQL client tools`,
      `install the PostgreSQL client (the server's major version or newer) or set ${envName('backupPgBin')} to the folder holding ${tool}`,
    )
  }
  const m = /(\d+)(?:\.(\d+))?/.exec(stdout)
  if (!m) throw new PermanentJobError(`cannot read the version of ${file} from "${stdout.trim()}"`)
  return Number(m[1])
}

/** Fail (held, not retried) when pg_dump is older than the server. */
export function checkDumpVersion(dumpMajor: number, serverVersionNum: number): void {
  const serverMajor = Math.floor(serverVersionNum / 10000)
  if (dumpMajor < serverMajor) {
    throw new PermanentJobError(
      `pg_dump ${dumpMajor} is older than the server (PostgreSQL ${serverMajor}): it cannot dump it`,
      `install pg_dump ${serverMajor} or newer, or point ${envName('backupPgBin')} at one`,
    )
  }
}
