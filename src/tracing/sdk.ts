/**
 * `aizk worker`'s (and `aizk enqueue`'s) OpenTelemetry SDK: a Node tracer provider with a batch
 * processor and the OTLP/HTTP exporter, configured by the standard OTEL_* variables, which the
 * SDK reads itself (endpoint, headers, timeout, sampler, batch sizes, resource attributes).
 * Started only when OTEL_EXPORTER_OTLP_ENDPOINT (or its traces-only variant) is set; the SDK's
 * packages load only then, so a worker without it pays neither their import nor a span.
 */
export interface TracingSdk {
  /** Where spans go, as the exporter resolves it. */
  endpoint: string
  /** Notes for the operator (a protocol this exporter does not speak). */
  notes: string[]
  /** Export what is buffered and stop; call before the process exits. */
  shutdown(): Promise<void>
}

type Env = Readonly<Record<string, string | undefined>>

/**
 * The longest the last export may hold the exit: the worker's drain (25 s) plus this stays
 * under Kubernetes' 30 s grace period even when the collector does not answer.
 */
export const SHUTDOWN_FLUSH_MS = 3000

function shutdownWithin(done: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    timer.unref()
    done.then(
      () => {
        clearTimeout(timer)
        resolve()
      },
      (err) => {
        clearTimeout(timer)
        reject(err)
      },
    )
  })
}

/** The service name when OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name none. */
export const DEFAULT_SERVICE_NAME = 'aizk-worker'

function tracesEndpoint(env: Env): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
  if (traces) return traces
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined
}

/** Whether the variables ask for traces at all. */
export function tracingRequested(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return false
  return tracesEndpoint(env) !== undefined
}

export async function startTracingSdk(env: Env, serviceName = DEFAULT_SERVICE_NAME): Promise<TracingSdk | undefined> {
  const endpoint = tracesEndpoint(env)
  if (!endpoint || !tracingRequested(env)) return undefined
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { detectResources, envDetector, resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ])
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) override the default name.
  const resource = resourceFromAttributes({ 'service.name': serviceName }).merge(detectResources({ detectors: [envDetector] }))
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: endpoint }))] })
  provider.register()
  const notes: string[] = []
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim()
  if (protocol && protocol !== 'http/json')
    notes.push(`aizk exports traces as OTLP http/json; OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not used (OTLP/HTTP receivers accept JSON on the same path)`)
  return { endpoint, notes, shutdown: () => shutdownWithin(provider.shutdown(), SHUTDOWN_FLUSH_MS) }
}
