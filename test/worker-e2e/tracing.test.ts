/**
 * OpenTelemetry traces across processes: an application (its own SDK) enqueues inside its
 * request span; a spawned `aizk worker` with OTEL_EXPORTER_OTLP_ENDPOINT set picks and runs the
 * job. Both export to a local OTLP/HTTP receiver, which decodes the real requests; the test walks
 * the tree: request -> send -> receive -> process -> (handler span, settle), per attempt. Cron
 * ticks start traces of their own, and so does each job a tick fans out, linked to the tick.
 * Without an SDK, enqueue writes no trace context at all.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import path from 'node:path'
import { afterEach, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { enqueue } from '../../src/queue/enqueue.js'
import { cleanEnv, repoRoot, runCli } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js'
import { waitFor } from '../support/wait-for.js'
import { FIXTURE_JOBS, spawnWorker, type WorkerProcess, workerEnv } from '../support/worker-process.js'

const run = promisify(execFile)
const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 }
const TRACING_JOBS = './test/fixtures/tracing-jobs.mjs'

const db = await fileDatabase()
let receiver: OtlpReceiver
const workers: WorkerProcess[] = []

before(async () => {
  receiver = await startOtlpReceiver()
})
afterEach(async () => {
  for (const w of workers.splice(0)) await w.kill()
})
db.beforeDrop(async () => {
  await receiver.close()
})

function otelEnv(): Record<string, string> {
  return { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' }
}

function startWorker(extra: Record<string, string> = {}): WorkerProcess {
  const w = spawnWorker(
    workerEnv(db.url, {
      AIZK_WORKER_JOB_MODULES: `${FIXTURE_JOBS},${TRACING_JOBS}`,
      AIZK_RETRY_BASE_SECONDS: '0.05',
      AIZK_RETRY_MAX_SECONDS: '0.1',
      ...otelEnv(),
      ...extra,
    }),
  )
  workers.push(w)
  return w
}

async function enqueueFromApp(entrypoint: string, payload: object): Promise<{ id: string; traceId: string; spanId: string }> {
  const { stdout } = await run(process.execPath, [path.join(repoRoot, 'test/fixtures/traced-enqueue.mjs'), entrypoint, JSON.stringify(payload)], {
    cwd: repoRoot,
    env: cleanEnv({ AIZK_DATABASE_URL: db.url, ...otelEnv() }),
  })
  return JSON.parse(stdout)
}

const spansOf = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId)
const childrenOf = (parent: ReceivedSpan, name: string) =>
  receiver.spans.filter((s) => s.parentSpanId === parent.spanId && s.traceId === parent.traceId && s.name === name)

function one(spans: ReceivedSpan[], what: string): ReceivedSpan {
  assert.equal(spans.length, 1, `exactly one ${what}; spans seen: ${receiver.spans.map((s) => `${s.service}:${s.name}`).join(', ')}`)
  return spans[0]
}

function assertMessaging(span: ReceivedSpan, operation: string, entrypoint: string, id: string): void {
  assert.equal(span.attributes['messaging.system'], 'pgqueuer', `${span.name}: messaging.system`)
  assert.equal(span.attributes['messaging.operation.type'], operation, `${span.name}: messaging.operation.type`)
  assert.equal(span.attributes['messaging.destination.name'], entrypoint, `${span.name}: messaging.destination.name`)
  assert.equal(span.attributes['messaging.message.id'], id, `${span.name}: messaging.message.id`)
}

describe('traces from an enqueue in one process to the run in a worker process', () => {
  it('chains request -> send -> receive -> process -> settle, once per attempt, across two processes', async () => {
    assert.deepEqual(receiver.rejected, [])
    startWorker()
    const app = await enqueueFromApp('test_traced', { failFirst: true })
    assert.ok(app.id, 'the job was enqueued')
    const settles = await waitFor(
      'two settle spans of the job (retried, completed)',
      () => {
        const s = spansOf(app.traceId).filter((x) => x.name === 'settle test_traced')
        return s.length === 2 ? s : undefined
      },
      60_000,
    )
    const request = one(
      spansOf(app.traceId).filter((s) => s.spanId === app.spanId),
      'request span',
    )
    assert.equal(request.service, 'traced-app')
    const send = one(childrenOf(request, 'send test_traced'), 'send span under the request')
    assert.equal(send.service, 'traced-app', 'the send span is exported by the enqueuing process')
    assert.equal(send.kind, SPAN_KIND.PRODUCER)
    assertMessaging(send, 'send', 'test_traced', app.id)

    const receives = childrenOf(send, 'receive test_traced')
    assert.equal(receives.length, 2, 'one receive (pick) per attempt, child of the send span')
    const attempts: Record<number, ReceivedSpan> = {}
    for (const receive of receives) {
      assert.equal(receive.service, 'aizk-worker', 'the worker exports its spans under its own service name')
      assert.equal(receive.kind, SPAN_KIND.CLIENT)
      assertMessaging(receive, 'receive', 'test_traced', app.id)
      const proc = one(childrenOf(receive, 'process test_traced'), 'process span under the receive span')
      assert.equal(proc.kind, SPAN_KIND.CONSUMER)
      assertMessaging(proc, 'process', 'test_traced', app.id)
      assert.deepEqual(proc.links, [{ traceId: send.traceId, spanId: send.spanId }], 'the process span links to the creation context')
      one(childrenOf(proc, 'handler work'), "the handler's own span under the process span")
      const settle = one(childrenOf(proc, 'settle test_traced'), 'settle span under the process span')
      assertMessaging(settle, 'settle', 'test_traced', app.id)
      assert.equal(settle.attributes['messaging.pgqueuer.outcome'], proc.attributes['messaging.pgqueuer.outcome'])
      attempts[Number(proc.attributes['messaging.pgqueuer.attempt'])] = proc
    }
    assert.deepEqual(Object.keys(attempts).sort(), ['1', '2'])
    assert.equal(attempts[1].attributes['messaging.pgqueuer.outcome'], 'retried')
    assert.equal(attempts[1].status.code, 2, 'a failed attempt is an ERROR span')
    assert.equal(attempts[1].status.message, 'the first attempt fails')
    assert.equal(attempts[2].attributes['messaging.pgqueuer.outcome'], 'completed')
    assert.notEqual(attempts[2].status.code, 2)
    assert.equal(settles.length, 2)
    assert.deepEqual(receiver.rejected, [])
  })

  it('`aizk enqueue` with OTEL_EXPORTER_OTLP_ENDPOINT starts the trace the worker continues', async () => {
    startWorker()
    const res = await runCli(['enqueue', 'test_noop', '--json'], { env: { AIZK_DATABASE_URL: db.url, AIZK_WORKER_JOB_MODULES: FIXTURE_JOBS, ...otelEnv() } })
    assert.equal(res.code, 0, res.stderr)
    const id = JSON.parse(res.stdout).id as string
    const send = await waitFor('the CLI send span', () =>
      receiver.spans.find((s) => s.name === 'send test_noop' && s.attributes['messaging.message.id'] === id),
    )
    assert.equal(send.service, 'aizk-cli')
    assert.equal(send.parentSpanId, '', 'the CLI send span is the root of its trace')
    const proc = await waitFor('the process span of that job', () => receiver.spans.find((s) => s.name === 'process test_noop' && s.traceId === send.traceId))
    assert.equal(proc.attributes['messaging.pgqueuer.outcome'], 'completed')
  })

  it('a cron tick is a trace of its own, and the job it fans out starts another, linked to the tick', async () => {
    startWorker({ AIZK_WORKER_NO_SCHEDULER: 'false' })
    const tick = await waitFor(
      'a tick span',
      () => receiver.spans.find((s) => s.name.startsWith('tick ') && s.attributes['aizk.schedule.name'] === 'trace_tick'),
      60_000,
    )
    assert.equal(tick.parentSpanId, '', 'the tick is the root of its trace')
    const create = await waitFor('the fan-out job of that tick', () =>
      receiver.spans.find((s) => s.name.startsWith('create ') && s.links.some((l) => l.spanId === tick.spanId)),
    )
    assert.notEqual(create.traceId, tick.traceId, 'the fanned-out job has a trace of its own')
    assert.equal(create.parentSpanId, '')
    assert.equal(create.kind, SPAN_KIND.PRODUCER)
    const entrypoint = create.attributes['messaging.destination.name']
    // The send span ends after the insert, so it may come in a later export than the create spans.
    const send = await waitFor('the send span in the tick', () =>
      receiver.spans.find((s) => s.traceId === tick.traceId && s.parentSpanId === tick.spanId && s.name === `send ${entrypoint}`),
    )
    assert.equal(send.kind, SPAN_KIND.PRODUCER)
    const proc = await waitFor('the run of the fanned-out job', () =>
      receiver.spans.find((s) => s.traceId === create.traceId && s.name === `process ${entrypoint}`),
    )
    const receive = one(
      receiver.spans.filter((s) => s.spanId === proc.parentSpanId),
      'receive span of the fanned-out job',
    )
    assert.equal(receive.parentSpanId, create.spanId)
  })

  it('without an SDK, enqueue writes no trace context into the headers', async () => {
    const id = await enqueue(db.pool, { entrypoint: 'test_noop', payload: {} })
    const { rows } = await db.pool.query<{ headers: unknown }>('select headers from pgqueuer where id = $1', [id])
    assert.equal(rows[0].headers, null)
  })
})
