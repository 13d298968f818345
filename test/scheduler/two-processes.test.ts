import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { describe, it } from 'node:test'
import { cleanEnv, repoRoot } from '../support/cli.js'
import { fileDatabase } from '../support/db.js'

interface Fired {
  pid: number
  event: string
  scheduledFor: string
}

const db = await fileDatabase()
const children: ChildProcess[] = []

db.beforeDrop(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
})

function startScheduler(onLine: (line: Record<string, unknown>) => void): ChildProcess {
  const child = spawn(process.execPath, [path.join(repoRoot, 'test', 'fixtures', 'scheduler-entry.mjs')], {
    env: cleanEnv({ AIZK_DATABASE_URL: db.url }),
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  let buffer = ''
  child.stdout?.on('data', (d) => {
    buffer += d
    let nl = buffer.indexOf('\n')
    while (nl >= 0) {
      onLine(JSON.parse(buffer.slice(0, nl)))
      buffer = buffer.slice(nl + 1)
      nl = buffer.indexOf('\n')
    }
  })
  return child
}

const exited = (c: ChildProcess) => new Promise<number | null>((resolve) => (c.exitCode !== null ? resolve(c.exitCode) : c.on('exit', resolve)))

describe('two scheduler processes on one database', () => {
  it('fire each tick of a per-second schedule exactly once, over at least ten ticks', async () => {
    const fired: Fired[] = []
    const errors: unknown[] = []
    const TICKS = 12
    let done!: () => void
    const enough = new Promise<void>((resolve) => {
      done = resolve
    })
    const onLine = (l: Record<string, unknown>) => {
      if (l.event === 'error') errors.push(l)
      if (l.event !== 'fired') return
      fired.push(l as unknown as Fired)
      if (fired.length >= TICKS) done()
    }
    const procs = [startScheduler(onLine), startScheduler(onLine)]
    await enough
    for (const p of procs) p.kill('SIGTERM')
    assert.deepEqual(await Promise.all(procs.map(exited)), [0, 0])

    assert.deepEqual(errors, [])
    const ticks = fired.map((f) => Date.parse(f.scheduledFor)).sort((a, b) => a - b)
    assert.equal(new Set(ticks).size, ticks.length, `a tick fired twice: ${fired.map((f) => `${f.pid}@${f.scheduledFor}`).join(' ')}`)
    for (let i = 1; i < ticks.length; i++) assert.equal(ticks[i] - ticks[i - 1], 1000, 'no tick skipped between fires')
    assert.ok(ticks.length >= TICKS)
    const { rows } = await db.pool.query("select count(*)::int as n from pgqueuer_schedules where entrypoint = 'aizk_cron_tick_probe'")
    assert.equal(rows[0].n, 1)
  })
})
