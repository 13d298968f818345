/**
 * Runs the live view on a terminal: a store listens to the worker's events, and a timer (once a
 * second by default) asks it whether anything shown changed (its draw key). Only then is a snapshot
 * taken and the view rendered; an idle worker draws nothing. Frames are spaced so rendering takes
 * at most 2% of the process's time: under load, a slow frame delays the next one. Stopping draws the final frame and leaves it on screen.
 */
import { type Instance, render } from 'ink'
import type { WorkerEvents } from '../../events.js'
import { type ViewStoreOptions, WorkerViewStore } from './view-store.js'
import { WorkerView } from './worker-view.js'

export interface WorkerViewServiceOptions extends ViewStoreOptions {
  events: WorkerEvents
  stdout?: NodeJS.WriteStream
  /**
   * At most this many frames a second (and none while nothing shown changes). Default 1: one
   * frame costs ink some milliseconds of CPU whatever changed in it, so under load the view's
   * share of a core stays near 1-2%; its rates average over seconds anyway.
   */
  fps?: number
}

export interface WorkerViewService {
  start(): Promise<void>
  stop(): Promise<void>
  /** A line of the command's, shown in the view's header (stderr would be drawn over). */
  note(line: string): void
  readonly store: WorkerViewStore
}

export function createWorkerViewService(opts: WorkerViewServiceOptions): WorkerViewService {
  const store = new WorkerViewStore(opts)
  // Listen from creation, so 'worker:started' (emitted as the worker starts) is not missed.
  const detach = store.attach(opts.events)
  const fps = Math.max(0.2, Math.min(30, opts.fps ?? 1))
  const intervalMs = Math.round(1000 / fps)
  let instance: Instance | undefined
  let timer: NodeJS.Timeout | undefined
  let drawn = ''
  // The view's budget: rendering may take at most this share of the worker's time. A frame
  // costs ink milliseconds whatever changed in it, and more on a busy machine, so the gap
  // after a frame grows with what that frame took.
  const budget = 0.02
  // ...but an operator sees a fresh frame at least this often, however busy the machine.
  const maxGapMs = 5000
  let nextDrawAt = 0
  let screen: NodeJS.WriteStream | undefined
  const size = () => (screen?.isTTY && screen.rows > 0 ? { rows: screen.rows, columns: screen.columns || 80 } : undefined)
  const resized = () => draw()

  const draw = (key = store.drawKey()) => {
    drawn = key
    const started = performance.now()
    instance?.rerender(<WorkerView state={store.snapshot()} size={size()} />)
    const took = performance.now() - started
    nextDrawAt = started + Math.min(maxGapMs, Math.max(intervalMs, took / budget))
  }
  const tick = () => {
    store.sample()
    if (performance.now() < nextDrawAt) return
    const key = store.drawKey()
    if (key !== drawn) draw(key)
  }

  return {
    store,
    note(line) {
      store.note(line)
      if (instance) draw()
    },
    async start() {
      if (instance) return
      const stdout = opts.stdout ?? process.stdout
      // A pseudo-terminal nobody sized (script(1) without a terminal) reports 0 columns.
      if (stdout.isTTY && !stdout.columns) stdout.columns = 120
      screen = stdout
      stdout.on('resize', resized)
      drawn = store.drawKey()
      instance = render(<WorkerView state={store.snapshot()} size={size()} />, {
        stdout,
        // The worker owns SIGINT/SIGTERM (drain, then a second signal exits at once): ink must not.
        exitOnCtrlC: false,
        patchConsole: false,
        maxFps: Math.max(1, Math.round(fps)),
      })
      timer = setInterval(tick, intervalMs)
      timer.unref()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      detach()
      screen?.off('resize', resized)
      if (!instance) return
      draw()
      const done = instance.waitUntilExit().catch(() => {})
      instance.unmount()
      await done
      instance = undefined
    },
  }
}
