/** Lays out PgQueuer 1.3.2's own schema (test/fixtures/pgqueuer-1.3.sql, a pg_dump of what its
 * install() creates) in a database. The dump resets search_path for its session, so it runs on
 * a connection of its own, never on a pooled one. */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { repoRoot } from './cli.js'

export async function loadPgQueuerSchema(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(readFileSync(path.join(repoRoot, 'test', 'fixtures', 'pgqueuer-1.3.sql'), 'utf8'))
  } finally {
    await client.end()
  }
}
