/**
 * `aizk jobs show` output: the story as one JSON document, or as text an operator reads top to
 * bottom (the row, the worker holding it, payload, headers, then every log row with the
 * traceback of each failure). Payloads are pretty-printed and cut at PAYLOAD_PREVIEW characters
 * unless the whole is asked for.
 */
import type { JobStory, StoryLogRow } from '../queue/job-story.js'
import { formatAge, formatRelative } from './format.js'

export const PAYLOAD_PREVIEW = 2000

export interface PayloadView {
  bytes: number
  /** JSON, text (not JSON but UTF-8), or base64 (binary). */
  encoding: 'json' | 'text' | 'base64'
  /** Pretty JSON, the text, or base64; cut at PAYLOAD_PREVIEW characters unless whole. */
  text: string
  truncated: boolean
  /** The parsed JSON value, when it is JSON and shown whole. */
  value?: unknown
}

export function payloadView(bytes: Buffer | null, whole: boolean): PayloadView | null {
  if (!bytes) return null
  let encoding: PayloadView['encoding'] = 'base64'
  let full = bytes.toString('base64')
  let value: unknown
  const utf8 = bytes.toString('utf8')
  if (Buffer.from(utf8, 'utf8').equals(bytes)) {
    encoding = 'text'
    full = utf8
    try {
      value = JSON.parse(utf8)
      encoding = 'json'
      full = JSON.stringify(value, null, 2)
    } catch {
      // Not JSON: shown as text.
    }
  }
  const truncated = !whole && full.length > PAYLOAD_PREVIEW
  return {
    bytes: bytes.length,
    encoding,
    text: truncated ? full.slice(0, PAYLOAD_PREVIEW) : full,
    truncated,
    ...(value !== undefined && !truncated ? { value } : {}),
  }
}

function headerInfo(headers: unknown): { cycles?: unknown; lastError?: unknown; cancelRequestedAt?: unknown } {
  const aizk = headers && typeof headers === 'object' ? (headers as Record<string, unknown>).aizk : undefined
  return aizk && typeof aizk === 'object' ? (aizk as Record<string, unknown>) : {}
}

/** The story as the --json document. */
export function jobStoryJson(story: JobStory, whole: boolean) {
  const r = story.row
  const aizk = headerInfo(r?.headers)
  return {
    id: story.id,
    state: story.state,
    job: r
      ? {
          entrypoint: r.entrypoint,
          status: r.status,
          priority: r.priority,
          attempts: r.attempts,
          cycles: r.cycles,
          dedupeKey: r.dedupeKey,
          created: r.created,
          updated: r.updated,
          executeAfter: r.executeAfter,
          heartbeat: r.heartbeat,
          queueManagerId: r.queueManagerId,
        }
      : null,
    payload: payloadView(r?.payload ?? null, whole),
    headers: r?.headers ?? null,
    lastError: aizk.lastError ?? null,
    cancelRequestedAt: aizk.cancelRequestedAt ?? null,
    holder: story.holder,
    log: story.log,
  }
}

const indent = (text: string, by = '  ') => text.replace(/^/gm, by)

function tracebackText(l: StoryLogRow): string | null {
  const tb = l.traceback as Record<string, unknown> | null
  if (!tb) return null
  const head = `${tb.exception_type ?? 'error'}: ${tb.exception_message ?? ''}`
  const stack = typeof tb.traceback === 'string' && tb.traceback.trim() ? tb.traceback.trim() : ''
  // A JS stack repeats "Type: message" as its first line.
  const body = stack.startsWith(head) ? stack.slice(head.length).replace(/^\n/, '') : stack
  return body ? `${head}\n${body}` : head
}

/** The story as text. */
export function renderJobStory(story: JobStory, whole: boolean, now = Date.now()): string {
  const out: string[] = []
  const r = story.row
  const entrypoint = r?.entrypoint ?? story.log.at(-1)?.entrypoint ?? '?'
  const last = story.log.at(-1)
  out.push(`job ${story.id} · ${entrypoint} · ${story.state}${story.state === 'finished' && last ? ` (${last.status})` : ''}`)
  if (r) {
    const aizk = headerInfo(r.headers)
    out.push(`  priority ${r.priority} · attempts ${r.attempts} · cycles ${r.cycles}${r.dedupeKey ? ` · dedupe key ${r.dedupeKey}` : ''}`)
    out.push(`  created ${r.created} (${formatRelative(r.created, now)}) · updated ${r.updated} (${formatRelative(r.updated, now)})`)
    if (r.status === 'queued')
      out.push(`  ready ${new Date(r.executeAfter).getTime() > now ? `${formatRelative(r.executeAfter, now)} (${r.executeAfter})` : 'now'}`)
    if (aizk.cancelRequestedAt) out.push(`  cancel requested at ${aizk.cancelRequestedAt}`)
    if (story.holder) {
      const h = story.holder
      out.push(
        h.registered
          ? `  held by worker ${h.queueManagerId} on ${h.host} pid ${h.pid} (aizk ${h.version}, heartbeat ${formatAge(h.heartbeatAgeSeconds)} ago, ${h.alive ? 'alive' : 'gone: the job will be picked again'})`
          : `  held by queue manager ${h.queueManagerId} (not an aizk worker: a Python PgQueuer one?), row heartbeat ${formatRelative(r.heartbeat, now)}`,
      )
    }
    const payload = payloadView(r.payload, whole)
    out.push('')
    if (!payload) out.push('payload: none')
    else {
      out.push(`payload (${payload.bytes} bytes, ${payload.encoding}):`)
      out.push(indent(payload.text))
      if (payload.truncated) out.push(`  … cut at ${PAYLOAD_PREVIEW} characters: --full shows the whole payload`)
    }
    out.push('')
    out.push(r.headers ? `headers:\n${indent(JSON.stringify(r.headers, null, 2))}` : 'headers: none')
  } else {
    out.push('  the row is gone (finished jobs keep only their log rows, until `aizk prune`): no payload or headers')
  }
  out.push('')
  out.push(
    story.log.length
      ? `log (${story.log.length} row${story.log.length === 1 ? '' : 's'}):`
      : 'log: no rows yet (a job writes its log row when it finishes or is held)',
  )
  for (const l of story.log) {
    out.push(`  ${l.created}  ${l.status.padEnd(10)} priority ${l.priority}`)
    const tb = tracebackText(l)
    if (tb) out.push(indent(tb, '      '))
  }
  return out.join('\n')
}
