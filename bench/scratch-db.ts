/** A scratch database for one benchmark run on AIZK_BENCH_URL, with aizk's schema installed. */
import pg from 'pg'
import { migrate } from '../src/db/migrate.js'

export interface ScratchDb {
  url: string
  drop(): Promise<void>
}

export async function createScratchDb(name: string): Promise<ScratchDb> {
  const server = process.env.AIZK_BENCH_URL ?? process.env.AIZK_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: server })
    await c.connect()
    try {
      await c.query(sql)
    } finally {
      await c.end()
    }
  }
  const u = new URL(server)
  u.pathname = `/${name}`
  await admin(`drop database if exists ${name} with (force)`)
  await admin(`create database ${name}`)
  const client = new pg.Client({ connectionString: u.toString() })
  await client.connect()
  await migrate(client, { appRole: 'aizk_app' })
  await client.end()
  return { url: u.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) }
}
