/**
 * (r) Model-written profiles: PROFILE_COUNT entities of one set with a claim each and a dirty
 * profile, rebuilt by the profile pass against a local chat stand-in that answers after
 * BENCH_GRAPH_MODEL_MS (50 ms), once with one request in flight and once with AIZK_REPORT_CONCURRENCY's
 * default (4); batches of AIZK_REPORT_BATCH (20) each commit before the next is taken. The
 * figure is the ratio within the run and what a 37,822-entity set would take at each rate.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type pg from 'pg'
import { refreshDirtyProfiles } from '../src/graph/maintain/profiles.js'
import { User } from '../src/scope/user.js'
import { parseSettings } from '../src/settings.js'
import { fmt, type Row } from './graph-rows.js'

async function slowChat(ms: number): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () =>
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: '{"summary": "A summary."}' } }] }))
      }, ms),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}

export async function benchModelProfiles(pool: pg.Pool, set: string[], count: number, modelMs: number): Promise<Row[]> {
  const scopes = [...set.slice(0, -1), set.at(-1)?.replace(/b$/, 'f') as string]
  await pool.query(
    `WITH e AS (
       INSERT INTO entity (scopes, name, normalized_name, kind)
       SELECT $1::uuid[], 'Entity ' || i, 'entity ' || i, 'concept' FROM generate_series(1, $2::int) i RETURNING id)
     INSERT INTO claim (scopes, subject_id, predicate, object_text, object_key) SELECT $1::uuid[], id, 'appear in', 'the corpus', 'text:the corpus' FROM e`,
    [scopes, count],
  )
  await pool.query('INSERT INTO profile (entity_id, scopes, dirty) SELECT id, scopes, true FROM entity WHERE scopes = $1::uuid[]', [scopes])
  const chat = await slowChat(modelMs)
  const rows: Row[] = []
  const seconds: number[] = []
  try {
    for (const concurrency of [1, 4]) {
      await pool.query('UPDATE profile SET dirty = true WHERE scopes = $1::uuid[]', [scopes])
      const settings = parseSettings({ AIZK_LLM_URL: chat.url, AIZK_REPORT_CONCURRENCY: String(concurrency) })
      const t0 = performance.now()
      const rebuilt = await refreshDirtyProfiles(pool, User.system(scopes, settings), settings)
      const s = (performance.now() - t0) / 1000
      seconds.push(s)
      rows.push({
        section: 'r',
        what: `model-written profiles of ${fmt(count)} entities, ${concurrency} request(s) in flight, ${modelMs} ms an answer`,
        value: `${fmt(s, 1)} s`,
        note: `${fmt(rebuilt / s)} profiles/s; a 37,822-entity set: ${fmt((37_822 * s) / rebuilt / 60, 1)} min in batches of ${settings.reportBatch}, each committed`,
      })
    }
  } finally {
    chat.close()
  }
  rows.push({ section: 'r', what: 'four requests in flight against one', value: `${fmt(seconds[0] / seconds[1], 2)}x`, note: 'same run' })
  return rows
}
