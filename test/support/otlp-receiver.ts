/**
 * A local OTLP/HTTP trace receiver (node:http on a free port) that decodes the real export
 * requests the SDK's exporter sends (OTLP JSON: ids in hex, attributes as typed values) into
 * plain spans the tests can walk as a tree.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedSpan {
  service: string
  traceId: string
  spanId: string
  parentSpanId: string
  name: string
  kind: number
  attributes: Record<string, string | number | boolean>
  links: { traceId: string; spanId: string }[]
  status: { code?: number; message?: string }
}

export interface OtlpReceiver {
  endpoint: string
  spans: ReceivedSpan[]
  /** Requests that were not OTLP JSON trace exports (must stay empty). */
  rejected: string[]
  close(): Promise<void>
}

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean }
type KeyValue = { key: string; value: AnyValue }

function decodeValue(v: AnyValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue
  if (v.intValue !== undefined) return Number(v.intValue)
  if (v.doubleValue !== undefined) return v.doubleValue
  if (v.boolValue !== undefined) return v.boolValue
  return JSON.stringify(v)
}

function attributesOf(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, decodeValue(kv.value)]))
}

interface ExportRequest {
  resourceSpans: {
    resource?: { attributes?: KeyValue[] }
    scopeSpans: {
      spans: {
        traceId: string
        spanId: string
        parentSpanId?: string
        name: string
        kind: number
        attributes?: KeyValue[]
        links?: { traceId: string; spanId: string }[]
        status?: { code?: number; message?: string }
      }[]
    }[]
  }[]
}

export function decodeExport(body: ExportRequest): ReceivedSpan[] {
  const out: ReceivedSpan[] = []
  for (const rs of body.resourceSpans) {
    const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '')
    for (const ss of rs.scopeSpans) {
      for (const s of ss.spans) {
        out.push({
          service,
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? '',
          name: s.name,
          kind: s.kind,
          attributes: attributesOf(s.attributes),
          links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
          status: s.status ?? {},
        })
      }
    }
  }
  return out
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = []
  const rejected: string[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const type = req.headers['content-type'] ?? ''
      try {
        if (req.method !== 'POST' || req.url !== '/v1/traces' || !type.startsWith('application/json')) throw new Error(`${req.method} ${req.url} ${type}`)
        spans.push(...decodeExport(JSON.parse(Buffer.concat(chunks).toString('utf8'))))
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      } catch (err) {
        rejected.push(err instanceof Error ? err.message : String(err))
        res.writeHead(400).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    rejected,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
