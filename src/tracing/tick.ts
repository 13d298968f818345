/**
 * Cron ticks: each fired tick is a trace of its own (`tick <cron entrypoint>`), and each job it
 * fans out starts its own trace too (a `create <entrypoint>` root span whose context the job
 * carries) with a link back to the tick, so a weekly pass over thousands of scope sets is
 * thousands of small traces, each one click away from the tick that made it.
 */
import { context, type Link, SpanKind, trace } from '@opentelemetry/api'
import { withCarrier } from './carrier.js'
import type { OutgoingMessage } from './send.js'
import { installedTracer, messagingAttributes, recordFailure } from './tracer.js'

export interface TickInfo {
  name: string
  cronEntrypoint: string
  scheduledFor: Date
}

/** Run a tick's fan-out inside a root span for the tick. */
export async function traceTick<T>(tick: TickInfo, fire: () => Promise<T>): Promise<T> {
  const tracer = installedTracer()
  if (!tracer) return fire()
  const attributes = {
    'aizk.schedule.name': tick.name,
    'aizk.schedule.cron_entrypoint': tick.cronEntrypoint,
    'aizk.schedule.scheduled_for': tick.scheduledFor.toISOString(),
  }
  return tracer.startActiveSpan(`tick ${tick.cronEntrypoint}`, { kind: SpanKind.INTERNAL, root: true, attributes }, async (span) => {
    try {
      return await fire()
    } catch (err) {
      recordFailure(span, err)
      throw err
    } finally {
      span.end()
    }
  })
}

/** Inside a tick: give each fan-out job a trace of its own, linked to the tick. Outside one, the messages as they are. */
export function startLinkedTraces<M extends OutgoingMessage>(messages: M[]): M[] {
  const tracer = installedTracer()
  const tick = tracer && trace.getActiveSpan()
  if (!tracer || !tick) return messages
  const links: Link[] = [{ context: tick.spanContext() }]
  return messages.map((m) => {
    const span = tracer.startSpan(
      `create ${m.entrypoint}`,
      { kind: SpanKind.PRODUCER, root: true, links, attributes: messagingAttributes('create', m.entrypoint) },
      context.active(),
    )
    span.end()
    return { ...m, headers: withCarrier(m.headers, span.spanContext()) }
  })
}
