/**
 * The chat-model extractor's requests against a slow local stand-in: projections of several
 * chunks call the model side by side, never more than AIZK_LLM_CONCURRENCY at once; no session of
 * the database sits idle in a transaction while the model thinks; the set's known entity names
 * travel with the chunk.
 */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { LlmExtractor } from '../../src/graph/extract/llm-extractor.js'
import { projectChunk } from '../../src/graph/project/project-chunk.js'
import { A, fileAppLogin } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { corpusText } from '../support/graph/corpus.js'
import { chatBody } from '../support/graph/fake-llm.js'
import { addDocument, graphSettings } from '../support/graph/graph.js'
import { type FakeServer, startFakeServer } from '../support/inventory/fake-services.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
let llm: FakeServer

const ANSWER_MS = 1500
/** Idle longer than this in a transaction counts as held across a model call: well under ANSWER_MS, well over a gap between round trips on a loaded machine. */
const HELD_MS = 1000
let inFlight = 0
let mostInFlight = 0

const answer = JSON.stringify({
  entities: [{ name: 'Guido van Rossum', kind: 'person', description: "Python's creator." }],
  claims: [{ subject: 'Guido van Rossum', predicate: 'create', object: 'Python', objectIsEntity: true, description: 'Guido created Python.', strength: 9 }],
})

before(async () => {
  llm = await startFakeServer(async () => {
    inFlight++
    mostInFlight = Math.max(mostInFlight, inFlight)
    await sleep(ANSWER_MS)
    inFlight--
    return { status: 200, body: chatBody(answer) }
  })
})
db.beforeDrop(async () => {
  await llm.close()
})

describe('LLM extraction, concurrency and transactions', () => {
  it('runs at most AIZK_LLM_CONCURRENCY requests at once, with no transaction open across a model call', async () => {
    const settings = graphSettings({ AIZK_LLM_URL: llm.url, AIZK_LLM_MODEL: 'test-model', AIZK_LLM_CONCURRENCY: '2' })
    const extractor = new LlmExtractor(settings)
    const text = corpusText('whatsnew/2.0.rst.txt')
    const chunks = await addDocument(app.scoped, [A], 'python 2.0', [0, 1, 2, 3, 4].map((n) => text.slice(n * 1500, n * 1500 + 1400)).join('\n\n'))
    assert.ok(chunks.length >= 3, `the document made ${chunks.length} chunks`)

    const idle: string[] = []
    let polledDuringCall = 0
    let projecting = true
    const watch = (async () => {
      while (projecting) {
        const { rows } = await db.pool.query<{ state: string; query: string }>(
          "SELECT state, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%' AND clock_timestamp() - state_change > make_interval(secs => $1::float8 / 1000)",
          [HELD_MS],
        )
        // A short transaction is idle for milliseconds between its round trips (hundreds when two
        // test suites share two cores); one held across a model call would stay idle for the
        // whole answer (ANSWER_MS).
        if (inFlight > 0) polledDuringCall++
        idle.push(...rows.map((r) => `${r.state}: ${r.query.slice(0, 120)}`))
        await sleep(50)
      }
    })()
    const outcomes = await Promise.all(chunks.map((chunkId) => projectChunk(app.scoped, settings, { chunkId, scopes: [A] }, extractor)))
    projecting = false
    await watch

    assert.ok(outcomes.every((o) => o.outcome === 'projected'))
    assert.equal(mostInFlight, 2, 'two requests side by side, never more')
    assert.ok(polledDuringCall >= 5, `pg_stat_activity was read ${polledDuringCall} times while a model call was open`)
    assert.deepEqual(idle, [], 'no session idle in a transaction while the model answers')
  })

  it("sends the set's known entity names before the chunk's text", async () => {
    const settings = graphSettings({ AIZK_LLM_URL: llm.url, AIZK_LLM_MODEL: 'test-model' })
    const [chunk] = await addDocument(app.scoped, [A], 'python 2.1', corpusText('whatsnew/2.1.rst.txt').slice(0, 1200))
    const before = llm.seen.length
    await projectChunk(app.scoped, settings, { chunkId: chunk, scopes: [A] }, new LlmExtractor(settings))
    const request = JSON.parse(llm.seen[before].body.toString()) as { messages: { role: string; content: string }[] }
    const known = request.messages.find((m) => m.content.startsWith('Known entity names:'))
    assert.ok(known, 'a message lists the known names')
    assert.match(known.content, /"Guido van Rossum"/)
    assert.equal(request.messages.at(-1)?.content, corpusText('whatsnew/2.1.rst.txt').slice(0, 1200), 'the chunk is the last message')
    assert.match(request.messages[0].content, /description/)
    assert.match(request.messages[0].content, /strength/)
  })
})
