/**
 * An acronym's claim through the passes, as the app role: "The Free Software Foundation (FSF)"
 * gives `FSF stand for Free Software Foundation`; dedup folds FSF into the foundation, which keeps
 * FSF as an alias, and the profile does not restate the foundation's name as what it stands for.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readEntity } from '../../src/graph/read/read-entity.js'
import { DedupJob, ProfileProjectionJob } from '../../src/jobs/inventory/index.js'
import { A, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { addDocument, graphSettings, projectAs } from '../support/graph/graph.js'
import { runScoped } from '../support/inventory/run-jobs.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
const settings = graphSettings()

describe('an acronym through dedup and profiles', () => {
  it('folds the acronym into its expansion as an alias; the profile states the facts, not the name restated', async () => {
    const docs = [
      'The Free Software Foundation (FSF) was founded by Richard Stallman in 1985. The FSF publishes the GNU General Public License.',
      'Richard Stallman launched the GNU Project in 1983. The Free Software Foundation (FSF) supports the GNU Project.',
    ]
    for (const [i, body] of docs.entries()) for (const chunk of await addDocument(app.scoped, [A], `doc ${i}`, body)) await projectAs(app.scoped, chunk, [A])
    await runScoped(DedupJob, app.scoped, settings, [A])
    await runScoped(ProfileProjectionJob, app.scoped, settings, [A])

    // Asked by its acronym, the set answers with the foundation: FSF was folded into it.
    const page = await readEntity(app.scoped, [A], 'FSF', identity)
    assert.equal(page.entity.name, 'Free Software Foundation')
    const summary = page.entity.description ?? ''
    assert.match(summary, /Richard Stallman founded Free Software Foundation in 1985\./)
    assert.doesNotMatch(summary, /stands for/, summary)
  })
})
