/**
 * A private primary and its hot standby, on free ports in a scratch folder: the machine's
 * PostgreSQL binaries (the embedded package has no pg_basebackup), initdb, then `pg_basebackup -R`
 * from the running primary. As root both run as the OS user `postgres`, as the embedded server
 * does (src/db/embedded-binaries.ts). Never the shared test server; `stop()` removes everything.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './worker-process.js'

const run = promisify(execFile)

export interface StandbyPair {
  primaryUrl: string
  standbyUrl: string
  stop(): Promise<void>
}

/** The folder of PostgreSQL binaries with pg_basebackup (`AIZK_TEST_PG_BINDIR`, else Debian's newest), or why there is none. */
export async function machineBinDir(): Promise<{ dir?: string; missing?: string }> {
  const named = process.env.AIZK_TEST_PG_BINDIR
  if (named) return existsSync(path.join(named, 'pg_basebackup')) ? { dir: named } : { missing: `AIZK_TEST_PG_BINDIR=${named} has no pg_basebackup` }
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? (await fs.readdir(root)).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : []
  for (const v of versions) if (existsSync(path.join(root, v, 'bin', 'pg_basebackup'))) return { dir: path.join(root, v, 'bin') }
  return { missing: `no PostgreSQL server binaries with pg_basebackup under ${root} (set AIZK_TEST_PG_BINDIR to a bin folder)` }
}

async function osUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined
  const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim())
  return { uid: await id('-u'), gid: await id('-g') }
}

export async function startStandbyPair(binDir: string): Promise<StandbyPair> {
  const owner = await osUser()
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aizk-standby-'))
  await fs.chmod(dir, 0o755)
  if (owner) await fs.chown(dir, owner.uid, owner.gid)
  const bin = (name: string, args: string[]) => run(path.join(binDir, name), args, { ...(owner ?? {}), cwd: '/', env: { ...process.env, LC_ALL: 'C' } })
  const [primaryPort, standbyPort] = [await freePort(), await freePort()]
  const primary = path.join(dir, 'primary')
  const standby = path.join(dir, 'standby')
  const options = (port: number) => `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=16MB`
  const started: string[] = []
  const stop = async () => {
    for (const data of started.reverse()) await bin('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {})
    await fs.rm(dir, { recursive: true, force: true })
  }
  try {
    await bin('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
    await bin('pg_ctl', ['-D', primary, '-l', path.join(dir, 'primary.log'), '-o', options(primaryPort), '-w', 'start'])
    started.push(primary)
    await bin('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standby, '-R', '-X', 'stream', '--no-sync'])
    await bin('pg_ctl', ['-D', standby, '-l', path.join(dir, 'standby.log'), '-o', options(standbyPort), '-w', 'start'])
    started.push(standby)
  } catch (err) {
    await stop()
    throw err
  }
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    standbyUrl: `postgres://postgres@127.0.0.1:${standbyPort}/postgres`,
    stop,
  }
}
