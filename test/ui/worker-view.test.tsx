import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { afterEach, describe, it } from 'node:test'
import { cleanup, render } from 'ink-testing-library'
import { attachWorkerOutputs } from '../../src/cli/worker-outputs.js'
import { WorkerEvents } from '../../src/events.js'
import { WorkerViewStore } from '../../src/ui/worker/view-store.js'
import { WorkerView } from '../../src/ui/worker/worker-view.js'
import { createWorkerViewService } from '../../src/ui/worker/worker-view-service.js'
import { waitFor } from '../support/wait-for.js'

// A view a failed assertion left mounted keeps drawing (and refreshing) until the file's timeout: unmount every one after each test.
afterEach(cleanup)

const QM = 'a7c1f0e2-1111-4000-8000-000000000001'
const SCOPE = '5f0c2b1e-0000-4000-8000-000000000009'

function setup(limits: Record<string, number> = {}) {
  let now = Date.parse('2026-11-29T12:00:00.000Z')
  const clock = { advance: (ms: number) => (now += ms) }
  const events = new WorkerEvents()
  const store = new WorkerViewStore({ limitOf: (ep) => limits[ep] ?? 0, now: () => now, keepPicks: 4, keepHolds: 2 })
  const detach = store.attach(events)
  return { events, store, clock, detach }
}

describe('worker view', () => {
  it('shows picks, holds, in flight against limits, rates, totals and the next cron fire in its last frame', () => {
    const { events, store, clock, detach } = setup({ aizk_task_communities: 1 })
    events.emit('worker:started', {
      queueManagerId: QM,
      entrypoints: ['aizk_task_communities', 'chunk_project'],
      batchSize: 64,
      concurrency: 256,
      localQueueSize: 0,
      pid: 4242,
      host: 'node-1',
    })
    store.snapshot()
    events.emit('schedule:next', { name: 'communities', cronEntrypoint: 'aizk_cron_communities', nextRun: '2026-11-29T12:05:00.000Z' })
    events.emit('job:picked', { jobId: '101', entrypoint: 'aizk_task_communities', priority: 10, attempts: 4, waitMs: 12, scopes: [SCOPE] })
    for (let i = 0; i < 10; i++) events.emit('job:picked', { jobId: String(200 + i), entrypoint: 'chunk_project', priority: 50, attempts: 0, waitMs: 3 })
    for (let i = 0; i < 9; i++) events.emit('job:completed', { jobId: String(200 + i), entrypoint: 'chunk_project', durationMs: 4 })
    events.emit('job:held', {
      jobId: '101',
      entrypoint: 'aizk_task_communities',
      attempts: 5,
      error: 'RuntimeError: graph build failed\n  at build()',
      scopes: [SCOPE],
      durationMs: 1500,
    })
    events.emit('job:picked', { jobId: '102', entrypoint: 'aizk_task_communities', priority: 10, attempts: 0, waitMs: 1, scopes: [SCOPE] })
    clock.advance(2000)
    const state = store.snapshot()
    detach()
    const { lastFrame, unmount } = render(<WorkerView state={state} />)
    const frame = lastFrame() ?? ''
    unmount()

    assert.match(frame, /aizk worker a7c1f0e2 · node-1 pid 4242 · running · up <1m · db ok/)
    assert.match(frame, /batch 64 · concurrency 256 · in flight 2/)
    assert.match(frame, /aizk_task_communities\s+1\/1\s+2\s+0\s+0\s+1/, 'in flight against the limit, picked, done, retried, held')
    assert.match(frame, /chunk_project\s+1\/∞\s+10\s+9\s+0\s+0/)
    assert.match(frame, /completed 4\.5\/s/, 'rate over the window')
    assert.match(frame, /total picked 12 · completed 9 · retried 0 · held 1/)
    // Latest picks, newest first, with their outcome and duration once finished; only the last 4 kept.
    const picks = frame.slice(frame.indexOf('latest picks'), frame.indexOf('latest holds'))
    assert.equal(picks.match(/#\d+/g)?.length, 4)
    assert.match(picks, /aizk_task_communities\s+#102\s+p10\s+wait 1ms\s+running\s+\{5f0c2b1e\}/)
    assert.match(picks, /chunk_project\s+#209\s+p50\s+wait 3ms\s+running/)
    assert.match(picks, /#208\s+p50\s+wait 3ms\s+completed\s+4ms/)
    // The hold: entrypoint, id, attempts, duration, scopes and the first line of its error.
    assert.match(frame, /latest holds\n.*aizk_task_communities\s+#101\s+attempt 5 after 1\.5s \{5f0c2b1e\}\n\s+RuntimeError: graph build failed\n/)
    assert.match(frame, /next cron fires\n\s+communities\s+in 4m\s+2026-11-29T12:05:00\.000Z/)
  })

  it('shows draining, a lost database and the last worker error', () => {
    const { events, store, clock, detach } = setup()
    events.emit('worker:started', { queueManagerId: QM, entrypoints: [], batchSize: 1, concurrency: 4, localQueueSize: 0, pid: 1, host: 'h' })
    events.emit('db:lost', { error: 'terminating connection due to administrator command' })
    events.emit('worker:error', { where: 'pick', error: 'Connection terminated unexpectedly' })
    clock.advance(3000)
    events.emit('worker:stopping', { reason: 'SIGTERM', inFlight: 0 })
    const { lastFrame, unmount } = render(<WorkerView state={store.snapshot()} />)
    const frame = lastFrame() ?? ''
    unmount()
    detach()
    assert.match(frame, /draining · up <1m · db lost since \d\d:\d\d:\d\d\.\d{3}/)
    assert.match(frame, /last error \(pick, .*\): Connection terminated unexpectedly/)
  })

  it('shows the database as connecting until the worker has it', () => {
    const { events, store, detach } = setup()
    const render1 = render(<WorkerView state={store.snapshot()} />)
    assert.match(render1.lastFrame() ?? '', /db connecting/)
    render1.unmount()
    events.emit('worker:started', { queueManagerId: QM, entrypoints: [], batchSize: 1, concurrency: 4, localQueueSize: 0, pid: 1, host: 'h' })
    const render2 = render(<WorkerView state={store.snapshot()} />)
    assert.match(render2.lastFrame() ?? '', /db ok/)
    render2.unmount()
    detach()
  })

  it('marks paused entrypoints in the table and counts them in the header, until they are resumed', () => {
    const { events, store, detach } = setup()
    events.emit('worker:started', {
      queueManagerId: QM,
      entrypoints: ['chunk_project', 'embed_chunks', 'ocr_pages'],
      batchSize: 8,
      concurrency: 16,
      localQueueSize: 0,
      pid: 7,
      host: 'h',
    })
    const idle = store.drawKey()
    events.emit('entrypoint:paused', { entrypoint: 'embed_chunks', pausedAt: '2026-11-29T12:00:00.000Z', pausedBy: 'ops', reason: 'provider outage' })
    events.emit('entrypoint:paused', { entrypoint: 'ocr_pages', pausedAt: '2026-11-29T12:00:00.000Z', pausedBy: null, reason: null })
    assert.notEqual(store.drawKey(), idle, 'a pause is something shown: the view redraws')
    const frame = (state = store.snapshot()) => {
      const r = render(<WorkerView state={state} />)
      const text = r.lastFrame() ?? ''
      r.unmount()
      return text
    }
    const paused = frame()
    assert.match(paused, /3 entrypoints · 2 paused/)
    assert.match(paused, /embed_chunks\s+0\/∞(\s+0){4} paused\n/)
    assert.match(paused, /ocr_pages\s+0\/∞(\s+0){4} paused\n/)
    assert.doesNotMatch(paused, /chunk_project.*paused/)

    events.emit('entrypoint:resumed', { entrypoint: 'ocr_pages' })
    const one = frame()
    assert.match(one, /3 entrypoints · 1 paused/)
    assert.doesNotMatch(one, /ocr_pages.*paused/)
    assert.match(one, /embed_chunks.* paused/)
    events.emit('entrypoint:resumed', { entrypoint: 'embed_chunks' })
    assert.doesNotMatch(frame(), /paused/)
    detach()
  })

  it('shows a job asked to cancel as canceling, then canceled: out of in flight and counted in the totals', () => {
    const { events, store, detach } = setup({ ep: 2 })
    events.emit('worker:started', { queueManagerId: QM, entrypoints: ['ep'], batchSize: 4, concurrency: 4, localQueueSize: 0, pid: 7, host: 'h' })
    events.emit('job:picked', { jobId: '301', entrypoint: 'ep', priority: 0, attempts: 0, waitMs: 2 })
    events.emit('job:picked', { jobId: '302', entrypoint: 'ep', priority: 0, attempts: 0, waitMs: 2 })
    const running = store.drawKey()
    events.emit('job:cancel-requested', { jobId: '301', entrypoint: 'ep' })
    assert.notEqual(store.drawKey(), running)
    const asked = store.snapshot()
    assert.equal(asked.inFlight, 2, 'asked to cancel, the handler still runs until it returns')
    assert.deepEqual(
      asked.picks.map((p) => [p.jobId, p.outcome]),
      [
        ['302', 'running'],
        ['301', 'canceling'],
      ],
    )
    const r1 = render(<WorkerView state={asked} />)
    assert.match(r1.lastFrame() ?? '', /#301\s+p0\s+wait 2ms\s+canceling/)
    r1.unmount()

    events.emit('job:canceled', { jobId: '301', entrypoint: 'ep', durationMs: 40, ran: true })
    const done = store.snapshot()
    assert.equal(done.inFlight, 1)
    assert.equal(done.totals.canceled, 1)
    assert.equal(done.totals.completed + done.totals.retried + done.totals.held, 0, 'a cancel is not counted as any other outcome')
    const r2 = render(<WorkerView state={done} />)
    const frame = r2.lastFrame() ?? ''
    r2.unmount()
    assert.match(frame, /in flight 1/)
    assert.match(frame, /ep\s+1\/2\s+2\s+0\s+0\s+0/)
    assert.match(frame, /#301\s+p0\s+wait 2ms\s+canceled\s+40ms/)
    assert.match(frame, /#302\s+p0\s+wait 2ms\s+running/)
    assert.match(frame, /held 0 · canceled 1 · released 0/)
    // A job canceled before its handler started (picked, then its cancel arrived first) is counted the same way.
    events.emit('job:canceled', { jobId: '302', entrypoint: 'ep', durationMs: 0, ran: false })
    assert.equal(store.snapshot().totals.canceled, 2)
    assert.equal(store.snapshot().inFlight, 0)
    detach()
  })

  it('an idle worker keeps its draw key: nothing to redraw until an event, a rate or a minute changes', () => {
    const { events, store, clock, detach } = setup()
    events.emit('worker:started', { queueManagerId: QM, entrypoints: ['ep'], batchSize: 1, concurrency: 4, localQueueSize: 0, pid: 1, host: 'h' })
    events.emit('schedule:next', { name: 'communities', cronEntrypoint: 'aizk_cron_communities', nextRun: '2026-11-29T12:30:00.000Z' })
    store.sample()
    for (let i = 0; i < 50; i++) {
      events.emit('job:picked', { jobId: String(i), entrypoint: 'ep', priority: 0, attempts: 0, waitMs: 0 })
      events.emit('job:completed', { jobId: String(i), entrypoint: 'ep', durationMs: 1 })
    }
    const tick = (ms: number) => {
      clock.advance(ms)
      store.sample()
      return store.drawKey()
    }
    const busy = tick(200)
    // The rates fall to zero over the 5 s window: the key moves while they do.
    const settled = Array.from({ length: 40 }, () => tick(200)).at(-1)
    assert.notEqual(settled, busy)
    assert.match(store.snapshot().rates.completed.toFixed(1), /^0\.0$/)
    // Idle for the rest of the minute: the same key on every tick, so the service draws nothing,
    // until the uptime shown (minute resolution) turns to 1m.
    const started = Date.parse('2026-11-29T12:00:00.000Z')
    let firstChangeAt = 0
    for (let i = 0; i < 300 && !firstChangeAt; i++) if (tick(200) !== settled) firstChangeAt = store.snapshot().now - started
    assert.ok(firstChangeAt >= 60_000 && firstChangeAt < 60_400, `the key changed after ${firstChangeAt} ms`)
    // Any event moves it at once.
    const before = tick(200)
    events.emit('job:picked', { jobId: 'x', entrypoint: 'ep', priority: 0, attempts: 0, waitMs: 0 })
    assert.notEqual(store.drawKey(), before)
    detach()
  })

  it('the service writes nothing to the terminal while nothing changes, and draws again on an event', async () => {
    let writes = 0
    const stdout = Object.assign(
      new Writable({
        write: (_chunk, _enc, done) => {
          writes++
          done()
        },
      }),
      { isTTY: true, columns: 120, rows: 40 },
    )
    const events = new WorkerEvents()
    const view = createWorkerViewService({ events, stdout: stdout as unknown as NodeJS.WriteStream, fps: 30 })
    await view.start()
    events.emit('worker:started', { queueManagerId: QM, entrypoints: ['ep'], batchSize: 1, concurrency: 4, localQueueSize: 0, pid: 1, host: 'h' })
    // A slow first frame (ink and React warming up) holds the next back by up to 5 s.
    await waitFor('the frame', () => writes > 0, 8000)
    // ink finishes the frames it throttled (a few frame intervals at most).
    await new Promise((r) => setTimeout(r, 300))
    const settle = writes
    // Twenty frame intervals with nothing happening: not one write.
    await new Promise((r) => setTimeout(r, 700))
    assert.equal(writes, settle)
    events.emit('job:picked', { jobId: '1', entrypoint: 'ep', priority: 0, attempts: 0, waitMs: 0 })
    // The render budget may hold the next frame back for up to 5 s after a slow one.
    await waitFor('the frame', () => writes > settle, 8000)
    await view.stop()
  })

  it('stays bounded at a high event rate: keeps only the last picks and holds', () => {
    const { events, store, clock, detach } = setup()
    store.snapshot()
    for (let i = 0; i < 100_000; i++) {
      const jobId = String(i)
      events.emit('job:picked', { jobId, entrypoint: `ep_${i % 3}`, priority: 0, attempts: 0, waitMs: 0 })
      if (i % 1000 === 999) events.emit('job:held', { jobId, entrypoint: `ep_${i % 3}`, attempts: 5, error: 'x', durationMs: 1 })
      else events.emit('job:completed', { jobId, entrypoint: `ep_${i % 3}`, durationMs: 1 })
    }
    clock.advance(1000)
    const state = store.snapshot()
    detach()
    assert.equal(state.picks.length, 4)
    assert.equal(state.holds.length, 2)
    assert.equal(state.totals.completed, 99_900)
    assert.equal(state.totals.held, 100)
    assert.equal(state.inFlight, 0)
    assert.equal(Math.round(state.rates.completed), 99_900)
    assert.deepEqual(
      state.picks.map((p) => p.jobId),
      ['99999', '99998', '99997', '99996'],
    )
    assert.equal(state.picks[0].outcome, 'held')
  })

  it("keeps the command's notes (the embedded server's start, how to stop it) on screen above the live view", async () => {
    let drawn = ''
    const stdout = Object.assign(
      new Writable({
        write: (chunk, _enc, done) => {
          drawn += chunk
          done()
        },
      }),
      { isTTY: true, columns: 200, rows: 40 },
    )
    const events = new WorkerEvents()
    const outputs = await attachWorkerOutputs({
      events,
      settings: { workerOutput: 'auto', workerLogJobs: true },
      stdout: stdout as unknown as NodeJS.WriteStream,
      isTTY: true,
      fps: 30,
    })
    assert.equal(outputs.mode, 'view')
    const note = 'aizk: started embedded PostgreSQL 15.18.0 in /tmp/data on 127.0.0.1:54329; it keeps running for every aizk process until `aizk server stop`'
    outputs.note(note)
    events.emit('worker:started', { queueManagerId: QM, entrypoints: ['ep'], batchSize: 1, concurrency: 4, localQueueSize: 0, pid: 1, host: 'h' })
    for (let i = 0; i < 50; i++) events.emit('job:picked', { jobId: String(i), entrypoint: 'ep', priority: 0, attempts: 0, waitMs: 0 })
    await outputs.close()
    // The last frame ink drew, and left on screen: the note above the header.
    const last = drawn.slice(drawn.lastIndexOf(note))
    assert.match(last, /aizk server stop/)
    assert.match(last, /aizk worker a7c1f0e2/)
    assert.match(last, /total picked 50/)
  })
})
