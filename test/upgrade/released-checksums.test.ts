/**
 * A comment fixed in a migration changes none of its statements (docs/schema.md#checksums), yet
 * the previous release recorded each migration's checksum over its bytes. Every checksum that
 * release's own code records must still be accepted by this build, or a database it installed
 * stops every command of this build with "an applied migration must not change".
 */
import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, it } from 'node:test'
import { pathToFileURL } from 'node:url'
import { loadMigrations } from '../../src/db/migrations.js'
import { previousRelease } from '../support/previous-release.js'

const release = previousRelease()
const appRole = 'aizk_app'

describe('checksums the previous release recorded', () => {
  it('are each accepted by this build for the same migration', { skip: 'skip' in release ? release.skip : false }, async () => {
    if ('skip' in release) return
    const theirs = (await import(pathToFileURL(path.join(release.root, 'dist', 'db', 'migrations.js')).href)) as {
      loadMigrations(opts: { appRole: string }): { name: string; checksum: string }[]
    }
    const ours = new Map(loadMigrations({ appRole }).map((m) => [m.name, m.acceptedChecksums]))
    const refused = theirs
      .loadMigrations({ appRole })
      .filter((m) => !ours.get(m.name)?.includes(m.checksum))
      .map((m) => `${m.name}: ${m.checksum} (add it to RELEASED_RAW_CHECKSUMS in src/db/migrations.ts)`)
    assert.deepEqual(refused, [])
  })
})
