/**
 * The enqueue side: one PRODUCER span `send <entrypoint>` per enqueue call, a child of whatever
 * span is active in the caller (its request, its transaction), whose context every job of the
 * call carries in its headers (the send span is the creation context of each message). A job
 * that already carries a context (a fan-out job with a trace of its own) keeps it.
 */
import { context, SpanKind } from '@opentelemetry/api'
import { hasCarrier, withCarrier } from './carrier.js'
import { installedTracer, messagingAttributes, recordFailure } from './tracer.js'

export interface OutgoingMessage {
  entrypoint: string
  headers?: Record<string, unknown> | null
}

/** Run `insert` on the messages, inside a send span when an SDK is installed; returns its ids. */
export function traceSend<M extends OutgoingMessage, R extends readonly (string | false)[]>(messages: M[], insert: (messages: M[]) => Promise<R>): Promise<R> {
  const tracer = installedTracer()
  if (!tracer) return insert(messages)
  const first = messages[0]?.entrypoint
  const destination = messages.every((m) => m.entrypoint === first) ? first : undefined
  const attributes = messagingAttributes('send', destination)
  if (messages.length !== 1) attributes['messaging.batch.message_count'] = messages.length
  return tracer.startActiveSpan(destination ? `send ${destination}` : 'send', { kind: SpanKind.PRODUCER, attributes }, context.active(), async (span) => {
    const sc = span.spanContext()
    const carried = messages.map((m) => (hasCarrier(m.headers) ? m : { ...m, headers: withCarrier(m.headers, sc) }))
    try {
      const ids = await insert(carried)
      if (ids.length === 1 && ids[0] !== false) span.setAttribute('messaging.message.id', ids[0])
      const skipped = ids.filter((id) => id === false).length
      // A live dedupe key: the message was not written (enqueue returned false for it).
      if (skipped) span.setAttribute('messaging.pgqueuer.deduplicated', skipped)
      return ids
    } catch (err) {
      recordFailure(span, err)
      throw err
    } finally {
      span.end()
    }
  })
}
