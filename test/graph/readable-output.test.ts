/**
 * Readable output with a chat model configured (a local stand-in over HTTP), run through the
 * jobs' handles as the app role: profile summaries and community reports are written in
 * batches of AIZK_REPORT_BATCH with at most AIZK_REPORT_CONCURRENCY requests in flight, no
 * transaction is open while the model answers, and a failure midway keeps every batch stored
 * (and, for communities, the rebuild itself).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Extraction } from '../../src/graph/extract/extraction.js'
import { CommunitiesJob, ProfileProjectionJob } from '../../src/jobs/inventory/index.js'
import { B, C, fileAppLogin } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { chatBody } from '../support/graph/fake-llm.js'
import { addDocument, asSet, graphSettings, projectExtraction } from '../support/graph/graph.js'
import { type FakeServer, startFakeServer } from '../support/inventory/fake-services.js'
import { runScoped } from '../support/inventory/run-jobs.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
let llm: FakeServer | undefined

db.beforeDrop(async () => {
  await llm?.close()
})

const people = ['Ian Murdock', 'Bruce Perens', 'Ian Jackson', 'Wichert Akkerman', 'Ben Collins', 'Bdale Garbee']
const leaders: Extraction = {
  entities: [...people.map((name) => ({ name, kind: 'person' })), { name: 'Debian', kind: 'product' }, { name: 'Debian Project Leader', kind: 'concept' }],
  claims: people.flatMap((p, i) => [
    { subject: p, predicate: 'be', object: 'Debian Project Leader', objectIsEntity: true },
    { subject: p, predicate: 'work on', object: 'Debian', objectIsEntity: true },
    ...(i > 0 ? [{ subject: p, predicate: 'follow', object: people[i - 1], objectIsEntity: true }] : []),
  ]),
}

interface Watch {
  inFlight: number
  maxInFlight: number
  /** Most transactions seen open on the database while a request was being answered. */
  openTransactions: number
  requests: number
}

/** A chat stand-in that answers `answer(prompt, n)` after 40 ms, counting what is in flight and the transactions open meanwhile. */
async function watchedLlm(answer: (prompt: string, n: number) => string | null): Promise<Watch> {
  await llm?.close()
  const watch: Watch = { inFlight: 0, maxInFlight: 0, openTransactions: 0, requests: 0 }
  llm = await startFakeServer(async (req) => {
    const n = ++watch.requests
    watch.maxInFlight = Math.max(watch.maxInFlight, ++watch.inFlight)
    try {
      const { rows } = await db.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND usename <> current_user AND state IN ('idle in transaction', 'active') AND xact_start IS NOT NULL AND pid <> pg_backend_pid()",
      )
      watch.openTransactions = Math.max(watch.openTransactions, rows[0].n)
      await new Promise((r) => setTimeout(r, 40))
      const request = JSON.parse(req.body.toString()) as { messages: { content: string }[] }
      const content = answer(request.messages.at(-1)?.content ?? '', n)
      return content === null ? { status: 503, body: { error: { message: 'overloaded' } } } : { status: 200, body: chatBody(content) }
    } finally {
      watch.inFlight--
    }
  })
  return watch
}

const modelSettings = (url: string) =>
  graphSettings({
    AIZK_LLM_URL: url,
    AIZK_LLM_MODEL: 'test-model',
    AIZK_LLM_MAX_ATTEMPTS: '1',
    AIZK_REPORT_BATCH: '3',
    AIZK_REPORT_CONCURRENCY: '2',
    AIZK_COMMUNITIES_GROWTH_THRESHOLD: '0',
  })

const profiles = () =>
  asSet(
    app.scoped,
    [B],
    async (q) =>
      (
        await q.query<{ name: string; summary: string | null; dirty: boolean }>(
          'SELECT e.name, p.summary, p.dirty FROM profile p JOIN entity e ON e.id = p.entity_id ORDER BY e.name',
        )
      ).rows,
  )

describe('readable output with a model', () => {
  it('profiles: batches of 3, two requests at a time, no transaction open during a request; a failure keeps the batches stored', async () => {
    const [chunk] = await addDocument(
      app.scoped,
      [B],
      'leaders',
      'Debian Project Leaders: Ian Murdock, Bruce Perens, Ian Jackson, Wichert Akkerman, Ben Collins, Bdale Garbee.',
    )
    await projectExtraction(app.scoped, [B], chunk, leaders)
    let watch = await watchedLlm((prompt) => JSON.stringify({ summary: `Model: ${prompt.split('\n')[0]}` }))
    await runScoped(ProfileProjectionJob, app.scoped, modelSettings((llm as FakeServer).url), [B])
    const first = await profiles()
    assert.equal(first.length, 8)
    assert.ok(
      first.every((p) => !p.dirty && p.summary?.startsWith('Model: ')),
      JSON.stringify(first),
    )
    assert.equal(watch.requests, 8)
    assert.equal(watch.maxInFlight, 2, 'AIZK_REPORT_CONCURRENCY bounds the requests in flight')
    assert.equal(watch.openTransactions, 0, 'no transaction is open while the model answers')

    await asSet(app.scoped, [B], (q) => q.query('UPDATE profile SET dirty = true'))
    // The fourth request fails: the first batch (three profiles) is stored, the second is not.
    watch = await watchedLlm((prompt, n) => (n >= 4 ? null : JSON.stringify({ summary: `Again: ${prompt.split('\n')[0]}` })))
    await assert.rejects(runScoped(ProfileProjectionJob, app.scoped, modelSettings((llm as FakeServer).url), [B]), /answered 503/)
    const second = await profiles()
    assert.equal(second.filter((p) => p.summary?.startsWith('Again: ')).length, 3, 'the batch stored before the failure stays')
    assert.equal(second.filter((p) => p.dirty).length, 2, 'profiles never taken stay dirty for the next pass')
  })

  it('community reports: written after the rebuild commits, in bounded batches, with title, summary and findings', async () => {
    const watch = await watchedLlm((prompt) =>
      prompt.startsWith('Members:')
        ? JSON.stringify({
            title: 'Debian leadership',
            summary: 'The project leaders of Debian.',
            findings: [{ summary: 'Leaders follow one another', explanation: 'Each leader follows the one before.' }],
          })
        : JSON.stringify({ summary: 'a profile' }),
    )
    await runScoped(CommunitiesJob, app.scoped, modelSettings((llm as FakeServer).url), [B])
    const communities = await asSet(
      app.scoped,
      [B],
      async (q) =>
        (await q.query<{ title: string; findings: unknown[]; reported: boolean }>('SELECT title, findings, reported_at IS NOT NULL AS reported FROM community'))
          .rows,
    )
    assert.ok(communities.length >= 1, 'the rebuild made communities')
    assert.ok(
      communities.every((c) => c.reported && c.title === 'Debian leadership' && c.findings.length === 1),
      JSON.stringify(communities),
    )
    assert.equal(watch.openTransactions, 0, 'no transaction is open while the model answers')
    assert.ok(watch.maxInFlight <= 2)
  })

  it('a model that fails keeps the rebuild with its extractive summaries', async () => {
    const [chunk] = await addDocument(
      app.scoped,
      [C],
      'leaders',
      'Debian Project Leaders: Ian Murdock, Bruce Perens, Ian Jackson, Wichert Akkerman, Ben Collins, Bdale Garbee.',
    )
    await projectExtraction(app.scoped, [C], chunk, leaders)
    await watchedLlm(() => null)
    await assert.rejects(runScoped(CommunitiesJob, app.scoped, modelSettings((llm as FakeServer).url), [C]), /answered 503/)
    const communities = await asSet(
      app.scoped,
      [C],
      async (q) => (await q.query<{ summary: string; reported: boolean }>('SELECT summary, reported_at IS NOT NULL AS reported FROM community')).rows,
    )
    assert.ok(communities.length >= 1)
    // Sentences with conjugated verbs, never raw triples ("Bruce Perens follow Ian Murdock"); a
    // relation several subjects share is stated once, in the plural ("A and B work on Debian").
    const singular = (summary: string) => summary.split(/(?<=\.) /).filter((s) => !/ and /.test(s.split(/ (are|work on|follow) /)[0]))
    assert.ok(
      communities.every(
        (c) => !c.reported && /^\d+ entities around .+\. [A-Z].+\.$/.test(c.summary) && !singular(c.summary).some((s) => / (be|follow|work on) /.test(s)),
      ),
      JSON.stringify(communities),
    )
    assert.ok(
      communities.some((c) => / and [A-Z][a-z]+ [A-Z][a-z]+ work on Debian\./.test(c.summary)),
      JSON.stringify(communities),
    )
    assert.ok(
      communities.some((c) => c.summary.includes('Bruce Perens follows Ian Murdock.')),
      JSON.stringify(communities),
    )
  })
})
