// The trace carrier in job headers (W3C traceparent under headers.otel, as PgQueuer writes it),
// and the hooks with no SDK installed: nothing is added, nothing is started.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { carriedSpanContext, hasCarrier, traceparentOf, withCarrier } from '../../src/tracing/carrier.js'
import { runTraced, traceReceived } from '../../src/tracing/job-spans.js'
import { traceSend } from '../../src/tracing/send.js'
import { installedTracer } from '../../src/tracing/tracer.js'

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const SPAN = '00f067aa0ba902b7'

describe('the traceparent carrier', () => {
  it('round-trips a span context through headers, keeping the other keys', () => {
    const headers = withCarrier({ aizk: { cycles: 1 }, otel: { baggage: 'k=v' } }, { traceId: TRACE, spanId: SPAN, traceFlags: 1 })
    assert.deepEqual(headers, { aizk: { cycles: 1 }, otel: { baggage: 'k=v', traceparent: `00-${TRACE}-${SPAN}-01` } })
    assert.ok(hasCarrier(headers))
    assert.deepEqual(carriedSpanContext(headers), { traceId: TRACE, spanId: SPAN, traceFlags: 1, isRemote: true })
    assert.equal(traceparentOf({ traceId: TRACE, spanId: SPAN, traceFlags: 0 }), `00-${TRACE}-${SPAN}-00`)
  })

  it('reads tracestate beside it', () => {
    const sc = carriedSpanContext({ otel: { traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: 'vendor=abc' } })
    assert.equal(sc?.traceState?.get('vendor'), 'abc')
  })

  it('ignores what is not a valid traceparent', () => {
    for (const traceparent of [
      'garbage',
      `ff-${TRACE}-${SPAN}-01`,
      `00-${'0'.repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE.slice(1)}-${SPAN}-01`,
      42,
    ]) {
      assert.equal(carriedSpanContext({ otel: { traceparent } }), undefined, String(traceparent))
    }
    assert.equal(carriedSpanContext(null), undefined)
    assert.equal(carriedSpanContext({ otel: 'x' }), undefined)
    // A later version may append fields.
    assert.equal(carriedSpanContext({ otel: { traceparent: `01-${TRACE}-${SPAN}-01-more` } })?.spanId, SPAN)
  })
})

describe('the hooks without an SDK', () => {
  it('find no tracer, add no headers and start nothing', async () => {
    assert.equal(installedTracer(), undefined)
    const seen: unknown[] = []
    const ids = await traceSend([{ entrypoint: 'e', headers: null }], async (messages) => {
      seen.push(...messages)
      return ['1'] as const
    })
    assert.deepEqual(ids, ['1'])
    assert.deepEqual(seen, [{ entrypoint: 'e', headers: null }])
    const job = { id: '1', entrypoint: 'e', attempts: 0, headers: { otel: { traceparent: `00-${TRACE}-${SPAN}-01` } } }
    traceReceived([job], 0, 1)
    assert.equal(
      runTraced(job, () => 'ran'),
      'ran',
    )
  })
})
