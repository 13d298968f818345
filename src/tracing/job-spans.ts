/**
 * The worker side, per job: `receive <entrypoint>` (the pick round trip that claimed it) and
 * `process <entrypoint>` (its handler, the active span while it runs, so the handler's own spans
 * nest under it) as children of the context the job carries, and `settle <entrypoint>` (the
 * outcome handed to the outcome writer) under the process span. A job enqueued without a context
 * starts a trace at its receive span. Every hook returns at once when no SDK is installed.
 */
import { type Context, context, type Link, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import type { WorkerEvents } from '../events.js'
import { carriedContext, carriedSpanContext } from './carrier.js'
import { installedTracer, messagingAttributes } from './tracer.js'

export interface TracedJob {
  id: string
  entrypoint: string
  /** Failed runs so far. */
  attempts: number
  headers: Record<string, unknown> | null
}

/** The context holding a picked job's receive span, for its process span. */
const received = new WeakMap<TracedJob, Context>()
/** Process spans of running jobs by id, ended when the job's outcome event comes. */
const processing = new Map<string, { span: Span; entrypoint: string }>()
/** Workers whose outcome events end process spans: without one, none is started (it would never end). */
let settling = 0

/** A pick came back with these jobs after running from `startedAt` to `endedAt` (epoch ms). */
export function traceReceived(jobs: readonly TracedJob[], startedAt: number, endedAt: number): void {
  if (jobs.length === 0) return
  const tracer = installedTracer()
  if (!tracer) return
  for (const job of jobs) {
    const parent = carriedContext(job.headers)
    const attributes = messagingAttributes('receive', job.entrypoint)
    attributes['messaging.message.id'] = job.id
    attributes['messaging.batch.message_count'] = jobs.length
    const span = tracer.startSpan(`receive ${job.entrypoint}`, { kind: SpanKind.CLIENT, startTime: startedAt, attributes }, parent)
    span.end(endedAt)
    received.set(job, trace.setSpan(parent, span))
  }
}

/** Run a job's start (payload checks, handler call, or an outcome at once) inside its process span. */
export function runTraced<T>(job: TracedJob, run: () => T): T {
  const tracer = settling > 0 ? installedTracer() : undefined
  // A second pick of a job this worker still runs never starts (the executor refuses it).
  if (!tracer || processing.has(job.id)) return run()
  const parent = received.get(job) ?? carriedContext(job.headers)
  const creation = carriedSpanContext(job.headers)
  const links: Link[] = creation ? [{ context: creation }] : []
  const attributes = messagingAttributes('process', job.entrypoint)
  attributes['messaging.message.id'] = job.id
  attributes['messaging.pgqueuer.attempt'] = job.attempts + 1
  const span = tracer.startSpan(`process ${job.entrypoint}`, { kind: SpanKind.CONSUMER, attributes, links }, parent)
  processing.set(job.id, { span, entrypoint: job.entrypoint })
  return context.with(trace.setSpan(parent, span), run)
}

type Outcome = 'completed' | 'retried' | 'held' | 'released' | 'canceled'

function settled(jobId: string, outcome: Outcome, error?: string): void {
  const running = processing.get(jobId)
  if (!running) return
  processing.delete(jobId)
  const { span, entrypoint } = running
  span.setAttribute('messaging.pgqueuer.outcome', outcome)
  const tracer = installedTracer()
  if (tracer) {
    const attributes = messagingAttributes('settle', entrypoint)
    attributes['messaging.message.id'] = jobId
    attributes['messaging.pgqueuer.outcome'] = outcome
    tracer.startSpan(`settle ${entrypoint}`, { kind: SpanKind.CLIENT, attributes }, trace.setSpan(context.active(), span)).end()
  }
  if (error !== undefined) {
    // The events carry the error's message, not its class: the conventions' fallback value.
    span.setAttribute('error.type', '_OTHER')
    span.setStatus({ code: SpanStatusCode.ERROR, message: error })
  }
  span.end()
}

/**
 * End process spans on the executor's outcome events. Listens only when an SDK is installed
 * now: a listener would make the executor build events nobody else wants.
 */
export function traceSettlements(events: WorkerEvents): (() => void) | undefined {
  if (!installedTracer()) return undefined
  const offs = [
    events.on('job:completed', (e) => settled(e.jobId, 'completed')),
    events.on('job:retried', (e) => settled(e.jobId, 'retried', e.error)),
    events.on('job:held', (e) => settled(e.jobId, 'held', e.error)),
    events.on('job:released', (e) => settled(e.jobId, 'released')),
    events.on('job:canceled', (e) => settled(e.jobId, 'canceled')),
  ]
  settling++
  return () => {
    settling--
    for (const off of offs.splice(0)) off()
  }
}
