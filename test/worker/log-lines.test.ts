import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { WorkerEvents } from '../../src/events.js'
import { attachJsonLines } from '../../src/worker/log-lines.js'

function emitSome(events: WorkerEvents) {
  events.emit('worker:started', {
    queueManagerId: 'a7c1f0e2-0000-4000-8000-000000000001',
    entrypoints: ['e1'],
    batchSize: 64,
    concurrency: 256,
    localQueueSize: 256,
    pid: 1,
    host: 'h',
  })
  events.emit('batch:picked', { count: 2, byEntrypoint: { e1: 2 }, ms: 1.5 })
  events.emit('job:picked', { jobId: '9007199254740993', entrypoint: 'e1', priority: 50, attempts: 0, waitMs: 3, scopes: ['a', 'b'] })
  events.emit('job:completed', { jobId: '9007199254740993', entrypoint: 'e1', durationMs: 2 })
  events.emit('job:held', { jobId: '2', entrypoint: 'e1', attempts: 5, error: 'Error: boom\n  at x', durationMs: 7 })
  events.emit('schedule:next', { name: 'communities', cronEntrypoint: 'aizk_cron_communities', nextRun: '2026-12-01T00:00:00.000Z' })
}

function collect(jobs: boolean) {
  const events = new WorkerEvents()
  const chunks: string[] = []
  const lines = attachJsonLines(events, { write: (c) => chunks.push(c), jobs, now: () => new Date('2026-11-29T12:00:00.000Z') })
  return { events, lines, text: () => chunks.join('') }
}

describe('JSON log lines', () => {
  it('writes one JSON object per event per line: ts, event, fields; no escape codes', () => {
    const { events, lines, text } = collect(true)
    emitSome(events)
    lines.detach()
    const out = text()
    assert.ok(!out.includes('\u001b'), 'no escape codes')
    assert.ok(out.endsWith('\n'))
    const parsed = out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
    assert.deepEqual(
      parsed.map((p) => p.event),
      ['worker:started', 'batch:picked', 'job:picked', 'job:completed', 'job:held', 'schedule:next'],
    )
    assert.equal(parsed[2].ts, '2026-11-29T12:00:00.000Z')
    assert.equal(parsed[2].jobId, '9007199254740993', 'bigint ids stay exact strings')
    assert.deepEqual(parsed[2].scopes, ['a', 'b'])
    assert.equal(parsed[4].error, 'Error: boom\n  at x', 'a multi-line error stays on one line, escaped')
  })

  it('batches writes per turn of the event loop and flushes on detach', async () => {
    const { events, lines, text } = collect(true)
    emitSome(events)
    assert.equal(text(), '', 'nothing written synchronously')
    await new Promise((r) => setImmediate(r))
    assert.equal(text().trimEnd().split('\n').length, 6)
    lines.detach()
    events.emit('job:picked', { jobId: '3', entrypoint: 'e1', priority: 0, attempts: 0, waitMs: 0 })
    await new Promise((r) => setImmediate(r))
    assert.equal(text().trimEnd().split('\n').length, 6, 'detached: no more lines')
  })

  it('with per-job lines off keeps worker, batch, schedule and held lines and does not want job events', () => {
    const { events, lines, text } = collect(false)
    assert.equal(events.wants('job:picked'), false)
    assert.equal(events.wants('job:completed'), false)
    assert.equal(events.wants('job:held'), true)
    emitSome(events)
    lines.detach()
    const names = text()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).event)
    assert.deepEqual(names, ['worker:started', 'batch:picked', 'job:held', 'schedule:next'])
  })
})
