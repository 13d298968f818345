/**
 * The trace context a job carries from its enqueue to its runs: W3C `traceparent` (and
 * `tracestate`) under `headers.otel`, where PgQueuer's tracing adapter puts them, written and
 * read here without the global propagator so it works whatever propagator the application set.
 */
import { type Context, createTraceState, ROOT_CONTEXT, type SpanContext, trace } from '@opentelemetry/api'

type Headers = Record<string, unknown> | null | undefined

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-|$)/
const ZERO_TRACE = '0'.repeat(32)
const ZERO_SPAN = '0'.repeat(16)

function otelOf(headers: Headers): Record<string, unknown> | undefined {
  const otel = headers?.otel
  return otel && typeof otel === 'object' && !Array.isArray(otel) ? (otel as Record<string, unknown>) : undefined
}

export function traceparentOf(sc: SpanContext): string {
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`
}

/** Whether the headers already carry a trace context (then it is never overwritten). */
export function hasCarrier(headers: Headers): boolean {
  return typeof otelOf(headers)?.traceparent === 'string'
}

/** The headers with `otel.traceparent` (and `otel.tracestate`) of this span context added. */
export function withCarrier(headers: Headers, sc: SpanContext): Record<string, unknown> {
  const tracestate = sc.traceState?.serialize()
  return { ...headers, otel: { ...otelOf(headers), traceparent: traceparentOf(sc), ...(tracestate ? { tracestate } : {}) } }
}

/** The remote span context a job's headers carry, or undefined for none or a malformed one. */
export function carriedSpanContext(headers: Headers): SpanContext | undefined {
  const otel = otelOf(headers)
  const value = otel?.traceparent
  if (typeof value !== 'string') return undefined
  const m = TRACEPARENT.exec(value.trim().toLowerCase())
  if (!m || m[1] === 'ff' || m[2] === ZERO_TRACE || m[3] === ZERO_SPAN) return undefined
  // Version 00 is exactly four fields; a later version may append more after a dash.
  if (m[1] === '00' && value.trim().length !== 55) return undefined
  const tracestate = typeof otel?.tracestate === 'string' ? otel.tracestate : undefined
  return {
    traceId: m[2],
    spanId: m[3],
    traceFlags: Number.parseInt(m[4], 16) & 1,
    isRemote: true,
    ...(tracestate ? { traceState: createTraceState(tracestate) } : {}),
  }
}

/** A context whose parent is the span the headers carry, or the root context without one. */
export function carriedContext(headers: Headers): Context {
  const sc = carriedSpanContext(headers)
  return sc ? trace.setSpanContext(ROOT_CONTEXT, sc) : ROOT_CONTEXT
}
