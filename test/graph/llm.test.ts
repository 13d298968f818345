/**
 * The chat-model extractor over real HTTP against a local OpenAI-compatible stand-in: a valid
 * answer is written; a malformed one is asked again with what was wrong; one that stays
 * malformed is held (a permanent error carrying the model's text) with nothing written; a 5xx is
 * an ordinary error the queue retries; profile summaries come from the model when configured.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { LlmExtractor, MalformedAnswerError } from '../../src/graph/extract/llm-extractor.js'
import { refreshDirtyProfiles } from '../../src/graph/maintain/profiles.js'
import { projectChunk } from '../../src/graph/project/project-chunk.js'
import { isPermanentError } from '../../src/permanent-error.js'
import { User } from '../../src/scope/user.js'
import { A, B, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'
import { corpusText } from '../support/graph/corpus.js'
import { startFakeLlm } from '../support/graph/fake-llm.js'
import { addDocument, asSet, countVisible, graphSettings } from '../support/graph/graph.js'
import type { FakeServer } from '../support/inventory/fake-services.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
let llm: FakeServer | undefined

db.beforeDrop(async () => {
  await llm?.close()
})

const good = JSON.stringify({
  entities: [
    { name: 'Guido van Rossum', kind: 'person' },
    { name: 'CNRI', kind: 'organization' },
    { name: 'Python', kind: 'software' },
  ],
  claims: [
    { subject: 'Guido van Rossum', predicate: 'create', object: 'Python', objectIsEntity: true },
    { subject: 'core development team', predicate: 'leave', object: 'CNRI', objectIsEntity: true },
    { subject: 'Python 1.6', predicate: 'contain', object: 'Unicode support', objectIsEntity: false },
  ],
})

async function withLlm(answers: Parameters<typeof startFakeLlm>[0]) {
  await llm?.close()
  llm = await startFakeLlm(answers, { apiKey: 'sk-test' })
  const settings = graphSettings({ AIZK_LLM_URL: llm.url, AIZK_LLM_MODEL: 'test-model', AIZK_LLM_API_KEY: 'sk-test', AIZK_LLM_MAX_ATTEMPTS: '3' })
  return { settings, extractor: new LlmExtractor(settings) }
}

const prose = () => corpusText('whatsnew/2.0.rst.txt').slice(1500, 3400)

describe('LLM extraction', () => {
  it('writes a valid answer: kinds folded onto the vocabulary, the request naming model and key', async () => {
    const { settings, extractor } = await withLlm([`\`\`\`json\n${good}\n\`\`\``])
    const [chunk] = await addDocument(app.scoped, [A], 'python 2.0', prose())
    const out = await projectChunk(app.scoped, settings, { chunkId: chunk, scopes: [A] }, extractor)
    assert.deepEqual(out, { outcome: 'projected', entities: 5, claims: 3, mentions: 5 }, 'claim subjects are entities too')
    const kinds = await asSet(app.scoped, [A], async (q) => (await q.query('SELECT name, kind FROM entity ORDER BY name')).rows)
    assert.deepEqual(kinds, [
      { name: 'CNRI', kind: 'organisation' },
      { name: 'Guido van Rossum', kind: 'person' },
      { name: 'Python', kind: 'product' },
      { name: 'Python 1.6', kind: 'concept' },
      { name: 'core development team', kind: 'concept' },
    ])
    const request = JSON.parse((llm as FakeServer).seen[0].body.toString())
    assert.equal(request.model, 'test-model')
    assert.match(request.messages[1].content, /SourceForge/, 'the chunk text is what the model reads')
  })

  it('asks again after malformed answers, telling the model what was wrong', async () => {
    const { settings, extractor } = await withLlm([
      'Sure! Here are the entities: Guido, CNRI.',
      JSON.stringify({ entities: [{ name: 'x' }], claims: [] }),
      good,
    ])
    const [chunk] = await addDocument(app.scoped, [B], 'python 2.0', prose())
    const out = await projectChunk(app.scoped, settings, { chunkId: chunk, scopes: [B] }, extractor)
    assert.equal(out.outcome, 'projected')
    const seen = (llm as FakeServer).seen.map((r) => JSON.parse(r.body.toString()).messages as { role: string; content: string }[])
    assert.equal(seen.length, 3)
    assert.match(seen[1].at(-1)?.content ?? '', /not JSON/)
    assert.match(seen[2].at(-1)?.content ?? '', /entities\.0\.kind: Required/)
    assert.equal(await countVisible(app.scoped, [B], 'claim'), 3)
  })

  it('holds an answer that stays malformed, with the model text in the error, and writes nothing', async () => {
    const { settings, extractor } = await withLlm(() => '{"entities": "Guido van Rossum", "claims": []}')
    const AB = [A, B]
    const [chunk] = await addDocument(app.scoped, AB, 'python 2.0', prose())
    const err = await projectChunk(app.scoped, settings, { chunkId: chunk, scopes: AB }, extractor).catch((e) => e)
    assert.ok(err instanceof MalformedAnswerError, String(err))
    assert.ok(isPermanentError(err), 'permanent: the worker holds the job at once')
    assert.match(err.message, /malformed 3 time\(s\) \(entities: Expected array, received string\)/)
    assert.match(err.message, /its last answer: \{"entities": "Guido van Rossum", "claims": \[\]\}/)
    assert.equal((llm as FakeServer).seen.length, 3)
    for (const table of ['entity', 'claim', 'mention', 'profile']) assert.equal(await countVisible(app.scoped, AB, table, `scopes = '{${A},${B}}'`), 0)
    assert.equal(await countVisible(app.scoped, AB, 'chunk', `id = '${chunk}' AND projection_status = 'pending'`), 1)
  })

  it('a 5xx is an ordinary error (retried by the queue); a 401 is permanent and names the key', async () => {
    const [chunk] = await addDocument(app.scoped, [A], 'python 2.0', prose())
    let { settings, extractor } = await withLlm([{ status: 503, body: { error: { message: 'overloaded' } } }])
    const busy = await projectChunk(app.scoped, settings, { chunkId: chunk, scopes: [A] }, extractor).catch((e) => e)
    assert.match(busy.message, /answered 503/)
    assert.equal(isPermanentError(busy), false)
    ;({ settings } = await withLlm([good]))
    extractor = new LlmExtractor({ ...settings, llmApiKey: 'wrong' })
    const denied = await projectChunk(app.scoped, settings, { chunkId: chunk, scopes: [A] }, extractor).catch((e) => e)
    assert.ok(isPermanentError(denied))
    assert.match(denied.message, /401[\s\S]*AIZK_LLM_API_KEY/)
  })

  it("writes the model's profile summary when configured, the extractive one when its answer is malformed", async () => {
    const { settings } = await withLlm((prompt) =>
      prompt.startsWith('Guido van Rossum') ? JSON.stringify({ summary: 'Guido van Rossum created Python.' }) : 'not json at all',
    )
    await refreshDirtyProfiles(app.scoped, User.system([A], identity), settings)
    const profiles = await asSet(
      app.scoped,
      [A],
      async (q) =>
        (
          await q.query<{ name: string; summary: string }>(
            'SELECT e.name, p.summary FROM profile p JOIN entity e ON e.id = p.entity_id WHERE NOT p.dirty ORDER BY e.name',
          )
        ).rows,
    )
    assert.equal(profiles.find((p) => p.name === 'Guido van Rossum')?.summary, 'Guido van Rossum created Python.')
    assert.equal(profiles.find((p) => p.name === 'CNRI')?.summary, 'Core development team leaves CNRI. Mentioned once.')
  })
})
