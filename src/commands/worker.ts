import { Flags } from '@oclif/core'
import { POOL_GOODBYE_MS, startWorker } from '../app/run-worker.js'
import { AizkCommand } from '../cli/base-command.js'
import { secondsFlag } from '../cli/flags.js'
import { startCommandTracing } from '../cli/tracing.js'
import { attachWorkerOutputs } from '../cli/worker-outputs.js'
import { UsageError } from '../errors.js'
import { WorkerEvents } from '../events.js'
import { shutdownFinishMs } from '../worker/worker.js'

/** A SIGINT repeated within this long is the same Ctrl-C delivered twice (see onSignal). */
const REPEAT_WINDOW_MS = 1000

export default class WorkerCommand extends AizkCommand {
  static override summary = 'Run the worker: pick, run and finish queued jobs until SIGTERM.'
  static override description =
    "Binds every registered job that has a handler (aizk's inventory plus the modules named in AIZK_WORKER_JOB_MODULES), picks batches in priority order, and keeps going through database restarts. SIGTERM or SIGINT drains: stop picking, let running jobs finish within the shutdown timeout, put the rest back to queued without counting an attempt, exit 0 (at the timeout even if a handler ignores its abort signal). A second signal exits at once; what it leaves picked is recovered by another worker after the heartbeat timeout. Each flag is also a setting."
  static override examples = [
    { command: '<%= config.bin %> worker', description: 'Run every job this installation knows.' },
    { command: '<%= config.bin %> worker --entrypoint aizk_convert_artifact --concurrency 4', description: 'A dedicated conversion worker.' },
    {
      command: 'AIZK_WORKER_JOB_MODULES=./dist/jobs.js <%= config.bin %> worker --no-scheduler',
      description: "Also bind the application's own jobs; no cron ticks from this process.",
    },
    {
      command: '<%= config.bin %> worker --batch-size 128 --health-port 9464',
      description: 'Bigger batches; serve /livez, /readyz and /metrics on port 9464.',
    },
    {
      command: '<%= config.bin %> worker --concurrency 16 --batch-size 256 --local-queue 512',
      description: 'Quick jobs, 16 at a time: picks of 256 (up to 512 while they come back full), hold up to 512 waiting for a slot.',
    },
    {
      command: '<%= config.bin %> worker --picks-in-flight 2',
      description: 'A lone worker on a server with idle cores: a second pick while the first is on its way (faster drains, more server CPU per job).',
    },
    {
      command: '<%= config.bin %> worker --heartbeat-timeout 60 --shutdown-timeout 50',
      description: 'Long jobs: more time before a silent pick is recovered, and to drain on SIGTERM.',
    },
    { command: '<%= config.bin %> worker --json', description: 'JSON lines on stdout even on a terminal (the default elsewhere).' },
  ]
  static override flags = {
    'batch-size': Flags.integer({
      description: 'Jobs picked per round trip on a quiet queue; full picks double, up to 8 x (at most 512) (AIZK_QUEUE_BATCH_SIZE, 64).',
      min: 1,
      max: 10000,
    }),
    concurrency: Flags.integer({ description: 'Jobs running at once (AIZK_QUEUE_CONCURRENT_TASKS, 4 x batch size).', min: 1 }),
    'local-queue': Flags.integer({
      description: 'Picked jobs held waiting for a free slot (AIZK_QUEUE_LOCAL_SIZE, 2 x the largest pick, at least 4 x batch size; 0 = none).',
      min: 0,
      max: 100000,
    }),
    'picks-in-flight': Flags.integer({
      description: 'Picks on the server at once (AIZK_QUEUE_PICKS_IN_FLIGHT, 1): 2 drains a busy queue faster at more server CPU per job.',
      min: 1,
      max: 2,
    }),
    entrypoint: Flags.string({ description: 'Only these entrypoints; repeatable (AIZK_WORKER_ENTRYPOINTS).', multiple: true }),
    scheduler: Flags.boolean({ description: 'Run the cron scheduler in this process (AIZK_WORKER_NO_SCHEDULER).', allowNo: true }),
    'heartbeat-timeout': secondsFlag({
      description: 'Seconds after which a silent pick is re-picked by another worker (AIZK_HEARTBEAT_TIMEOUT_SECONDS, 30).',
      example: '--heartbeat-timeout 60',
    }),
    'shutdown-timeout': secondsFlag({
      description: 'Seconds running jobs get to finish on SIGTERM (AIZK_SHUTDOWN_TIMEOUT_SECONDS, 25).',
      example: '--shutdown-timeout 50',
    }),
    'health-port': Flags.integer({ description: 'Serve /livez, /readyz and /metrics on this port (AIZK_WORKER_HEALTH_PORT).', min: 0, max: 65535 }),
  }

  // --json here means JSON lines streamed by attachWorkerOutputs as the worker runs: run() returns
  // no document for oclif to print (it ends in exit 0), while errors still print oclif's JSON form.
  async run(): Promise<void> {
    const { flags } = await this.parse(WorkerCommand)
    const entrypoints = flags.entrypoint?.flatMap((e) => e.split(',')).map((e) => e.trim())
    if (entrypoints?.some((e) => e === '')) {
      // An empty name is not "no filter": a script whose variable came out empty must not run every job.
      const given = flags.entrypoint?.find((e) => e.split(',').some((part) => part.trim() === '')) ?? ''
      throw new UsageError(
        `--entrypoint "${given}" names an empty entrypoint`,
        'name the entrypoints to run (`aizk jobs types` lists them), or leave --entrypoint out to run every job',
      )
    }
    // Flags are overrides of the one settings pass: AIZK_QUEUE_CONCURRENT_TASKS stays when only
    // --batch-size is given, and a value out of range is reported with the variables (exit 3).
    const settings = await this.settings({
      overrides: {
        queueBatchSize: flags['batch-size'],
        queueConcurrentTasks: flags.concurrency,
        queueLocalSize: flags['local-queue'],
        queuePicksInFlight: flags['picks-in-flight'],
        workerEntrypoints: entrypoints?.length ? entrypoints : undefined,
        workerNoScheduler: flags.scheduler === undefined ? undefined : !flags.scheduler,
        heartbeatTimeoutSeconds: flags['heartbeat-timeout'],
        shutdownTimeoutSeconds: flags['shutdown-timeout'],
        workerHealthPort: flags['health-port'],
        workerOutput: this.jsonEnabled() ? 'json' : undefined,
      },
      sources: { heartbeatTimeoutSeconds: '--heartbeat-timeout' },
    })

    const events = new WorkerEvents()
    // The live view on a terminal, JSON lines elsewhere; closed after the drain so it shows it.
    const outputs = await attachWorkerOutputs({ events, settings })
    // Before the worker starts: its executor and scheduler ask once whether an SDK is installed.
    const tracing = await startCommandTracing('aizk-worker', (line) => outputs.note(line))
    try {
      const running = await startWorker({ settings, events, log: (line) => outputs.note(line) })
      await new Promise<void>((resolve) => {
        let first: { signal: NodeJS.Signals; at: number } | undefined
        const onSignal = (signal: NodeJS.Signals) => {
          if (first) {
            // `npx aizk worker`: npm forwards the terminal's Ctrl-C to the worker, which the
            // terminal already sent it (one process group): a second SIGINT within a second is
            // that one press. SIGTERM is never doubled that way, and a second one always ends the
            // process at once, as does any signal later: Node's default action.
            if (signal === 'SIGINT' && first.signal === 'SIGINT' && Date.now() - first.at < REPEAT_WINDOW_MS) return
            process.off('SIGTERM', onSignal)
            process.off('SIGINT', onSignal)
            process.kill(process.pid, signal)
            return
          }
          first = { signal, at: Date.now() }
          // Every step of the drain is bounded; should one still hang, the process ends anyway.
          const lastWordMs = settings.shutdownTimeoutSeconds * 1000 + shutdownFinishMs(settings) + POOL_GOODBYE_MS
          setTimeout(() => {
            outputs.note(`aizk: the drain did not end within ${lastWordMs} ms; exiting`)
            resolve()
          }, lastWordMs).unref()
          running.stop(settings.shutdownTimeoutSeconds * 1000, signal).then(resolve, resolve)
        }
        process.on('SIGTERM', onSignal)
        process.on('SIGINT', onSignal)
      })
    } finally {
      await tracing?.shutdown().catch((err) => this.note(`aizk: could not export traces: ${err instanceof Error ? err.message : String(err)}`))
      await outputs.close()
    }
    // The drain is over: whatever was running is finished or released. A handler that ignored
    // its abort signal may still hold timers or sockets; it must not keep the process (and its
    // released jobs' side effects) alive, so end now, exit 0 (docs/job-lifecycle.md#shutdown).
    this.exit(0)
  }
}
