/**
 * Section (t) of `npm run bench`: what OpenTelemetry tracing costs (docs/observability.md#traces).
 * Off is what every install runs without OTEL_EXPORTER_OTLP_ENDPOINT: the hooks are in the code
 * path, no SDK is loaded. On: the SDK exports every span to a local OTLP/HTTP sink (a real
 * export over HTTP; the sink only counts). Alternating rounds on one database, per side: enqueue
 * one per call with 16 in flight, enqueue the backlog 1,000 a call, drain it with one worker
 * process. A last row times the hooks themselves with no SDK, per job, against the drain's
 * time per job.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { trace } from '@opentelemetry/api'
import type pg from 'pg'
import { runTraced, traceReceived } from '../src/tracing/job-spans.js'
import { startTracingSdk } from '../src/tracing/sdk.js'
import { installedTracer } from '../src/tracing/tracer.js'
import { BENCH_ENTRYPOINT } from './bench-jobs.js'
import { abSide, fmt, median, type ParityRow as Row, type Sample } from './log-parity.js'

/** An OTLP/HTTP endpoint that accepts every export and counts its spans. */
async function startSink(): Promise<{ endpoint: string; spans: () => number; close: () => Promise<void> }> {
  let spans = 0
  const server = http.createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => {
      body += c
    })
    req.on('end', () => {
      spans += body.split('"startTimeUnixNano"').length - 1
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

async function oneSide(pool: pg.Pool, o: TracingAbOptions, otelEnv: Record<string, string> | undefined): Promise<Sample> {
  // The enqueuing process (this one) gets the SDK too on the traced side, as an application would.
  const sdk = otelEnv ? await startTracingSdk(otelEnv, 'aizk-bench') : undefined
  try {
    return await abSide(pool, o, { workerEnv: otelEnv ? { ...otelEnv, BENCH_OTEL: '1' } : {} })
  } finally {
    await sdk?.shutdown()
    if (sdk) trace.disable()
  }
}

/**
 * Nanoseconds per job of the hooks with no SDK: an upper bound, since it counts a receive and a
 * send check per job, where the worker makes the receive check once per pick and an enqueue
 * of many jobs one send check.
 */
function hooksOffNsPerJob(): number {
  if (installedTracer()) return Number.NaN
  const job = { id: '1', entrypoint: BENCH_ENTRYPOINT, attempts: 0, headers: null }
  const jobs = [job]
  const n = 2_000_000
  let sink = 0
  const t0 = process.hrtime.bigint()
  for (let i = 0; i < n; i++) {
    traceReceived(jobs, 0, 0)
    sink += runTraced(job, () => 1)
    if (!installedTracer()) sink++
  }
  const ns = Number(process.hrtime.bigint() - t0) / n
  return sink > 0 ? ns : Number.NaN
}

export interface TracingAbOptions {
  url: string
  batch: number
  concurrency: number
  jobs: number
  inflight: number
  rounds: number
}

export async function tracingSection(pool: pg.Pool, o: TracingAbOptions): Promise<Row[]> {
  const sink = await startSink()
  const otelEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint }
  const off: Sample[] = []
  const on: Sample[] = []
  try {
    for (let r = 0; r < o.rounds; r++) {
      // Alternate which side goes first, so drift on a busy machine hits both.
      if (r % 2 === 0) {
        off.push(await oneSide(pool, o, undefined))
        on.push(await oneSide(pool, o, otelEnv))
      } else {
        on.push(await oneSide(pool, o, otelEnv))
        off.push(await oneSide(pool, o, undefined))
      }
    }
  } finally {
    await sink.close()
  }
  const rows: Row[] = []
  const add = (what: string, key: keyof Sample) => {
    const a = median(off.map((s) => s[key]))
    const b = median(on.map((s) => s[key]))
    rows.push({
      section: 't',
      what,
      value: `off ${fmt(a)} / on ${fmt(b)} jobs/s`,
      note: `on/off ${(b / a).toFixed(2)} (median of ${o.rounds} alternating rounds; rounds off ${off.map((s) => fmt(s[key])).join(', ')}, on ${on.map((s) => fmt(s[key])).join(', ')})`,
    })
  }
  add('tracing: enqueue, 1 per call, 16 in flight', 'single')
  add('tracing: enqueue, 1,000 per call', 'bulk')
  add(`tracing: drain ${fmt(o.jobs)} no-op jobs, 1 worker`, 'drain')
  const hooks = hooksOffNsPerJob()
  const perJobUs = 1e6 / median(off.map((s) => s.drain))
  rows.push({
    section: 't',
    what: 'tracing off: the hooks alone (no SDK), per job, upper bound',
    value: `${hooks.toFixed(0)} ns`,
    note: `${((hooks / 1000 / perJobUs) * 100).toFixed(2)}% of the off drain's ${perJobUs.toFixed(0)} µs per job; spans the sink received: ${fmt(sink.spans())}`,
  })
  return rows
}
