/**
 * The one question every tracing hook asks first: is an OpenTelemetry SDK installed? Without
 * one (the default: neither the application nor `aizk worker` registered a tracer provider),
 * the answer is one property read and no span, attribute or header is built.
 */
import { type Attributes, type Span, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api'

export const TRACER_NAME = 'aizk'

/**
 * `messaging.system`: the tables and the `headers.otel` carrier are PgQueuer's, so a job
 * enqueued by PgQueuer's own tracing adapter continues its trace in an aizk worker and back.
 */
export const MESSAGING_SYSTEM = 'pgqueuer'

interface DelegatingProvider {
  getDelegateTracer?: (name: string) => Tracer | undefined
}

/** The tracer of the registered SDK, or undefined while none is registered. */
export function installedTracer(): Tracer | undefined {
  const provider = trace.getTracerProvider() as DelegatingProvider
  // The API's global provider is a proxy whose delegate is the SDK's provider once one registers.
  if (typeof provider.getDelegateTracer === 'function') return provider.getDelegateTracer(TRACER_NAME)
  return trace.getTracer(TRACER_NAME)
}

/** The attributes every aizk messaging span carries. */
export function messagingAttributes(operation: 'send' | 'create' | 'receive' | 'process' | 'settle', destination?: string): Attributes {
  return {
    'messaging.system': MESSAGING_SYSTEM,
    'messaging.operation.type': operation,
    'messaging.operation.name': operation,
    ...(destination === undefined ? {} : { 'messaging.destination.name': destination }),
  }
}

/** Marks a span failed the way the semantic conventions ask: status ERROR, its message and `error.type`. */
export function recordFailure(span: Span, err: unknown): void {
  span.setAttribute('error.type', err instanceof Error ? err.name || err.constructor.name : typeof err)
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) })
}
