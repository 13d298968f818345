/**
 * The latency floor of section c (section l): the least a worker on this design can do between
 * a committed enqueue and a handler's start. One LISTEN connection on PgQueuer's channel and one
 * connection for picks; on each notification (and while a pick comes back with a row) one bare
 * statement claims the next queued row, `UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP
 * LOCKED LIMIT 1) RETURNING payload`, committing without waiting for the WAL flush as aizk's
 * lease pick does. No limits, heartbeats, completions, priorities across entrypoints or job
 * classes. Driven over IPC like bench/worker-child.ts: start, report, stop.
 */
import pg from 'pg'
import { NOTIFY_CHANNEL } from '../src/queue/notify.js'
import { BENCH_ENTRYPOINT, monotonicMs } from './bench-jobs.js'

const [url] = process.argv.slice(2)
const listener = new pg.Client({ connectionString: url, application_name: 'aizk-bench-floor-listen' })
const picker = new pg.Client({ connectionString: url, application_name: 'aizk-bench-floor-pick' })
const latencies: number[] = []
let handled = 0
let picking = false
let again = false

const PICK = {
  name: 'floor_pick',
  text: `UPDATE pgqueuer SET status = 'picked', updated = now(), heartbeat = now()
          WHERE id = (SELECT id FROM pgqueuer WHERE status = 'queued' AND entrypoint = $1
                       ORDER BY priority DESC, id FOR UPDATE SKIP LOCKED LIMIT 1)
         RETURNING payload`,
  values: [BENCH_ENTRYPOINT],
}

async function pickWhileFound(): Promise<void> {
  if (picking) {
    again = true
    return
  }
  picking = true
  try {
    do {
      again = false
      const { rows } = await picker.query<{ payload: Buffer }>(PICK)
      for (const r of rows) {
        const p = JSON.parse(r.payload.toString('utf8')) as { t0?: number; warm?: boolean }
        if (p.t0 !== undefined && !p.warm) latencies.push(monotonicMs() - p.t0)
        handled++
      }
      if (rows.length) again = true
    } while (again)
  } finally {
    picking = false
  }
}

const send = (m: object) => process.send?.(m)

process.on('message', async (m: { cmd: string }) => {
  if (m.cmd === 'start') {
    await picker.connect()
    await picker.query('SET synchronous_commit = off')
    await listener.connect()
    listener.on('notification', () => void pickWhileFound())
    await listener.query(`LISTEN ${NOTIFY_CHANNEL}`)
    send({ type: 'started' })
  } else if (m.cmd === 'report') {
    send({ type: 'report', handled, latencies })
  } else if (m.cmd === 'stop') {
    await listener.end()
    await picker.end()
    send({ type: 'stopped', handled })
    process.disconnect?.()
  }
})
process.on('disconnect', () => process.exit(0))
send({ type: 'loaded' })
