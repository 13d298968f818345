/**
 * UsageAccountingJob (aizk_usage_event, priority 0, unbounded): records one usage event keyed
 * by its capture key, idempotently, rolled up per scope set and day. Enqueue it with the capture
 * key as the dedupe key (`UsageAccountingJob.enqueueEvent` does).
 */
import { z } from 'zod'
import type { Queryable } from '../../db/queryable.js'
import { normalizeScopes } from '../../scope/scope-set.js'
import { User } from '../../scope/user.js'
import { recordUsage } from '../../usage/record-usage.js'
import { type JobContext, QueueJob } from '../queue-job.js'

const usagePayload = z.object({
  captureKey: z.string().min(1).max(500),
  scopes: z.array(z.string().uuid()).min(1),
  kind: z.string().min(1).max(200),
  quantity: z.number().finite().default(1),
  occurredAt: z.string().datetime({ offset: true }),
})

export type UsagePayload = z.infer<typeof usagePayload>

export class UsageAccountingJob extends QueueJob<UsagePayload> {
  static override entrypoint = 'aizk_usage_event'
  static override payload = usagePayload
  static override priority = 0
  static override concurrencyLimit = 0

  static async enqueueEvent(db: Queryable, event: z.input<typeof usagePayload>): Promise<string | false> {
    return UsageAccountingJob.enqueue(db, event, { dedupeKey: event.captureKey })
  }

  async handle(payload: UsagePayload, ctx: JobContext): Promise<void> {
    const scopes = normalizeScopes(payload.scopes)
    await User.system(scopes, ctx.settings).transaction(ctx.pool, (db) =>
      recordUsage(db, { ...payload, scopes, occurredAt: new Date(payload.occurredAt) }),
    )
  }
}
