/**
 * The commands' OpenTelemetry SDK: started from the process's OTEL_* variables when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/observability.md#traces), nothing otherwise.
 */
import { startTracingSdk, type TracingSdk } from '../tracing/sdk.js'

export async function startCommandTracing(serviceName: string, note: (line: string) => void): Promise<TracingSdk | undefined> {
  const sdk = await startTracingSdk(process.env, serviceName)
  if (sdk) {
    note(`aizk: traces go to ${sdk.endpoint} (OTLP http/json)`)
    for (const line of sdk.notes) note(`aizk: ${line}`)
  }
  return sdk
}

/** Run `fn` with the SDK started, exporting its spans before returning. */
export async function withCommandTracing<T>(serviceName: string, note: (line: string) => void, fn: () => Promise<T>): Promise<T> {
  const sdk = await startCommandTracing(serviceName, note)
  try {
    return await fn()
  } finally {
    await sdk?.shutdown().catch((err) => note(`aizk: could not export traces: ${err instanceof Error ? err.message : String(err)}`))
  }
}
