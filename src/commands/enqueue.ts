import { Args, Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { readPayload } from '../cli/payload-input.js'
import { withCommandTracing } from '../cli/tracing.js'
import { outcomeError } from '../cli/wait-outcome.js'
import { UsageError } from '../errors.js'
import { type JobClass, validatePayload } from '../jobs/queue-job.js'
import { jobRegistry } from '../jobs/registry.js'
import { MAX_TIMER_MS, parseDuration, parseWhen } from '../operator/duration.js'
import { checkEntrypointName, resolveJob } from '../operator/entrypoints.js'
import { payloadShape } from '../operator/payload-fields.js'
import { findLiveByKey } from '../queue/dedupe-lookup.js'
import { enqueue, MAX_DEDUPE_KEY_BYTES } from '../queue/enqueue.js'
import { PayloadError } from '../queue/payload.js'
import { type JobOutcome, waitForJobs } from '../queue/wait-for-jobs.js'

export default class Enqueue extends AizkCommand {
  static override summary = "Enqueue one job, its payload checked against the job's schema first."
  static override description =
    'The payload comes from --payload, --payload-file, or JSON piped on stdin. Nothing is written unless the payload passes the schema of the registered job. A dedupe key that is live (queued, picked or held) is not an error: the command says so and exits 0 ("enqueued": false in JSON).'
  // Every example runs as written (test/commands/enqueue-examples.test.ts runs them all, with
  // usage.json as the description shows it). Each JSON token stays short: --help wraps lines
  // only between words, so a copied example keeps working at 80 columns.
  static override examples = [
    {
      command: `<%= config.bin %> enqueue aizk_task_decay --payload '{"scopes":["5f1c8a2e-4b7d-4c3a-9e21-7d3b6a0c9f14"]}'`,
      description: "Run one scope set's decay pass now, the payload inline (`aizk jobs types` lists each job's payload fields).",
    },
    {
      command: '<%= config.bin %> enqueue aizk_usage_event --payload-file usage.json',
      description:
        'Read the payload from a file; usage.json: {"captureKey": "abc", "scopes": ["5f1c8a2e-4b7d-4c3a-9e21-7d3b6a0c9f14"], "kind": "tokens", "quantity": 120, "occurredAt": "2026-12-01T09:00:00Z"}.',
    },
    {
      command: `echo '{"scopes":["5f1c8a2e-4b7d-4c3a-9e21-7d3b6a0c9f14"]}' | <%= config.bin %> enqueue aizk_task_dedup`,
      description: 'Read the payload from stdin.',
    },
    {
      command: '<%= config.bin %> enqueue aizk_task_cleanup --dedupe-key cleanup:manual',
      description: 'Skip the job if one with this key is queued, picked or held (a job without payload fields needs no --payload).',
    },
    { command: '<%= config.bin %> enqueue aizk_task_cleanup --priority 80', description: "Override the job's priority (larger runs first)." },
    {
      command: '<%= config.bin %> enqueue aizk_task_cleanup --execute-after 5m',
      description: 'Run no earlier than five minutes from now (30s, 2h, 1d, or an ISO timestamp).',
    },
    {
      command: `<%= config.bin %> enqueue py_send_mail --payload '{"to":"a@b"}' --force`,
      description: 'Enqueue for an entrypoint only another worker (e.g. Python PgQueuer) knows: no schema check.',
    },
    {
      command: '<%= config.bin %> enqueue aizk_usage_event --payload-file usage.json --wait --timeout 2m',
      description:
        'Wait until the job finishes: exit 0 when it succeeds, 8 when it is held (failed), 9 canceled or discarded, 10 still running after the timeout.',
    },
    { command: '<%= config.bin %> enqueue aizk_task_cleanup --json', description: 'Print {"enqueued", "id", ...} as JSON (with --wait, also "outcome").' },
  ]
  static override args = {
    entrypoint: Args.string({ description: 'The job entrypoint (`aizk jobs types` lists them with their payload fields).', required: true }),
  }
  static override flags = {
    payload: Flags.string({ char: 'p', description: 'The payload as JSON.' }),
    'payload-file': Flags.string({ char: 'f', description: 'Read the payload from a JSON file (- for stdin).' }),
    priority: Flags.integer({ description: "Priority (default: the job's own; larger runs first)." }),
    'dedupe-key': Flags.string({ char: 'k', description: 'Dedupe key: refused while a job with it is queued, picked or held.' }),
    'execute-after': Flags.string({ description: 'Not before: a duration from now (30s, 5m, 2h) or an ISO timestamp.' }),
    force: Flags.boolean({ description: 'Allow an entrypoint this process does not know (no schema check).', default: false }),
    wait: Flags.boolean({
      description: 'Wait until the job finishes: exit 0 when it succeeds, 8 when it is held (failed), 9 when it is canceled or discarded, 10 on --timeout.',
      default: false,
    }),
    timeout: Flags.string({ description: 'With --wait: give up after this long (30s, 5m, 1h; at most about 24.8 days); default: wait for ever.' }),
  }

  async run() {
    const { args, flags } = await this.parse(Enqueue)
    await this.settings()
    const entrypoint = args.entrypoint
    const job = jobRegistry.get(entrypoint)
    if (!job) {
      if (!flags.force) {
        resolveJob(
          entrypoint,
          'to register a job of your own, name its module in AIZK_WORKER_JOB_MODULES for this command and the worker alike (README, "Your first job"); --force enqueues for an entrypoint only another worker (e.g. Python PgQueuer) knows, with no payload check',
        )
      }
      checkEntrypointName(entrypoint)
    }
    const executeAfter = flags['execute-after'] ? parseWhen(flags['execute-after'], '--execute-after') : null
    if (flags['dedupe-key'] !== undefined && flags['dedupe-key'].trim() === '') {
      throw new UsageError('--dedupe-key is empty', 'give a non-empty key, or leave the flag out')
    }
    if (flags['dedupe-key'] !== undefined && Buffer.byteLength(flags['dedupe-key']) > MAX_DEDUPE_KEY_BYTES) {
      throw new UsageError(
        `--dedupe-key is ${Buffer.byteLength(flags['dedupe-key'])} bytes; at most ${MAX_DEDUPE_KEY_BYTES} are allowed`,
        'use a shorter key, or a hash of the long one',
      )
    }
    if (flags.priority !== undefined && Math.abs(flags.priority) > 2 ** 31 - 1) {
      throw new UsageError(`--priority ${flags.priority} is out of range`, 'use a whole number such as 10, 50 or 75')
    }
    if (flags.timeout !== undefined && !flags.wait) throw new UsageError('--timeout needs --wait', 'add --wait, or leave --timeout out')
    const timeoutMs = flags.timeout === undefined ? undefined : parseTimeout(flags.timeout)
    const raw = await readPayload(flags)
    const payload = job ? checkedPayload(job, raw ?? {}) : raw
    const priority = flags.priority ?? job?.priority ?? 0
    const db = await this.database()
    const id = await withCommandTracing(
      'aizk-cli',
      (line) => this.note(line),
      () => enqueue(db.pool, { entrypoint, payload, priority, dedupeKey: flags['dedupe-key'] ?? null, executeAfter }),
    )
    const live = id === false && flags['dedupe-key'] ? await findLiveByKey(db.pool, flags['dedupe-key']) : null
    const doc: EnqueueResult = {
      enqueued: id !== false,
      id: id === false ? null : id,
      entrypoint,
      priority,
      dedupeKey: flags['dedupe-key'] ?? null,
      executeAfter: executeAfter?.toISOString() ?? null,
      liveJob: live,
    }
    if (!this.jsonEnabled()) {
      if (id !== false) {
        this.log(`enqueued job ${id} (${entrypoint}, priority ${priority}${executeAfter ? `, not before ${executeAfter.toISOString()}` : ''})`)
      } else {
        const who = live ? `: job ${live.id} (${live.entrypoint}) holds it, ${live.status === 'failed' ? 'held' : live.status}` : ''
        this.log(`not enqueued: dedupe key "${flags['dedupe-key']}" is live${who}`)
      }
    }
    // A dedupe key already live: wait on the job that holds it, which is the one that will do the work.
    const waitId = id === false ? (live?.id ?? null) : id
    if (!flags.wait || waitId === null) return doc
    const [outcome] = await waitForJobs(db.pool, [waitId], { timeoutMs })
    doc.outcome = outcome
    const failure = outcomeError(outcome, flags.timeout)
    if (failure) throw failure
    this.log(`job ${waitId} succeeded`)
    return doc
  }
}

interface EnqueueResult {
  enqueued: boolean
  id: string | null
  entrypoint: string
  priority: number
  dedupeKey: string | null
  executeAfter: string | null
  liveJob: Awaited<ReturnType<typeof findLiveByKey>>
  /** With --wait: how the job ended. */
  outcome?: JobOutcome
}

/** The payload as the job's schema reads it; on failure the hint shows the fields the job takes. */
function checkedPayload(job: JobClass, raw: unknown): unknown {
  try {
    return validatePayload(job, raw)
  } catch (err) {
    if (!(err instanceof PayloadError)) throw err
    const shape = payloadShape(job.payload, job.payloadFormat).summary
    throw new UsageError(err.message, `${job.entrypoint} takes ${shape} (\`aizk jobs types\` lists every job's payload)`, err.details)
  }
}

function parseTimeout(text: string): number {
  const ms = parseDuration(text)
  if (ms === null || ms <= 0) throw new UsageError(`--timeout "${text}" is not a duration`, 'use a duration such as 30s, 5m or 1h')
  if (ms > MAX_TIMER_MS) {
    throw new UsageError(
      `--timeout "${text}" is longer than a timer can wait: at most ${MAX_TIMER_MS / 1000} seconds (about 24.8 days)`,
      'use a shorter --timeout such as 1h or 7d, or leave it out to wait for ever',
    )
  }
  return ms
}
