// Jobs the command tests register through AIZK_WORKER_JOB_MODULES: a no-op the worker drains
// during the prune test, and a strict schema for the enqueue validation tests.
import { z } from 'zod'
import { jobRegistry, QueueJob } from '../../../dist/index.js'

export class CliNoopJob extends QueueJob {
  static entrypoint = 'cli_noop'
  static payload = z.any()
  async handle() {}
}

export class CliStrictJob extends QueueJob {
  static entrypoint = 'cli_strict'
  static payload = z.object({ name: z.string().min(1), count: z.number().int().positive() }).strict()
  static priority = 42
  static concurrencyLimit = 3
  async handle() {}
}

jobRegistry.registerModule({ CliNoopJob, CliStrictJob })
