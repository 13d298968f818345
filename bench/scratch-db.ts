/** The one way a benchmark makes its scratch database: on benchServer(), aizk's schema installed, dropped after (kept with BENCH_KEEP=1). */
import pg from 'pg'
import { migrate } from '../src/db/migrate.js'
import { benchAppRole, benchServer, flag } from './knobs.js'

export interface ScratchDb {
  name: string
  url: string
  drop(): Promise<void>
}

/** One statement on the server's maintenance database. */
export async function adminQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: benchServer() })
  await c.connect()
  try {
    await c.query(sql)
  } finally {
    await c.end()
  }
}

export function databaseUrl(name: string): string {
  const u = new URL(benchServer())
  u.pathname = `/${name}`
  return u.toString()
}

export async function createScratchDb(name: string): Promise<ScratchDb> {
  await adminQuery(`drop database if exists ${name} with (force)`)
  await adminQuery(`create database ${name}`)
  const url = databaseUrl(name)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await migrate(client, { appRole: benchAppRole() })
  } finally {
    await client.end()
  }
  return {
    name,
    url,
    drop: async () => {
      if (flag('BENCH_KEEP')) process.stderr.write(`bench: kept ${url}\n`)
      else await adminQuery(`drop database if exists ${name} with (force)`)
    },
  }
}
