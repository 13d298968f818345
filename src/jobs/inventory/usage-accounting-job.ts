/**
 * UsageAccountingJob (aizk_usage_event, priority 0, unbounded): records one usage event keyed
 * by its capture key within its scope set, idempotently, rolled up per scope set and day. Its
 * dedupe key is `usage:<set>:<capture key>` (`UsageAccountingJob.dedupeKey`), the form the enqueue
 * door requires of scoped work, so no set's key can block another's event.
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

  static dedupeKey(event: { scopes: readonly string[]; captureKey: string }): string {
    return `usage:${normalizeScopes(event.scopes).join(',')}:${event.captureKey}`
  }

  static async enqueueEvent(db: Queryable, event: z.input<typeof usagePayload>): Promise<string | false> {
    return UsageAccountingJob.enqueue(db, event, { dedupeKey: UsageAccountingJob.dedupeKey(event) })
  }

  async handle(payload: UsagePayload, ctx: JobContext): Promise<void> {
    const scopes = normalizeScopes(payload.scopes)
    await User.system(scopes, ctx.settings).transaction(ctx.pool, (db) => recordUsage(db, { ...payload, scopes, occurredAt: new Date(payload.occurredAt) }))
  }
}
