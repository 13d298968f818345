import { Args, Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { parseWhen } from '../cli/duration.js'
import { checkEntrypointName, resolveJob } from '../cli/entrypoints.js'
import { readPayload } from '../cli/payload-input.js'
import { UsageError } from '../errors.js'
import { validatePayload } from '../jobs/queue-job.js'
import { jobRegistry } from '../jobs/registry.js'
import { findLiveByKey } from '../queue/dedupe-lookup.js'
import { enqueue, MAX_DEDUPE_KEY_BYTES } from '../queue/enqueue.js'

export default class Enqueue extends AizkCommand {
  static override summary = "Enqueue one job, its payload checked against the job's schema first."
  static override description =
    'The payload comes from --payload, --payload-file, or JSON piped on stdin. Nothing is written unless the payload passes the schema of the registered job. A dedupe key that is live (queued, picked or held) is not an error: the command says so and exits 0 ("enqueued": false in JSON).'
  static override examples = [
    { command: `<%= config.bin %> enqueue aizk_usage_event --payload '{"captureKey":"abc"}'`, description: 'Enqueue with a payload given inline.' },
    { command: '<%= config.bin %> enqueue aizk_convert_artifact --payload-file job.json', description: 'Read the payload from a file.' },
    { command: `echo '{"captureKey":"abc"}' | <%= config.bin %> enqueue aizk_usage_event`, description: 'Read the payload from stdin.' },
    { command: `<%= config.bin %> enqueue aizk_usage_event --payload '{"captureKey":"abc"}' --dedupe-key usage:abc`, description: 'Skip the job if one with this key is queued, picked or held.' },
    { command: `<%= config.bin %> enqueue aizk_usage_event --payload '{}' --priority 80`, description: "Override the job's priority (larger runs first)." },
    { command: `<%= config.bin %> enqueue aizk_usage_event --payload '{}' --execute-after 5m`, description: 'Run no earlier than five minutes from now (30s, 2h, 1d, or an ISO timestamp).' },
    { command: `<%= config.bin %> enqueue py_send_mail --payload '{"to":"a@b"}' --force`, description: 'Enqueue for an entrypoint only another worker (e.g. Python PgQueuer) knows: no schema check.' },
    { command: `<%= config.bin %> enqueue aizk_usage_event --payload '{}' --json`, description: 'Print {"enqueued", "id", ...} as JSON.' },
  ]
  static override args = {
    entrypoint: Args.string({ description: 'The job entrypoint (see `aizk jobs types`).', required: true }),
  }
  static override flags = {
    payload: Flags.string({ char: 'p', description: 'The payload as JSON.' }),
    'payload-file': Flags.string({ char: 'f', description: 'Read the payload from a JSON file (- for stdin).' }),
    priority: Flags.integer({ description: "Priority (default: the job's own; larger runs first)." }),
    'dedupe-key': Flags.string({ char: 'k', description: 'Dedupe key: refused while a job with it is queued, picked or held.' }),
    'execute-after': Flags.string({ description: 'Not before: a duration from now (30s, 5m, 2h) or an ISO timestamp.' }),
    force: Flags.boolean({ description: 'Allow an entrypoint this process does not know (no schema check).', default: false }),
  }

  async run() {
    const { args, flags } = await this.parse(Enqueue)
    await this.settings()
    const entrypoint = args.entrypoint
    const job = jobRegistry.get(entrypoint)
    if (!job) {
      if (!flags.force) resolveJob(entrypoint, 'pass --force to enqueue for an entrypoint only another worker knows')
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
    const raw = await readPayload(flags)
    const payload = job ? validatePayload(job, raw ?? {}) : raw
    const priority = flags.priority ?? job?.priority ?? 0
    const db = await this.database()
    const id = await enqueue(db.pool, { entrypoint, payload, priority, dedupeKey: flags['dedupe-key'] ?? null, executeAfter })
    const live = id === false && flags['dedupe-key'] ? await findLiveByKey(db.pool, flags['dedupe-key']) : null
    const doc = {
      enqueued: id !== false,
      id: id === false ? null : id,
      entrypoint,
      priority,
      dedupeKey: flags['dedupe-key'] ?? null,
      executeAfter: executeAfter?.toISOString() ?? null,
      liveJob: live,
    }
    if (this.jsonEnabled()) return doc
    if (id !== false) {
      this.log(`enqueued job ${id} (${entrypoint}, priority ${priority}${executeAfter ? `, not before ${executeAfter.toISOString()}` : ''})`)
    } else {
      const who = live ? `: job ${live.id} (${live.entrypoint}) holds it, ${live.status === 'failed' ? 'held' : live.status}` : ''
      this.log(`not enqueued: dedupe key "${flags['dedupe-key']}" is live${who}`)
    }
    return doc
  }
}
