/**
 * aizk's library API: what the application imports to enqueue follow-up work in the same
 * transaction as its write, and to declare jobs.
 */
export { JobPriority } from './jobs/priority.js'
export { QueueJob, type JobContext, type JobKind, type JobClass, validatePayload } from './jobs/queue-job.js'
export { JobRegistry, jobRegistry, JobDeclarationError } from './jobs/registry.js'
export { enqueue, enqueueMany, type EnqueueItem, type EnqueueOptions } from './queue/enqueue.js'
export { PayloadError } from './queue/payload.js'
export { loadSettings, parseSettings, registerSettings, type Settings } from './settings.js'
export { openDatabase, type Database } from './db/database.js'
export { migrate } from './db/migrate.js'
export * from './errors.js'
