/**
 * One backup: `pg_dump -Fc` into the backup folder under a timestamped name, checked with
 * `pg_restore --list` before it counts, then the newest `keep` dumps kept. A dump is written as
 * `.partial` and renamed only once checked, so a crash never leaves a file that looks complete.
 */
import { execFile } from 'node:child_process'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Queryable } from '../db/queryable.js'
import { PermanentJobError } from '../permanent-error.js'
import { type Environment, envName } from '../settings.js'
import { checkDumpVersion, toolMajor, toolPath } from './pg-tools.js'
import { SERVER_VERSION_NUM } from './sql/run-backup.js'

const run = promisify(execFile)
const DUMP_NAME = /^aizk-\d{8}T\d{9}Z\.dump$/

export interface BackupOptions {
  /** The database to dump (a postgres:// URL; a password in it goes through PGPASSWORD). */
  url: string
  dir: string | undefined
  keep: number
  /** The environment pg_dump and pg_restore run with (PATH finds them unless pgBin is given). */
  env: Environment
  pgBin?: string
  now?: Date
  signal?: AbortSignal
}

export interface BackupResult {
  file: string
  bytes: number
  /** Entries pg_restore --list found in the dump. */
  entries: number
  removed: string[]
}

/** aizk-20250101T020000123Z.dump (milliseconds included, so two runs never share a name). */
export function dumpFileName(now: Date): string {
  return `aizk-${now.toISOString().replace(/[-:.]/g, '')}.dump`
}

export async function runBackup(db: Queryable, opts: BackupOptions): Promise<BackupResult> {
  if (!opts.dir) {
    throw new PermanentJobError(`backups are enabled but ${envName('backupDir')} is not set`, `set ${envName('backupDir')} to a folder for the dumps`)
  }
  const dumpMajor = await toolMajor('pg_dump', opts.env, opts.pgBin)
  await toolMajor('pg_restore', opts.env, opts.pgBin)
  const { rows } = await db.query<{ v: string }>(SERVER_VERSION_NUM)
  checkDumpVersion(dumpMajor, Number(rows[0].v))

  await mkdir(opts.dir, { recursive: true })
  const name = dumpFileName(opts.now ?? new Date())
  const file = path.join(opts.dir, name)
  const partial = `${file}.partial`
  const { url, env } = connectionFor(opts.url, opts.env)
  try {
    await run(toolPath('pg_dump', opts.pgBin), ['--format=custom', `--file=${partial}`, `--dbname=${url}`], {
      env,
      signal: opts.signal,
      maxBuffer: 16 * 1024 * 1024,
    })
    const listed = await run(toolPath('pg_restore', opts.pgBin), ['--list', partial], { env: opts.env, maxBuffer: 256 * 1024 * 1024, signal: opts.signal })
    const entries = listed.stdout.split('\n').filter((l) => l.trim() !== '' && !l.startsWith(';')).length
    if (entries === 0) throw new Error(`pg_restore --list found nothing in ${partial}`)
    await rename(partial, file)
    const { size } = await stat(file)
    return { file, bytes: size, entries, removed: await keepNewest(opts.dir, opts.keep) }
  } catch (err) {
    await rm(partial, { force: true })
    const stderr = (err as { stderr?: string }).stderr
    throw stderr ? new Error(`${(err as Error).message.split('\n')[0]}: ${stderr.trim().slice(0, 1000)}`) : err
  }
}

/** Delete all but the newest `keep` dumps (names sort by time). */
export async function keepNewest(dir: string, keep: number): Promise<string[]> {
  const dumps = (await readdir(dir)).filter((f) => DUMP_NAME.test(f)).sort()
  const doomed = dumps.slice(0, Math.max(0, dumps.length - Math.max(1, keep)))
  for (const f of doomed) await rm(path.join(dir, f), { force: true })
  return doomed
}

function connectionFor(raw: string, base: Environment): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(raw)
  const env = { ...base }
  if (u.password) {
    env.PGPASSWORD = decodeURIComponent(u.password)
    u.password = ''
  }
  return { url: u.toString(), env }
}
