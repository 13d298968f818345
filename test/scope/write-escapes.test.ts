/**
 * Writes the app login must not be able to make past its own scope set: dropping another
 * tenant's queued jobs, naming another tenant's content to read its bytes, queue rows of its own
 * making (a foreign pass key parked forever, another set's scopes in a payload, log rows, count
 * deltas), and rows that name another tenant's rows by id (foreign keys bypass row security).
 * Tenant A is the attacker throughout; B is the victim, whose rows the owner checks afterwards.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { before, describe, it } from 'node:test'
import type pg from 'pg'
import { writeDocument } from '../../src/graph/project/write-memory.js'
import { ingestOriginal } from '../../src/ingest/ingest.js'
import { CHUNK_PROJECTION_ENTRYPOINT } from '../../src/ingest/projection.js'
import { readCounts } from '../../src/queue/counts.js'
import { enqueue } from '../../src/queue/enqueue.js'
import { dropQueuedJobs } from '../../src/queue/remove-jobs.js'
import { User } from '../../src/scope/user.js'
import { parseSettings } from '../../src/settings.js'
import { A, B, fileAppLogin, identity } from '../support/app-login.js'
import { fileDatabase } from '../support/db.js'

const db = await fileDatabase()
const app = await fileAppLogin(db)
const settings = { ...parseSettings({}), ...identity }
const chunking = { chunkMaxChars: 400, chunkOverlapChars: 0 }
const as = (scopes: string[]) => User.system(scopes, identity)
const secret = Buffer.from('# B only\n\nthe salaries of tenant B.\n')
const secretId = createHash('sha256').update(secret).digest('hex')
let bChunk: string

const queued = async (entrypoint: string, key: string) =>
  (await db.pool.query(`select count(*)::int as n from pgqueuer where entrypoint = $1 and dedupe_key = $2 and status = 'queued'`, [entrypoint, key])).rows[0].n

before(async () => {
  await ingestOriginal(app.scoped, settings, { scopes: [B], bytes: secret, filename: 'b.md', mediaType: 'text/markdown' })
  await as([B]).transaction(app.scoped, (c) => writeDocument(c, [B], { title: 'B notes', body: 'Tenant B keeps its notes here.' }, chunking))
  bChunk = (await db.pool.query(`select id::text from chunk where scopes = $1::uuid[] limit 1`, [[B]])).rows[0].id
  // B's scheduled pass, enqueued by the scheduler as the owner.
  await enqueue(db.pool, { entrypoint: 'aizk_task_communities', priority: 10, dedupeKey: `communities:${B}`, payload: { scopes: [B] } })
})

describe("aizk_drop_queued_jobs drops only the caller's own set's queued jobs", () => {
  it("A cannot drop B's queued pass nor B's conversion job; A drops its own projection", async () => {
    const pass = await as([A]).transaction(app.scoped, (c) =>
      c.query(`select aizk_drop_queued_jobs('aizk_task_communities', $1::text[]) as n`, [[`communities:${B}`]]).catch((e: Error) => e),
    )
    assert.match(String(pass), /not one scoped work may enqueue/)
    const conversion = await as([A]).transaction(app.scoped, (c) => dropQueuedJobs(c, 'aizk_convert_artifact', [secretId]))
    assert.equal(conversion, 0)
    const projection = await as([A]).transaction(app.scoped, (c) => dropQueuedJobs(c, CHUNK_PROJECTION_ENTRYPOINT, [bChunk]))
    assert.equal(projection, 0)
    assert.equal(await queued('aizk_task_communities', `communities:${B}`), 1)
    assert.equal(await queued('aizk_convert_artifact', secretId), 1)
    assert.equal(await queued(CHUNK_PROJECTION_ENTRYPOINT, bChunk), 1)

    const own = await as([A]).transaction(app.scoped, async (c) => {
      await writeDocument(c, [A], { title: 'A notes', body: 'Tenant A writes this.' }, chunking)
      const chunk = (await c.query(`select id::text from chunk where scopes = $1::uuid[] limit 1`, [[A]])).rows[0].id
      return dropQueuedJobs(c, CHUNK_PROJECTION_ENTRYPOINT, [chunk])
    })
    assert.equal(own, 1)
  })

  it('a forged aizk.own_counts does not hide the drop from the live counts', async () => {
    const projectionCounts = async () => {
      const live = (await readCounts(db.pool)).filter((c) => c.entrypoint === CHUNK_PROJECTION_ENTRYPOINT && c.status === 'queued').reduce((n, c) => n + c.n, 0)
      const table = await db.pool.query<{ n: number }>(`select count(*)::int as n from pgqueuer where entrypoint = $1 and status = 'queued'`, [
        CHUNK_PROJECTION_ENTRYPOINT,
      ])
      return { live, table: table.rows[0].n }
    }
    const dropped = await as([A]).transaction(app.scoped, async (c) => {
      await writeDocument(c, [A], { title: 'A forged', body: 'Tenant A tries to drop a job uncounted.' }, chunking)
      const chunk = (await c.query(`select id::text from chunk where scopes = $1::uuid[] order by created desc limit 1`, [[A]])).rows[0].id
      await c.query(`select set_config('aizk.own_counts', 'on', true)`)
      return dropQueuedJobs(c, CHUNK_PROJECTION_ENTRYPOINT, [chunk])
    })
    assert.equal(dropped, 1)
    const { live, table } = await projectionCounts()
    assert.equal(live, table)
  })
})

describe('content is read only by a tenant that holds its bytes', () => {
  it("an artifact naming B's content id is refused, and A reads none of B's bytes", async () => {
    const named = await as([A])
      .transaction(app.scoped, (c) => c.query(`insert into artifact (scopes, content_id) values ($1::uuid[], $2)`, [[A], secretId]))
      .catch((e: Error) => e)
    assert.match(String(named), /did not store/)
    const read = await as([A]).transaction(app.scoped, (c) => c.query('select count(*)::int as n from aizk_content where content_id = $1', [secretId]))
    assert.equal(read.rows[0].n, 0)
  })

  it("repointing A's own artifact at B's content id is refused too", async () => {
    const own = await ingestOriginal(app.scoped, settings, { scopes: [A], bytes: Buffer.from('A owns this'), filename: 'a.txt', mediaType: 'text/plain' })
    const moved = await as([A])
      .transaction(app.scoped, (c) => c.query('update artifact set content_id = $1 where id = $2', [secretId, own.artifactId]))
      .catch((e: Error) => e)
    assert.match(String(moved), /did not store/)
    const row = await db.pool.query('select content_id from artifact where id = $1', [own.artifactId])
    assert.equal(row.rows[0].content_id, own.contentId)
  })

  it('a tenant that has the same bytes proves it by storing them, and then names them (they were its own to read)', async () => {
    const result = await ingestOriginal(app.scoped, settings, { scopes: [A], bytes: secret, filename: 'same.md', mediaType: 'text/markdown' })
    assert.equal(result.contentId, secretId)
    const read = await as([A]).transaction(app.scoped, (c) => c.query('select bytes from aizk_content where content_id = $1', [secretId]))
    assert.ok(Buffer.compare(read.rows[0].bytes, secret) === 0)
  })
})

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'

describe('queue rows go in only through aizk_app_enqueue', () => {
  it('no queue, log or count row of the app role’s own making', async () => {
    const attempts = [
      `insert into pgqueuer (priority, entrypoint, payload, status, dedupe_key, execute_after)
       values (10, 'aizk_task_insight', convert_to('{"scopes":["${B}"]}', 'UTF8'), 'queued', 'insight:${B}', 'infinity')`,
      `insert into pgqueuer_log (job_id, status, priority, entrypoint) values (1, 'successful', 0, 'aizk_task_insight')`,
      `insert into aizk_queue_count_delta (entrypoint, priority, status, n) values ('aizk_task_insight', 0, 'queued', 1000000)`,
      `select nextval('pgqueuer_id_seq')`,
    ]
    for (const sql of attempts) {
      await assert.rejects(
        as([A]).transaction(app.scoped, (c) => c.query(sql)),
        /permission denied/,
        sql,
      )
    }
    assert.equal((await db.pool.query(`select count(*)::int as n from pgqueuer where dedupe_key = 'insight:${B}'`)).rows[0].n, 0)
  })

  it('the door refuses other sets, foreign keys, system entrypoints, far-off times, other priorities and headers', async () => {
    const item = (over: Record<string, unknown>) => ({
      entrypoint: 'aizk_task_raptor',
      priority: 10,
      dedupeKey: `raptor:${A}`,
      payload: { scopes: [A] },
      ...over,
    })
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ payload: { scopes: [B] } }, /payload's scopes/],
      [{ dedupeKey: `raptor:${B}` }, /dedupe key/],
      [{ entrypoint: 'aizk_task_insight', dedupeKey: `insight:${B}` }, /not one scoped work may enqueue/],
      [{ entrypoint: 'aizk_task_backup', dedupeKey: 'backup', payload: { scopes: [A] } }, /not one scoped work may enqueue/],
      [{ executeAfter: new Date('9999-01-01T00:00:00Z') }, /more than 7 days ahead/],
      [{ priority: 1000 }, /priority/],
      [{ headers: { aizk: { cycles: 99 } } }, /headers/],
      // Only a well-formed trace context passes (tracing on, every enqueue carries one), and nothing beside it.
      [{ headers: { otel: { traceparent: TRACEPARENT }, aizk: { cycles: 99 } } }, /headers/],
      [{ headers: { otel: { traceparent: TRACEPARENT, aizk: { cycles: 99 } } } }, /headers/],
      [{ headers: { otel: { traceparent: '00-not-a-trace-01' } } }, /headers/],
      [{ headers: { otel: { traceparent: `00-${'0'.repeat(32)}-b7ad6b7169203331-01` } } }, /headers/],
      [{ headers: { otel: { traceparent: TRACEPARENT, tracestate: 'x'.repeat(513) } } }, /headers/],
      [{ entrypoint: CHUNK_PROJECTION_ENTRYPOINT, priority: 50, dedupeKey: bChunk, payload: { chunkId: bChunk, scopes: [A] } }, /not in the write set/],
      [
        {
          entrypoint: 'aizk_convert_artifact',
          priority: 75,
          dedupeKey: secretId,
          payload: { artifactId: '00000000-0000-4000-8000-000000000000', scopes: [A] },
        },
        /content id of an artifact/,
      ],
    ]
    for (const [over, why] of refused) {
      await assert.rejects(
        as([A]).transaction(app.scoped, (c) => enqueue(c, item(over) as never)),
        why,
        JSON.stringify(over),
      )
    }
    // Called directly, with a literal infinity, the same door.
    await assert.rejects(
      as([A]).transaction(app.scoped, (c) =>
        c.query(
          `select * from aizk_app_enqueue('{10}', '{aizk_task_raptor}', array[convert_to('{"scopes":["${A}"]}', 'UTF8')], '{raptor:${A}}', '{infinity}', '{NULL}', false)`,
        ),
      ),
      /execute_after must be a finite time/,
    )
    const id = await as([A]).transaction(app.scoped, (c) => enqueue(c, item({})))
    assert.ok(id)
    const row = await db.pool.query('select entrypoint, priority, dedupe_key, headers from pgqueuer where id = $1', [id])
    assert.deepEqual(row.rows[0], { entrypoint: 'aizk_task_raptor', priority: 10, dedupe_key: `raptor:${A}`, headers: null })
    const otel = { traceparent: TRACEPARENT, tracestate: 'vendor=abc' }
    const traced = await as([A]).transaction(app.scoped, (c) => enqueue(c, item({ dedupeKey: `raptor:${A}:traced`, headers: { otel } })))
    const tracedRow = await db.pool.query('select headers from pgqueuer where id = $1', [traced])
    assert.deepEqual(tracedRow.rows[0].headers, { otel }, 'the trace context is carried')
  })

  it('without a proven write set the door is shut', async () => {
    const err = await as([A]).transaction(app.scoped, async (c) => {
      await c.query(`select set_config('aizk.scope_proof', 'forged', true)`)
      return enqueue(c, { entrypoint: 'aizk_task_raptor', priority: 10, dedupeKey: `raptor:${A}`, payload: { scopes: [A] } }).catch((e: Error) => e)
    })
    assert.match(String(err), /no proven write set/)
  })
})

describe("a scoped write names only rows within the caller's set", () => {
  const noEntities = "'{}', '{}', '{}', '{}', '{}'"
  const noClaims = "'{}', '{}', '{}', '{}', '{}', '{}', '{}'"
  const newEntity = async (c: pg.PoolClient, scopes: string[], name: string) =>
    (await c.query(`insert into entity (scopes, name, normalized_name, kind) values ($1::uuid[], $2, lower($2), 'concept') returning id::text`, [scopes, name]))
      .rows[0].id as string
  const claimAbout = (c: pg.PoolClient, scopes: string[], subject: string, object: string) =>
    c.query(
      `insert into claim (scopes, subject_id, predicate, object_id, object_key) values ($1::uuid[], $2::uuid, 'knows', $3::uuid, 'entity:' || $3::text)`,
      [scopes, subject, object],
    )

  it("aizk_write_projection on B's chunk is refused, and writes no {A} entity or mention pointing at it", async () => {
    const err = await as([A])
      .transaction(app.scoped, (c) =>
        c.query(`select * from aizk_write_projection($1::uuid[], $2::uuid, 30, '{Secret}', '{secret}', '{concept}', '{1}', '{NULL}', ${noClaims})`, [
          [A],
          bChunk,
        ]),
      )
      .catch((e: Error) => e)
    assert.match(String(err), /not in the write set/)
    const wrongSet = await as([A])
      .transaction(app.scoped, (c) => c.query(`select * from aizk_write_projection($1::uuid[], $2::uuid, 30, ${noEntities}, ${noClaims})`, [[B], bChunk]))
      .catch((e: Error) => e)
    assert.match(String(wrongSet), /projection refused/)
    const mentions = await db.pool.query('select count(*)::int as n from mention where chunk_id = $1 and scopes <> $2::uuid[]', [bChunk, [B]])
    assert.equal(mentions.rows[0].n, 0)
    const entities = await db.pool.query(`select count(*)::int as n from entity where scopes = $1::uuid[]`, [[A]])
    assert.equal(entities.rows[0].n, 0)
  })

  it("direct inserts and updates naming B's chunk or entity are refused", async () => {
    const bEntity = await as([B]).transaction(app.scoped, (c) => newEntity(c, [B], 'B thing'))
    const tries: ((c: pg.PoolClient, aEntity: string) => Promise<unknown>)[] = [
      (c, e) => c.query(`insert into mention (entity_id, chunk_id, scopes) values ($1, $2, $3::uuid[])`, [e, bChunk, [A]]),
      (c, e) => claimAbout(c, [A], e, bEntity),
      (c, e) => c.query('update entity set merged_into = $1 where id = $2', [bEntity, e]),
      (c) => c.query(`insert into profile (entity_id, scopes, dirty) values ($1, $2::uuid[], true)`, [bEntity, [A]]),
    ]
    for (const attempt of tries) {
      const err = await as([A]).transaction(app.scoped, async (c) => attempt(c, await newEntity(c, [A], 'A thing')).catch((e: Error) => e))
      assert.match(String(err), /outside the write set/, attempt.toString())
    }
    const leaked = await db.pool.query(`select count(*)::int as n from entity where scopes = $1::uuid[]`, [[A]])
    assert.equal(leaked.rows[0].n, 0)
  })

  it('{A,B} may name an {A} row it can read; {A} may not name an {A,B} row', async () => {
    const narrowEntity = await as([A]).transaction(app.scoped, (c) => newEntity(c, [A], 'A only'))
    const wideEntity = await as([A, B]).transaction(app.scoped, async (c) => {
      const e = await newEntity(c, [A, B], 'AB')
      await claimAbout(c, [A, B], e, narrowEntity)
      return e
    })
    const err = await as([A])
      .transaction(app.scoped, (c) => claimAbout(c, [A], narrowEntity, wideEntity))
      .catch((e: Error) => e)
    assert.match(String(err), /outside the write set/)
  })
})
